/**
 * Where one HTTP/1.1 response ends in the bytes a keep-alive connection received: just enough
 * of the protocol for the paced load generator (raw-connection.ts), which writes its requests as
 * bytes and reads answers without Node's http client (see paced.ts for why).
 *
 * Handles what a server may answer with: a Content-Length body, a chunked body (with trailers),
 * no body (1xx, 204, 304), and a body that ends when the server closes the connection.
 */

export interface FramedResponse {
  status: number;
  /** Bytes of the response, head and body: where the next response starts. */
  length: number;
  /** The server said it will close the connection after this response. */
  close: boolean;
}

export type Framing =
  | { done: true; response: FramedResponse }
  /** More bytes are needed. `untilClose`: the body runs until the server closes the connection. */
  | { done: false; untilClose?: { status: number } };

const CRLF = Buffer.from('\r\n');
const HEAD_END = Buffer.from('\r\n\r\n');

export class FramingError extends Error {}

/** The end of the first response in `bytes`, or what is still needed to find it. */
export function frameResponse(bytes: Buffer): Framing {
  const headEnd = bytes.indexOf(HEAD_END);
  if (headEnd < 0) return { done: false };
  const head = bytes.toString('latin1', 0, headEnd);
  const statusLine = /^HTTP\/1\.[01] (\d{3})/.exec(head);
  if (!statusLine) throw new FramingError(`not an HTTP/1.x status line: ${JSON.stringify(head.slice(0, 40))}`);
  const status = Number(statusLine[1]);
  const headers = parseHeaders(head);
  const close = /(^|,)\s*close\s*(,|$)/i.test(headers.get('connection') ?? '');
  const bodyStart = headEnd + HEAD_END.length;

  if ((status >= 100 && status < 200) || status === 204 || status === 304) {
    return { done: true, response: { status, length: bodyStart, close } };
  }
  if (/(^|,)\s*chunked\s*$/i.test(headers.get('transfer-encoding') ?? '')) {
    const end = chunkedEnd(bytes, bodyStart);
    return end < 0 ? { done: false } : { done: true, response: { status, length: end, close } };
  }
  const contentLength = headers.get('content-length');
  if (contentLength !== undefined) {
    if (!/^\d+$/.test(contentLength)) throw new FramingError(`bad Content-Length: ${contentLength}`);
    const end = bodyStart + Number(contentLength);
    return bytes.length < end ? { done: false } : { done: true, response: { status, length: end, close } };
  }
  return { done: false, untilClose: { status } };
}

/** Header names in lower case; a repeated header's values joined with commas. */
function parseHeaders(head: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of head.split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    const seen = headers.get(name);
    headers.set(name, seen === undefined ? value : `${seen}, ${value}`);
  }
  return headers;
}

/** The offset just after a chunked body that starts at `at`, or -1 when it has not all arrived. */
function chunkedEnd(bytes: Buffer, at: number): number {
  let offset = at;
  for (;;) {
    const lineEnd = bytes.indexOf(CRLF, offset);
    if (lineEnd < 0) return -1;
    const sizeText = bytes.toString('latin1', offset, lineEnd).split(';')[0]!.trim();
    if (!/^[0-9a-f]+$/i.test(sizeText)) throw new FramingError(`bad chunk size: ${JSON.stringify(sizeText)}`);
    const size = parseInt(sizeText, 16);
    offset = lineEnd + CRLF.length;
    if (size === 0) {
      // Trailer lines, then an empty line.
      for (;;) {
        const trailerEnd = bytes.indexOf(CRLF, offset);
        if (trailerEnd < 0) return -1;
        const empty = trailerEnd === offset;
        offset = trailerEnd + CRLF.length;
        if (empty) return offset;
      }
    }
    offset += size + CRLF.length;
    if (offset > bytes.length) return -1;
  }
}
