/**
 * The paced load generator's response framing (bench/support/http-framing.ts): it decides when a
 * write's latency stops, so a wrong end would either cut an answer short (the next answer then
 * fails to parse) or wait for bytes that never come.
 */
import { describe, expect, it } from 'vitest';
import { FramingError, frameResponse } from '../../bench/support/http-framing.js';
import { requestWriter } from '../../bench/support/paced.js';

const bytes = (text: string) => Buffer.from(text, 'latin1');

describe('frameResponse', () => {
  it('ends a Content-Length answer after its body, and not before', () => {
    const answer = 'HTTP/1.1 202 Accepted\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{"id":"ab"}';
    expect(frameResponse(bytes(answer))).toEqual({ done: true, response: { status: 202, length: answer.length, close: false } });
    expect(frameResponse(bytes(answer.slice(0, -1)))).toEqual({ done: false });
    expect(frameResponse(bytes(answer.slice(0, 30)))).toEqual({ done: false });
  });

  it('gives the length of the first answer when more bytes follow', () => {
    const first = 'HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok';
    const framing = frameResponse(bytes(first + 'HTTP/1.1 200 OK\r\n'));
    expect(framing).toEqual({ done: true, response: { status: 200, length: first.length, close: false } });
  });

  it('reads a chunked body with extensions and trailers to its end', () => {
    const answer =
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4;ext=1\r\nWiki\r\n5\r\npedia\r\nE\r\n in\r\n\r\nchunks.\r\n0\r\nX-Trailer: yes\r\n\r\n';
    expect(frameResponse(bytes(answer))).toEqual({ done: true, response: { status: 200, length: answer.length, close: false } });
    // A chunk's data may hold what looks like the last chunk: only the sizes say where it ends.
    const tricky = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n7\r\n0\r\n\r\n\r\n\r\n0\r\n\r\n';
    expect(frameResponse(bytes(tricky))).toEqual({ done: true, response: { status: 200, length: tricky.length, close: false } });
    for (let cut = tricky.length - 1; cut > tricky.indexOf('\r\n\r\n'); cut--) {
      expect(frameResponse(bytes(tricky.slice(0, cut))).done).toBe(false);
    }
  });

  it('has no body for 204, 304 and 1xx whatever the headers say', () => {
    for (const status of [204, 304, 100]) {
      const answer = `HTTP/1.1 ${status} X\r\nContent-Length: 50\r\n\r\n`;
      expect(frameResponse(bytes(answer))).toEqual({ done: true, response: { status, length: answer.length, close: false } });
    }
  });

  it('says when the server will close the connection', () => {
    const answer = 'HTTP/1.1 503 Busy\r\nConnection: keep-alive, Close\r\nContent-Length: 0\r\n\r\n';
    expect(frameResponse(bytes(answer))).toEqual({ done: true, response: { status: 503, length: answer.length, close: true } });
  });

  it('waits for the close when the answer gives no length', () => {
    expect(frameResponse(bytes('HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nsome'))).toEqual({
      done: false,
      untilClose: { status: 200 },
    });
  });

  it('rejects what is not HTTP', () => {
    expect(() => frameResponse(bytes('SSH-2.0-OpenSSH\r\n\r\n'))).toThrow(FramingError);
    expect(() => frameResponse(bytes('HTTP/1.1 200 OK\r\nContent-Length: 1x\r\n\r\n'))).toThrow(FramingError);
    expect(() => frameResponse(bytes('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n'))).toThrow(FramingError);
  });
});

describe('requestWriter (the paced generator’s requests)', () => {
  it('writes the line, Host, the headers, and the body with its length in UTF-8 bytes', () => {
    const write = requestWriter(new URL('http://127.0.0.1:4010/v2/posts/?a=1'), {
      method: 'POST',
      headers: { authorization: 'Token t', 'content-type': 'application/json' },
    });
    const body = JSON.stringify({ title: 'Crème ☕' });
    expect(write(body)).toBe(
      `POST /v2/posts/?a=1 HTTP/1.1\r\nhost: 127.0.0.1:4010\r\nauthorization: Token t\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    expect(Buffer.byteLength(body)).toBeGreaterThan(body.length);
    expect(write(undefined)).toBe(
      'POST /v2/posts/?a=1 HTTP/1.1\r\nhost: 127.0.0.1:4010\r\nauthorization: Token t\r\ncontent-type: application/json\r\n\r\n',
    );
  });
});
