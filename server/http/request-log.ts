/**
 * The request log (issue 6): every request to the emulated API and the CDN, with its response,
 * token values redacted and bodies capped, in a ring buffer so memory stays bounded. Each request
 * gets an id (res.locals.requestId) that the jobs and deliveries it causes carry in their cause.
 */
import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { EventBus } from '../bus.js';
import type { Clock } from '../clock.js';

export const BODY_CAP = 64 * 1024;
export const DEFAULT_LOG_SIZE = 5000;

export interface LoggedBody {
  text: string;
  truncated: boolean;
  /** Bytes of the whole body (when known). */
  size: number;
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

function redactHeaders(headers: Record<string, string | string[] | number | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.join(', ') : String(value);
    // Keep the scheme ("Token", "Bearer") so the log still says how the client authenticated.
    const scheme = /^(\S+)\s+\S/.exec(text)?.[1];
    out[name] = name.toLowerCase() === 'authorization' ? (scheme ? `${scheme} ${REDACTED}` : REDACTED) : text;
  }
  return out;
}

function redactUrl(url: string): string {
  return url.replace(/([?&]auth_token=)[^&#]*/g, `$1${REDACTED}`);
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

export class RequestLog {
  private readonly entries: LoggedRequest[] = [];

  constructor(private readonly size = DEFAULT_LOG_SIZE) {}

  add(entry: LoggedRequest): void {
    this.entries.push(entry);
    if (this.entries.length > this.size) this.entries.splice(0, this.entries.length - this.size);
  }

  /** Newest first. */
  list(): LoggedRequest[] {
    return [...this.entries].reverse();
  }

  get(id: string): LoggedRequest | undefined {
    return this.entries.find((e) => e.id === id);
  }

  clear(): void {
    this.entries.length = 0;
  }
}

/** Records each request of `surface`; put it in front of that surface's routers. */
export function requestLogger(log: RequestLog, surface: LoggedRequest['surface'], clock: Clock, bus: EventBus): RequestHandler {
  return (req, res, next) => {
    const id = randomUUID();
    res.locals.requestId = id;
    const started = performance.now();
    const time = clock.now().toISOString();
    const chunks: Buffer[] = [];
    let captured = 0;
    let size = 0;
    // The request body exactly as sent: a tee of the stream. Listening in the same synchronous
    // middleware chain as the body parser loses nothing, and it also reads bodies nobody else
    // does (a write refused with 401 before its body was parsed).
    const bodyChunks: Buffer[] = [];
    let bodyCaptured = 0;
    let bodySize = 0;
    if (req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined) {
      req.on('data', (chunk: Buffer) => {
        bodySize += chunk.length;
        if (bodyCaptured < BODY_CAP) {
          bodyChunks.push(chunk.subarray(0, BODY_CAP - bodyCaptured));
          bodyCaptured += Math.min(chunk.length, BODY_CAP - bodyCaptured);
        }
      });
    }

    const capture = (chunk: unknown, encoding?: BufferEncoding) => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string, encoding ?? 'utf8');
      size += buffer.length;
      if (captured < BODY_CAP) {
        chunks.push(buffer.subarray(0, BODY_CAP - captured));
        captured += Math.min(buffer.length, BODY_CAP - captured);
      }
    };
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => typeof res;
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      capture(chunk, typeof rest[0] === 'string' ? (rest[0] as BufferEncoding) : undefined);
      return write(chunk, ...rest);
    }) as typeof res.write;
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      capture(chunk, typeof rest[0] === 'string' ? (rest[0] as BufferEncoding) : undefined);
      return end(chunk, ...rest);
    }) as typeof res.end;

    res.on('finish', () => {
      const requestText = cutAtCharacter(Buffer.concat(bodyChunks)).toString('utf8');
      const responseType = res.getHeader('content-type');
      const text = isText(typeof responseType === 'string' ? responseType : undefined)
        ? cutAtCharacter(Buffer.concat(chunks)).toString('utf8')
        : `[${size} bytes of ${String(responseType)}]`;
      const auth = res.locals.auth;
      const entry: LoggedRequest = {
        id,
        time,
        duration_ms: Math.round((performance.now() - started) * 100) / 100,
        surface,
        method: req.method,
        url: redactUrl(req.originalUrl),
        path: req.originalUrl.split('?')[0] ?? req.originalUrl,
        query: Object.fromEntries(
          Object.entries(req.query as Record<string, string | string[]>).map(([k, v]) => [k, k === 'auth_token' ? REDACTED : v]),
        ),
        organization: auth?.organization.slug ?? null,
        token: auth?.token ?? null,
        request: {
          headers: redactHeaders(req.headers),
          body: { text: requestText, truncated: bodySize > BODY_CAP, size: bodySize },
        },
        response: {
          status: res.statusCode,
          headers: redactHeaders(res.getHeaders() as Record<string, string | string[] | number | undefined>),
          body: { text, truncated: size > BODY_CAP, size },
        },
      };
      log.add(entry);
      bus.emit({ type: 'request.logged', request: entry });
    });
    next();
  };
}
