/**
 * Recording requests into the request log (request-log.ts): the middleware in front of the API's
 * and the CDN's routers, and the same for a read answered outside Express (read-replay.ts). Each
 * request gets an id (res.locals.requestId) that the jobs and deliveries it causes carry in their
 * cause. Bodies are copied into the log's slabs as they are written (at most BODY_CAP bytes each),
 * so no Buffer that was sent is kept.
 */
import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { EventBus } from '../bus.js';
import type { Clock } from '../clock.js';
import { logSlabs } from './body-slabs.js';
import {
  BODY_CAP,
  StoredBody,
  StoredRequest,
  StoredRequestPart,
  StoredResponsePart,
  type LoggedRequest,
  type QueryParser,
  type RawHeaders,
} from './logged-entry.js';
import type { RequestLog } from './request-log.js';

const isText = (type: string | undefined): boolean => !type || /json|xml|text|javascript|x-www-form-urlencoded/i.test(type);

/** The bytes of `chunk` to keep (at most `room`): a copy, never the Buffer that was sent. */
const retain = (chunk: Buffer, room: number): Buffer => logSlabs.copy(chunk, Math.min(chunk.length, room));

/** One body as captured: the chunks kept (up to BODY_CAP bytes) and the whole size. */
class Capture {
  chunks: Buffer[] | null = null;
  captured = 0;
  size = 0;

  /** A chunk as bytes, or as a string in UTF-8 (its bytes then go straight into the log's slabs). */
  add(chunk: Buffer | string, keep: boolean): void {
    const bytes = typeof chunk === 'string' ? Buffer.byteLength(chunk, 'utf8') : chunk.length;
    this.size += bytes;
    if (!keep || this.captured >= BODY_CAP || bytes === 0) return;
    const room = BODY_CAP - this.captured;
    const kept = typeof chunk === 'string' ? logSlabs.copyText(chunk, Math.min(bytes, room)) : retain(chunk, room);
    (this.chunks ??= []).push(kept);
    this.captured += kept.length;
  }
}

type Method = (...args: unknown[]) => unknown;

/**
 * A written chunk as Capture.add takes it: a string in UTF-8 as it is (never encoded into a Buffer
 * of its own), other strings encoded, bytes as they are. `encoding` is a callback in `end(chunk, cb)`.
 */
function chunkOf(chunk: unknown, encoding: unknown): Buffer | string | null {
  if (chunk === undefined || chunk === null || typeof chunk === 'function') return null;
  if (Buffer.isBuffer(chunk)) return chunk;
  const utf8 = encoding === undefined || encoding === 'utf8' || encoding === 'utf-8' || typeof encoding === 'function';
  if (typeof chunk === 'string' && utf8) return chunk;
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  return Buffer.from(String(chunk), typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
}

/**
 * A request answered outside the Express stack (read-replay.ts sends a remembered read): logged
 * as the same entry requestLogger makes for it, and announced on the bus alike.
 */
export interface AnsweredRequest {
  surface: LoggedRequest['surface'];
  method: string;
  rawUrl: string;
  parseQuery: QueryParser | undefined;
  organization: string;
  token: 'read' | 'write';
  requestHeaders: RawHeaders;
  status: number;
  responseHeaders: RawHeaders;
  /** The whole response body, text. */
  body: Buffer;
  /** performance.now() and the clock's time when the request came. */
  started: number;
  time: string;
}

export function logAnswered(log: RequestLog, bus: EventBus, answered: AnsweredRequest): void {
  const response = new Capture();
  response.add(answered.body, true);
  const entry = new StoredRequest({
    id: randomUUID(),
    time: answered.time,
    duration_ms: Math.round((performance.now() - answered.started) * 100) / 100,
    surface: answered.surface,
    method: answered.method,
    rawUrl: answered.rawUrl,
    parseQuery: answered.parseQuery,
    organization: answered.organization,
    token: answered.token,
    request: new StoredRequestPart(answered.requestHeaders, new StoredBody(0, null, null)),
    response: new StoredResponsePart(answered.status, answered.responseHeaders, new StoredBody(response.size, response.chunks, null)),
  });
  bus.emit({ type: 'request.logged', request: entry, sequence: log.add(entry) });
}

/** Records each request of `surface`; put it in front of that surface's routers. */
export function requestLogger(log: RequestLog, surface: LoggedRequest['surface'], clock: Clock, bus: EventBus): RequestHandler {
  return (req, res, next) => {
    const id = randomUUID();
    res.locals.requestId = id;
    const started = performance.now();
    const time = clock.now().toISOString();
    const response = new Capture();
    // The request body exactly as sent: a tee of the stream. Listening in the same synchronous
    // middleware chain as the body parser loses nothing, and it also reads bodies nobody else
    // does (a write refused with 401 before its body was parsed).
    const request = new Capture();
    if (req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined) {
      req.on('data', (chunk: Buffer) => request.add(chunk, true));
    }

    // Whether to keep response bytes is settled at the first chunk, when the headers are final:
    // a binary body (an image from the CDN) is logged as a note of its size, so none are kept.
    let keep: boolean | undefined;
    const capture = (written: unknown, encoding: unknown) => {
      const chunk = chunkOf(written, encoding);
      if (chunk === null) return;
      if (keep === undefined) {
        const type = res.getHeader('content-type');
        keep = isText(typeof type === 'string' ? type : undefined);
      }
      response.add(chunk, keep);
    };
    // Called with the arguments as given: Node tells `end(chunk, callback)` from `end(chunk, encoding)` by them.
    const write = res.write as Method;
    const end = res.end as Method;
    res.write = ((...args: unknown[]) => {
      capture(args[0], args[1]);
      return write.apply(res, args);
    }) as typeof res.write;
    res.end = ((...args: unknown[]) => {
      capture(args[0], args[1]);
      return end.apply(res, args);
    }) as typeof res.end;

    res.on('finish', () => {
      const responseType = res.getHeader('content-type');
      const text = isText(typeof responseType === 'string' ? responseType : undefined);
      const auth = res.locals.auth;
      const entry = new StoredRequest({
        id,
        time,
        duration_ms: Math.round((performance.now() - started) * 100) / 100,
        surface,
        method: req.method,
        rawUrl: req.originalUrl,
        parseQuery: req.app.get('query parser fn') as QueryParser | undefined,
        organization: auth?.organization.slug ?? null,
        token: auth?.token ?? null,
        request: new StoredRequestPart(req.headers, new StoredBody(request.size, request.chunks, null)),
        response: new StoredResponsePart(
          res.statusCode,
          res.getHeaders(),
          text
            ? new StoredBody(response.size, response.chunks, null)
            : new StoredBody(response.size, null, `[${response.size} bytes of ${String(responseType)}]`),
        ),
      });
      bus.emit({ type: 'request.logged', request: entry, sequence: log.add(entry) });
    });
    next();
  };
}
