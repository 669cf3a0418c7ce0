/**
 * The request log (issue 6): every request to the emulated API and the CDN, with its response,
 * token values redacted and bodies capped, in a ring buffer so memory stays bounded. Each request
 * gets an id (res.locals.requestId) that the jobs and deliveries it causes carry in their cause.
 *
 * Recording is on the path of every request, reading is rare: so an entry keeps what it was given
 * (the body chunks written, copied as bytes into the log's slabs; the header objects; the raw URL)
 * and does the work of presenting it (decoding, redaction, the query) only when it is read. Bodies
 * count against a byte budget besides the cap on entries: when it is exceeded, the oldest entries
 * lose their bodies.
 */
import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { EventBus } from '../bus.js';
import type { Clock } from '../clock.js';
import { BodySlabs } from './body-slabs.js';

export const BODY_CAP = 64 * 1024;
export const DEFAULT_LOG_SIZE = 5000;
/**
 * Bytes of bodies held. When the log kept the sent Buffers themselves, in malloc's main heap, a
 * larger budget pinned more of the memory between them that short-lived responses used: on the
 * large store, 30,000 mixed reads left 135 MB of that heap resident with 32 MiB and 65 MB with
 * 8 MiB, the process 404 against 316 MiB (bench/memory-breakdown.ts --writes 0). Copies into slabs
 * (body-slabs.ts, since session 8) pin none of it. 8 MiB holds the bodies of the last few hundred
 * to few thousand requests, what one looks at.
 */
export const DEFAULT_BODY_BUDGET = 8 * 1024 * 1024;

export interface LoggedBody {
  text: string;
  truncated: boolean;
  /** Bytes of the whole body (when known). */
  size: number;
  /** Present (true) when the log dropped this body to stay within its byte budget. */
  dropped?: true;
}

export interface LoggedRequest {
  id: string;
  time: string;
  duration_ms: number;
  surface: 'api' | 'cdn';
  method: string;
  /** The URL as requested, with `auth_token` redacted. */
  url: string;
  path: string;
  query: Record<string, string | string[]>;
  organization: string | null;
  token: 'read' | 'write' | null;
  request: { headers: Record<string, string>; body: LoggedBody };
  response: { status: number; headers: Record<string, string>; body: LoggedBody };
}

export interface RequestLogOptions {
  /** Entries kept (the newest). */
  size?: number;
  /** Bytes of captured bodies held across all entries; a buffer shared by entries counts once. */
  bodyBudget?: number;
}

const REDACTED = '[redacted]';

export type RawHeaders = Record<string, string | string[] | number | undefined>;
export type QueryParser = (query: string) => Record<string, string | string[]>;

function redactHeaders(headers: RawHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of Object.keys(headers)) {
    const value = headers[name];
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.join(', ') : String(value);
    if (name.toLowerCase() === 'authorization') {
      // Keep the scheme ("Token", "Bearer") so the log still says how the client authenticated.
      const scheme = /^(\S+)\s+\S/.exec(text)?.[1];
      out[name] = scheme ? `${scheme} ${REDACTED}` : REDACTED;
    } else out[name] = text;
  }
  return out;
}

const TOKEN_PARAM = 'auth_token=';

/**
 * `auth_token` values in a URL replaced, as `url.replace(/([?&]auth_token=)[^&#]*\/g, …)` would:
 * scanned by hand because every request's summary needs it and the regex replace cost more than
 * the rest of the summary.
 */
export function redactUrl(url: string): string {
  let at = url.indexOf(TOKEN_PARAM);
  if (at === -1) return url;
  let out = '';
  let from = 0;
  while (at !== -1) {
    const before = url.charCodeAt(at - 1);
    let next = at + TOKEN_PARAM.length;
    if (before === 0x3f /* ? */ || before === 0x26 /* & */) {
      let end = next;
      while (end < url.length && url.charCodeAt(end) !== 0x26 && url.charCodeAt(end) !== 0x23 /* & or # */) end += 1;
      out += url.slice(from, next) + REDACTED;
      from = end;
      next = end;
    }
    at = url.indexOf(TOKEN_PARAM, next);
  }
  return out + url.slice(from);
}

/** A capped buffer may end inside a UTF-8 character: drop the partial one. */
function cutAtCharacter(bytes: Buffer): Buffer {
  if (bytes.length < BODY_CAP) return bytes;
  let end = bytes.length;
  let back = 0;
  while (end - back - 1 >= 0 && back < 4 && (bytes[end - back - 1]! & 0xc0) === 0x80) back += 1;
  const lead = bytes[end - back - 1];
  if (lead !== undefined && lead >= 0xc0) {
    const length = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
    if (back + 1 < length) end -= back + 1;
  }
  return bytes.subarray(0, end);
}

