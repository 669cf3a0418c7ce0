/**
 * A request log entry as it is read (request-log.ts keeps entries as bytes and numbers, and makes
 * one of these from them when asked): the plain fields at once, the query, the redacted headers and
 * the decoded bodies worked out when read, and toJSON giving the documented shape and key order.
 */

/** Bytes of a body the log keeps (the first ones); the size of the whole is kept too. */
export const BODY_CAP = 64 * 1024;

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

/**
 * A logged body, decoded when read. `note` stands for a body that is not text (its size and type);
 * `bytes` is null when none were kept, or the log dropped them for its budget (`dropped`).
 */
export class StoredBody implements LoggedBody {
  readonly size: number;
  /** The kept bytes: copies in the log's slabs, which are never written over. */
  readonly bytes: readonly Buffer[] | null;
  readonly note: string | null;
  readonly #dropped: boolean;

  constructor(size: number, bytes: readonly Buffer[] | null, note: string | null, dropped = false) {
    this.size = size;
    this.bytes = bytes;
    this.note = note;
    this.#dropped = dropped;
  }

  get text(): string {
    if (this.note !== null) return this.note;
    const bytes = this.bytes;
    if (!bytes) return '';
    return cutAtCharacter(bytes.length === 1 ? bytes[0]! : Buffer.concat(bytes)).toString('utf8');
  }

  get truncated(): boolean {
    return this.#dropped || this.size > BODY_CAP;
  }

  get dropped(): true | undefined {
    return this.#dropped ? true : undefined;
  }

  toJSON(): LoggedBody {
    const plain: LoggedBody = { text: this.text, truncated: this.truncated, size: this.size };
    if (this.#dropped) plain.dropped = true;
    return plain;
  }
}

/** Headers are kept as given (Node's objects, or the log's copy of them) and redacted when read. */
export class StoredRequestPart {
  readonly body: StoredBody;
  readonly rawHeaders: RawHeaders;

  constructor(headers: RawHeaders, body: StoredBody) {
    this.rawHeaders = headers;
    this.body = body;
  }

  get headers(): Record<string, string> {
    return redactHeaders(this.rawHeaders);
  }

  toJSON(): LoggedRequest['request'] {
    return { headers: this.headers, body: this.body.toJSON() };
  }
}

export class StoredResponsePart {
  readonly status: number;
  readonly body: StoredBody;
  readonly rawHeaders: RawHeaders;

  constructor(status: number, headers: RawHeaders, body: StoredBody) {
    this.status = status;
    this.rawHeaders = headers;
    this.body = body;
  }

  get headers(): Record<string, string> {
    return redactHeaders(this.rawHeaders);
  }

  toJSON(): LoggedRequest['response'] {
    return { status: this.status, headers: this.headers, body: this.body.toJSON() };
  }
}

export interface StoredRequestFields {
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
}

/**
 * An entry: made by the logger for a request just answered (the log stores it and the live
 * stream summarizes it), or by the log from what it stores, when read. The fields that lists
 * filter on and summaries show are plain; `query`, headers and bodies are worked out when read,
 * and toJSON gives the whole entry in the documented shape (and key order).
 */
export class StoredRequest implements LoggedRequest {
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
  readonly #rawUrl: string;
  readonly #parseQuery: QueryParser | undefined;

  constructor(fields: StoredRequestFields) {
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

  /** The URL as requested, `auth_token` included (for the log to store; never shown). */
  get rawUrl(): string {
    return this.#rawUrl;
  }

  get parseQuery(): QueryParser | undefined {
    return this.#parseQuery;
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
