/**
 * Serialized answers of the post reads, kept until the store's revision moves (issue 10: post
 * list and post by slug within half the speed of a bare Node server). A test suite reads the
 * same few lists and posts over and over between writes; building, serializing and hashing
 * (ETag) a page of ten 2 KB posts each time was most of a read's cost (docs/performance.md).
 * The key is everything the answer depends on besides the organization's data: the path, the
 * query string without the token, and the CDN base of this request (media URLs name it).
 */
import type { Request, Response } from 'express';
import type { Organization } from '../store/schema.js';
import { AnswerCache } from '../http/answer-cache.js';
import { markReplayable } from '../http/read-replay.js';
import { cdnBase } from './route-helpers.js';

interface Cached {
  body: Buffer;
  etag: string | undefined;
}

/**
 * Enough for the list pages and posts a suite reads again and again between two writes. An
 * answer is kept the second time it is built at a revision, while there is room: a distinct
 * search is built once and never kept (answer-cache.ts).
 */
const LIMITS = { maxEntries: 512, maxBytes: 8 * 1024 * 1024, admitOnSecondAsk: true };

const byOrganization = new WeakMap<Organization, AnswerCache<Cached>>();

function answersOf(org: Organization): AnswerCache<Cached> {
  let answers = byOrganization.get(org);
  if (!answers) {
    answers = new AnswerCache<Cached>(LIMITS);
    byOrganization.set(org, answers);
  }
  return answers;
}

/** The token may come in the query: it selects the organization and never changes the answer. */
function keyOf(req: Request): string {
  const query = req.originalUrl.indexOf('?');
  const search = query === -1 ? '' : req.originalUrl.slice(query + 1).replace(/(^|&)auth_token=[^&]*/g, '');
  return `${cdnBase(req)} ${req.baseUrl}${req.path} ${search}`;
}

function send(res: Response, answer: Cached, kept: boolean): void {
  res.type('json');
  if (answer.etag) res.set('ETag', answer.etag);
  // A kept answer is given again without Express to the same request at the same revision
  // (read-replay.ts); one not kept is not repeated there either.
  if (kept) markReplayable(res.locals, answer.body);
  res.send(answer.body);
}

/**
 * Answers from the cache, or runs `build` (which parses and validates the request and may throw
 * its 400 or 404) and keeps its 200 answer, serialized as res.json would.
 */
export function cachedJson(req: Request, res: Response, org: Organization, revision: number, build: () => unknown): void {
  const answers = answersOf(org);
  const key = keyOf(req);
  const hit = answers.get(revision, key);
  if (hit) {
    send(res, hit, true);
    return;
  }
  const app = req.app;
  const spaces = app.get('json spaces') as string | number | undefined;
  const replacer = app.get('json replacer') as ((key: string, value: unknown) => unknown) | undefined;
  const text = JSON.stringify(build(), replacer, spaces);
  if (!answers.admits(revision, key, Buffer.byteLength(text, 'utf8'))) {
    // Not kept (a distinct search, say): sent as the string it is, no Buffer made (text-answers.ts).
    res.type('json');
    res.send(text);
    return;
  }
  const body = Buffer.from(text, 'utf8');
  const etagOf = app.get('etag fn') as ((body: Buffer, encoding?: string) => string) | undefined;
  const fresh: Cached = { body, etag: etagOf?.(body) };
  answers.keep(key, fresh);
  send(res, fresh, true);
}