const isText = (type: string | undefined): boolean => !type || /json|xml|text|javascript|x-www-form-urlencoded/i.test(type);

/** The log's copies of bodies (body-slabs.ts): one set of slabs for the process's logs. */
const slabs = new BodySlabs();

/** The bytes of `chunk` to keep (at most `room`): a copy, never the Buffer that was sent. */
const retain = (chunk: Buffer, room: number): Buffer => slabs.copy(chunk, Math.min(chunk.length, room));

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
    const kept = typeof chunk === 'string' ? slabs.copyText(chunk, Math.min(bytes, room)) : retain(chunk, room);
    (this.chunks ??= []).push(kept);
    this.captured += kept.length;
  }
}

/**
 * A logged body, decoded when read. `note` stands for a body that is not text (its size and type);
 * `chunks` is null once the log dropped the bytes for its budget.
 */
class StoredBody implements LoggedBody {
  readonly size: number;
  #chunks: Buffer[] | null;
  #note: string | null;
  #dropped = false;

  constructor(size: number, chunks: Buffer[] | null, note: string | null) {
    this.size = size;
    this.#chunks = chunks;
    this.#note = note;
  }

  get text(): string {
    if (this.#note !== null) return this.#note;
    const chunks = this.#chunks;
    if (!chunks) return '';
    const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
    return cutAtCharacter(bytes).toString('utf8');
  }

  get truncated(): boolean {
    return this.#dropped || this.size > BODY_CAP;
  }

  get dropped(): true | undefined {
    return this.#dropped ? true : undefined;
  }

  /** The buffers this body keeps alive (for the log's byte budget). */
  held(): readonly Buffer[] {
    return this.#chunks ?? [];
  }

  drop(): void {
    if (!this.#chunks) return;
    this.#chunks = null;
    this.#dropped = true;
  }

  toJSON(): LoggedBody {
    const plain: LoggedBody = { text: this.text, truncated: this.truncated, size: this.size };
    if (this.#dropped) plain.dropped = true;
    return plain;
  }
}

/** Headers are kept as the objects Node made and redacted when read. */
class StoredRequestPart {
  readonly body: StoredBody;
  readonly #headers: RawHeaders;

  constructor(headers: RawHeaders, body: StoredBody) {
    this.#headers = headers;
    this.body = body;
  }

  get headers(): Record<string, string> {
    return redactHeaders(this.#headers);
  }

  toJSON(): LoggedRequest['request'] {
    return { headers: this.headers, body: this.body.toJSON() };
  }
}

class StoredResponsePart {
  readonly status: number;
  readonly body: StoredBody;
  readonly #headers: RawHeaders;

  constructor(status: number, headers: RawHeaders, body: StoredBody) {
    this.status = status;
    this.#headers = headers;
    this.body = body;
  }

  get headers(): Record<string, string> {
    return redactHeaders(this.#headers);
  }

  toJSON(): LoggedRequest['response'] {
    return { status: this.status, headers: this.headers, body: this.body.toJSON() };
  }
}

/**
 * An entry as the log holds it. The fields that lists filter on and summaries show are plain;
 * `query`, headers and bodies are worked out when read, and toJSON gives the whole entry
 * in the documented shape (and key order).
 */
class StoredRequest implements LoggedRequest {
  readonly id: string;
  readonly time: string;
  readonly duration_ms: number;
  readonly surface: LoggedRequest['surface'];
  readonly method: string;
  /** Worked out at once: every request's summary (the live stream) shows it. */
  readonly url: string;
  readonly path: string;
  readonly organization: string | null;
  readonly token: LoggedRequest['token'];
  readonly request: StoredRequestPart;
  readonly response: StoredResponsePart;
  #rawUrl: string;
  #parseQuery: QueryParser | undefined;
  #dropped = false;

  constructor(fields: {
    id: string;
    time: string;
    duration_ms: number;
    surface: LoggedRequest['surface'];
    method: string;
    rawUrl: string;
    parseQuery: QueryParser | undefined;
    organization: string | null;
    token: LoggedRequest['token'];
    request: StoredRequestPart;
    response: StoredResponsePart;
  }) {
    this.id = fields.id;
    this.time = fields.time;
    this.duration_ms = fields.duration_ms;
    this.surface = fields.surface;
    this.method = fields.method;
    this.url = redactUrl(fields.rawUrl);
    const mark = fields.rawUrl.indexOf('?');
    this.path = mark === -1 ? fields.rawUrl : fields.rawUrl.slice(0, mark);
    this.organization = fields.organization;
    this.token = fields.token;
    this.request = fields.request;
    this.response = fields.response;
    this.#rawUrl = fields.rawUrl;
    this.#parseQuery = fields.parseQuery;
  }

  /** Parsed as Express would (the app's query parser), `auth_token` redacted. */
  get query(): Record<string, string | string[]> {
    const mark = this.#rawUrl.indexOf('?');
    if (!this.#parseQuery) return {};
    const parsed = this.#parseQuery(mark === -1 ? '' : this.#rawUrl.slice(mark + 1));
    const out: Record<string, string | string[]> = {};
    for (const key of Object.keys(parsed)) out[key] = key === 'auth_token' ? REDACTED : parsed[key]!;
    return out;
  }

  /** The bodies whose buffers count against the budget (none once dropped). */
  bodies(): readonly StoredBody[] {
    return this.#dropped ? [] : [this.request.body, this.response.body];
  }

  dropBodies(): void {
    this.#dropped = true;
    this.request.body.drop();
    this.response.body.drop();
  }

  toJSON(): LoggedRequest {
    return {
      id: this.id,
      time: this.time,
      duration_ms: this.duration_ms,
      surface: this.surface,
      method: this.method,
      url: this.url,
      path: this.path,
      query: this.query,
      organization: this.organization,
      token: this.token,
      request: this.request.toJSON(),
      response: this.response.toJSON(),
    };
  }
}

/** An entry as a plain object (what the control API serializes), whichever way it was made. */
export function plainRequest(entry: LoggedRequest): LoggedRequest {
  return entry instanceof StoredRequest ? entry.toJSON() : entry;
}

/**
 * The newest `size` entries in a ring (sequence numbers: entry n sits in slot n % size), and the
 * bytes of body buffers they keep alive, counted once per buffer however many entries share it.
 */
export class RequestLog {
  readonly size: number;
  readonly bodyBudget: number;
  readonly #slots: (StoredRequest | undefined)[];
  /** Sequence number of the next entry, of the oldest entry kept, and of the oldest that may still hold bodies. */
  #next = 0;
  #first = 0;
  #bodiesFrom = 0;
  #bodyBytes = 0;
  readonly #references = new Map<Buffer, number>();

  constructor(options: RequestLogOptions = {}) {
    this.size = Math.max(1, Math.floor(options.size ?? DEFAULT_LOG_SIZE));
    this.bodyBudget = Math.max(0, options.bodyBudget ?? DEFAULT_BODY_BUDGET);
    this.#slots = new Array<StoredRequest | undefined>(this.size);
  }

  /** Bytes of body buffers held now. */
  get bodyBytes(): number {
    return this.#bodyBytes;
  }

  get length(): number {
    return this.#next - this.#first;
  }

  add(entry: StoredRequest): void {
    if (this.#next - this.#first === this.size) {
      const slot = this.#first % this.size;
      const oldest = this.#slots[slot];
      if (oldest) this.#release(oldest);
      this.#slots[slot] = undefined;
      this.#first += 1;
    }
    this.#slots[this.#next % this.size] = entry;
    this.#next += 1;
    for (const body of entry.bodies()) {
      for (const buffer of body.held()) {
        const count = this.#references.get(buffer) ?? 0;
        this.#references.set(buffer, count + 1);
        if (count === 0) this.#bodyBytes += buffer.length;
      }
    }
    // Bodies go oldest first, so the entries still holding theirs are the newest ones.
    if (this.#bodiesFrom < this.#first) this.#bodiesFrom = this.#first;
    while (this.#bodyBytes > this.bodyBudget && this.#bodiesFrom < this.#next) {
      const victim = this.#slots[this.#bodiesFrom % this.size];
      if (victim) {
        this.#release(victim);
        victim.dropBodies();
      }
      this.#bodiesFrom += 1;
    }
  }

  /** Newest first. */
  list(): LoggedRequest[] {
    const out: LoggedRequest[] = [];
    for (let n = this.#next - 1; n >= this.#first; n -= 1) out.push(this.#slots[n % this.size]!);
    return out;
  }

  get(id: string): LoggedRequest | undefined {
    for (let n = this.#next - 1; n >= this.#first; n -= 1) {
      const entry = this.#slots[n % this.size]!;
      if (entry.id === id) return entry;
    }
    return undefined;
  }

  clear(): void {
    this.#slots.fill(undefined);
    this.#first = this.#next;
    this.#bodiesFrom = this.#next;
    this.#references.clear();
    this.#bodyBytes = 0;
  }

  #release(entry: StoredRequest): void {
    for (const body of entry.bodies()) {
      for (const buffer of body.held()) {
        const count = this.#references.get(buffer) ?? 0;
        if (count > 1) this.#references.set(buffer, count - 1);
        else {
          this.#references.delete(buffer);
          this.#bodyBytes -= buffer.length;
        }
      }
    }
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
  log.add(entry);
  bus.emit({ type: 'request.logged', request: entry });
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
      log.add(entry);
      bus.emit({ type: 'request.logged', request: entry });
    });
    next();
  };
}
