/**
 * Text answers (JSON above all) sent as the strings they are, not first copied into a Buffer.
 *
 * Why (docs/performance.md, session 10): Express's res.send turns every string of 1,000
 * characters or more into a Buffer (to hash it for the ETag and count its bytes). Those Buffers,
 * 36–150 KB for a page of posts or a search on a large store, are malloc'd outside V8's heap and
 * freed only at the next scavenge, so under a steady read load some 30 MB of dead answers wait in
 * glibc's heap at any time and leave it fragmented. A string is hashed, counted and written to the
 * socket by Node without a copy that outlives the call (the socket's own copy is freed as soon as
 * the kernel has taken the bytes).
 *
 * `sendText` answers exactly as Express 5's res.send does for a string (headers, 304 on a fresh
 * conditional request, no body for HEAD, 204 and 304): the test compares the two on the wire.
 * Where it could not tell the same headers without Express's own helpers (a Content-Type with
 * parameters other than charset=utf-8, an ETag setting other than weak or off), it leaves the
 * answer to Express.
 */
import etag from 'etag';
import type { Express, Response } from 'express';

/** Express counts shorter strings without a copy already. */
const SHORT = 1000;

const UTF8_PARAMETER = /^\s*charset\s*=\s*"?utf-8"?\s*$/i;

/** The Content-Type Express would send for a string answer, or null when only Express can tell. */
function utf8ContentType(type: string): string | null {
  const semicolon = type.indexOf(';');
  if (semicolon === -1) return `${type.trim().toLowerCase()}; charset=utf-8`;
  return UTF8_PARAMETER.test(type.slice(semicolon + 1)) ? `${type.slice(0, semicolon).trim().toLowerCase()}; charset=utf-8` : null;
}

/**
 * Answers `text` as Express's res.send(text) would; false (nothing sent) when the answer must go
 * through Express after all.
 */
export function sendText(res: Response, text: string): boolean {
  const type = res.get('Content-Type');
  const etagSetting = res.app.get('etag') as unknown;
  const weak = etagSetting === true || etagSetting === 'weak';
  if (typeof type !== 'string' || (!weak && etagSetting !== false)) return false;
  const contentType = utf8ContentType(type);
  if (contentType === null) return false;
  res.set('Content-Type', contentType);
  res.set('Content-Length', String(Buffer.byteLength(text, 'utf8')));
  if (weak && !res.get('ETag')) res.set('ETag', etag(text, { weak: true }));
  if (res.req.fresh) res.status(304);
  let body: string | undefined = text;
  if (res.statusCode === 204 || res.statusCode === 304) {
    res.removeHeader('Content-Type');
    res.removeHeader('Content-Length');
    res.removeHeader('Transfer-Encoding');
    body = undefined;
  } else if (res.statusCode === 205) {
    res.set('Content-Length', '0');
    res.removeHeader('Transfer-Encoding');
    body = undefined;
  }
  if (res.req.method === 'HEAD' || body === undefined) res.end();
  else res.end(body, 'utf8');
  return true;
}

/** Every long string `app` answers with res.send (and so res.json) goes through sendText. */
export function sendLongTextAsText(app: Express): void {
  const expressSend = app.response.send;
  app.response.send = function send(this: Response, body?: unknown) {
    if (typeof body === 'string' && body.length >= SHORT && sendText(this, body)) return this;
    return expressSend.call(this, body);
  };
}
