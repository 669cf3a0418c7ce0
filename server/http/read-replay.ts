/**
 * Repeated reads answered before the Express stack (issue 10: post list and post by slug at
 * least half as fast as a bare Node server). A test suite reads the same lists and posts over and
 * over between two writes; the post reads already keep their serialized answer per store revision
 * (api/posts-cache.ts), but each request still paid Express's own per-request work (its
 * request/response setup and router, about half of the ceiling on its own, docs/performance.md)
 * plus the middleware that produced the very same answer last time.
 *
 * So the exact 200 answer of a read that its route declares replayable (`markReplayable`), with
 * the headers Express sent, is remembered for the exact request: method GET, the raw URL (token
 * included), the Host and Authorization headers and whether the connection is TLS (the CDN URLs
 * in a post name the host and scheme). While the store's revision has not moved, the same request
 * is answered with the same status, headers and bytes, and logged as the same request-log entry
 * (and live event) requestLogger would make. Nothing else about the request can change the answer:
 * CORS headers are fixed, the token's organization and kind live in the store, and conditional or
 * ranged requests, HEAD, and requests with a body are never replayed (Express answers them).
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { EventBus } from '../bus.js';
import type { Clock } from '../clock.js';
import type { AuthContext } from './auth.js';
import { AnswerCache } from './answer-cache.js';
import type { QueryParser, RequestLog } from './request-log.js';
import { logAnswered } from './request-logger.js';

interface Remembered {
  headers: OutgoingHttpHeaders;
  body: Buffer;
  organization: string;
  token: AuthContext['token'];
}

/**
 * Enough for the list pages and posts a suite reads again and again between two writes (per
 * token and host). What routes mark replayable was already asked twice (posts-cache.ts), so every
 * such answer is taken while there is room (answer-cache.ts).
 */
const LIMITS = { maxEntries: 1024, maxBytes: 8 * 1024 * 1024 };

declare module 'express-serve-static-core' {
  interface Locals {
    /** Set by a route whose 200 answer depends only on the request's key and the store (markReplayable). */
    replayable?: { body: Buffer };
  }
}

/** What a response's locals may hold that a replay needs. */
interface ReplayLocals {
  replayable?: { body: Buffer };
  auth?: AuthContext;
}

/** The route's answer (`body`, as sent) may be replayed for the same request at the same revision. */
export function markReplayable(locals: ReplayLocals, body: Buffer): void {
  locals.replayable = { body };
}

/** Headers that make a request conditional or partial: Express decides those (304, 412, 206). */
const CONDITIONAL = ['if-none-match', 'if-modified-since', 'if-match', 'if-unmodified-since', 'if-range', 'range'] as const;

/** The request's identity for a replay, or null when it must go through Express. */
function keyOf(req: IncomingMessage): string | null {
  if (req.method !== 'GET') return null;
  const headers = req.headers;
  if (headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined) return null;
  for (const name of CONDITIONAL) if (headers[name] !== undefined) return null;
  const tls = (req.socket as Partial<TLSSocket>).encrypted === true ? 's' : '';
  return `${tls} ${headers.host ?? ''} ${headers.authorization ?? ''} ${req.url ?? ''}`;
}

export interface ReadReplayDeps {
  /** The store's revision now: a remembered answer is good only at the revision it was made. */
  revision: () => number;
  /** The base path of the emulated API: only its requests are replayed (and logged as `api`). */
  basePath: string;
  log: RequestLog;
  bus: EventBus;
  clock: Clock;
  /** The app's query parser, which the log uses to show the query. */
  parseQuery: QueryParser | undefined;
}

export class ReadReplay {
  readonly #answers = new AnswerCache<Remembered>(LIMITS);
  /** How many requests were answered from memory (tests, bench). */
  hits = 0;

  constructor(private readonly deps: ReadReplayDeps) {}

  /**
   * Answers `req` from memory and returns true, or returns false (and then watches the answer
   * Express gives, to remember it when its route marks it replayable).
   */
  handle(req: IncomingMessage, res: ServerResponse): boolean {
    if (!req.url?.startsWith(this.deps.basePath + '/')) return false;
    const key = keyOf(req);
    if (key === null) return false;
    const revision = this.deps.revision();
    const answer = this.#answers.get(revision, key);
    if (!answer) {
      this.#watch(key, revision, res);
      return false;
    }
    const started = performance.now();
    const time = this.deps.clock.now().toISOString();
    res.writeHead(200, answer.headers);
    res.end(answer.body);
    this.hits += 1;
    logAnswered(this.deps.log, this.deps.bus, {
      surface: 'api',
      method: 'GET',
      rawUrl: req.url,
      parseQuery: this.deps.parseQuery,
      organization: answer.organization,
      token: answer.token,
      requestHeaders: req.headers,
      status: 200,
      responseHeaders: answer.headers,
      body: answer.body,
      started,
      time,
    });
    return true;
  }

  /** Remembers Express's answer to `key` if its route marked it replayable and nothing moved meanwhile. */
  #watch(key: string, revision: number, res: ServerResponse): void {
    res.once('finish', () => {
      // Express gave the response its locals; a response it never saw has none.
      const locals = (res as ServerResponse & { locals?: ReplayLocals }).locals;
      const replayable = locals?.replayable;
      const auth = locals?.auth;
      if (!replayable || !auth || res.statusCode !== 200 || this.deps.revision() !== revision) return;
      // Date is Node's, per response; everything else is what Express set.
      const headers = { ...res.getHeaders() };
      delete headers.date;
      this.#answers.offer(revision, key, { headers, body: replayable.body, organization: auth.organization.slug, token: auth.token });
    });
  }
}
