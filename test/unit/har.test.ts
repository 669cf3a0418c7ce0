/**
 * toHar (server/http/har.ts) on hand-built LoggedRequest values: the log as HAR 1.2
 * (http://www.softwareishard.com/blog/har-12-spec/). Field by field: the URL made absolute, the
 * query flattened to name/value pairs, postData only for a request that had a body, the content
 * of the response with its whole size, redirects, timings that add up to the entry's time, and
 * the order of the entries kept as given.
 */
import { describe, expect, it } from 'vitest';
import { toHar } from '../../server/http/har.js';
import type { LoggedBody, LoggedRequest } from '../../server/http/request-log.js';

const ORIGIN = 'http://127.0.0.1:4010';
const VERSION = '1.2.3';
const EMPTY: LoggedBody = { text: '', truncated: false, size: 0 };

function body(text: string, size = Buffer.byteLength(text)): LoggedBody {
  return { text, truncated: size > Buffer.byteLength(text), size };
}

function logged(overrides: Partial<LoggedRequest> = {}): LoggedRequest {
  return {
    id: 'req-1',
    time: '2026-05-01T10:00:00.000Z',
    duration_ms: 12.5,
    surface: 'api',
    method: 'GET',
    url: '/v2/posts/?auth_token=[redacted]&limit=2',
    path: '/v2/posts/',
    query: { auth_token: '[redacted]', limit: '2' },
    organization: 'acme',
    token: 'read',
    request: { headers: { host: '127.0.0.1:4010', accept: '*/*' }, body: EMPTY },
    response: {
      status: 200,
      headers: { 'content-type': 'application/json; charset=utf-8', 'content-length': '11' },
      body: body('{"data":[]}'),
    },
    ...overrides,
  };
}

function onlyEntry(entry: LoggedRequest) {
  const har = toHar([entry], ORIGIN, VERSION);
  expect(har.log.entries).toHaveLength(1);
  return har.log.entries[0]!;
}

describe('toHar', () => {
  it('an empty log: version 1.2, the creator with its version, no entries', () => {
    expect(toHar([], ORIGIN, VERSION)).toEqual({
      log: { version: '1.2', creator: { name: 'cms-emulator', version: VERSION }, pages: [], entries: [] },
    });
  });

  it('a read: every HAR field from the logged request', () => {
    expect(onlyEntry(logged())).toEqual({
      startedDateTime: '2026-05-01T10:00:00.000Z',
      time: 12.5,
      request: {
        method: 'GET',
        url: `${ORIGIN}/v2/posts/?auth_token=[redacted]&limit=2`,
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: [
          { name: 'host', value: '127.0.0.1:4010' },
          { name: 'accept', value: '*/*' },
        ],
        queryString: [
          { name: 'auth_token', value: '[redacted]' },
          { name: 'limit', value: '2' },
        ],
        headersSize: -1,
        bodySize: 0,
      },
      response: {
        status: 200,
        statusText: '',
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: [
          { name: 'content-type', value: 'application/json; charset=utf-8' },
          { name: 'content-length', value: '11' },
        ],
        content: { size: 11, mimeType: 'application/json; charset=utf-8', text: '{"data":[]}' },
        redirectURL: '',
        headersSize: -1,
        bodySize: 11,
      },
      cache: {},
      timings: { send: 0, wait: 12.5, receive: 0 },
      _id: 'req-1',
      _organization: 'acme',
    });
  });

  it('a read has no postData', () => {
    expect(onlyEntry(logged()).request).not.toHaveProperty('postData');
  });

  it('a repeated query parameter becomes one pair per value, in order', () => {
    const entry = onlyEntry(logged({ url: '/v2/posts/?tag_slug=a&tag_slug=b&limit=1', query: { tag_slug: ['a', 'b'], limit: '1' } }));
    expect(entry.request.queryString).toEqual([
      { name: 'tag_slug', value: 'a' },
      { name: 'tag_slug', value: 'b' },
      { name: 'limit', value: '1' },
    ]);
    expect(entry.request.url).toBe(`${ORIGIN}/v2/posts/?tag_slug=a&tag_slug=b&limit=1`);
  });

  it('a write: postData with the request content type and the body text; bodySize in bytes', () => {
    const text = '{"title":"Café"}';
    const entry = onlyEntry(
      logged({
        method: 'POST',
        url: '/v2/posts/',
        path: '/v2/posts/',
        query: {},
        token: 'write',
        request: { headers: { 'content-type': 'application/json', authorization: 'Token [redacted]' }, body: body(text) },
        response: { status: 202, headers: { 'content-type': 'application/json; charset=utf-8' }, body: body('{"status":"pending"}') },
      }),
    );
    expect(entry.request.postData).toEqual({ mimeType: 'application/json', text });
    expect(entry.request.bodySize).toBe(Buffer.byteLength(text));
    expect(entry.request.bodySize).toBe(text.length + 1);
    expect(entry.request.headers).toContainEqual({ name: 'authorization', value: 'Token [redacted]' });
    expect(entry.request.queryString).toEqual([]);
    expect(entry.response.status).toBe(202);
  });

  it('a body without a content type is application/octet-stream', () => {
    const entry = onlyEntry(
      logged({
        method: 'POST',
        request: { headers: {}, body: body('raw bytes') },
        response: { status: 415, headers: {}, body: EMPTY },
      }),
    );
    expect(entry.request.postData).toEqual({ mimeType: 'application/octet-stream', text: 'raw bytes' });
    expect(entry.response.content).toEqual({ size: 0, mimeType: 'application/octet-stream', text: '' });
  });

  it('a truncated body: the captured text, the size of the whole body', () => {
    const cut = 'x'.repeat(64 * 1024);
    const entry = onlyEntry(
      logged({
        method: 'PUT',
        request: { headers: { 'content-type': 'application/json' }, body: body(cut, 100_000) },
        response: { status: 200, headers: { 'content-type': 'application/json' }, body: body(cut, 250_000) },
      }),
    );
    expect(entry.request.postData?.text).toBe(cut);
    expect(entry.request.bodySize).toBe(100_000);
    expect(entry.response.content).toEqual({ size: 250_000, mimeType: 'application/json', text: cut });
    expect(entry.response.bodySize).toBe(250_000);
  });

  it('a CDN image: its note as the text, its type and byte size', () => {
    const entry = onlyEntry(
      logged({
        surface: 'cdn',
        url: '/cdn/w_100/AbCdEfGhIjKlMnOpQrSt',
        path: '/cdn/w_100/AbCdEfGhIjKlMnOpQrSt',
        query: {},
        organization: null,
        token: null,
        response: {
          status: 200,
          headers: { 'content-type': 'image/jpeg' },
          body: { text: '[5120 bytes of image/jpeg]', truncated: false, size: 5120 },
        },
      }),
    );
    expect(entry.request.url).toBe(`${ORIGIN}/cdn/w_100/AbCdEfGhIjKlMnOpQrSt`);
    expect(entry.response.content).toEqual({ size: 5120, mimeType: 'image/jpeg', text: '[5120 bytes of image/jpeg]' });
    expect(entry._organization).toBeNull();
  });

  it('a redirect: redirectURL from the Location header', () => {
    const entry = onlyEntry(logged({ response: { status: 301, headers: { location: '/v2/posts/new-slug/' }, body: EMPTY } }));
    expect(entry.response.redirectURL).toBe('/v2/posts/new-slug/');
    expect(entry.response.status).toBe(301);
  });

  it('time is the sum of the timings, all of it waiting', () => {
    const entry = onlyEntry(logged({ duration_ms: 3.27 }));
    expect(entry.time).toBe(3.27);
    expect(entry.timings.send + entry.timings.wait + entry.timings.receive).toBe(entry.time);
  });

  it('keeps the order of the entries given, and each their id', () => {
    const entries = ['a', 'b', 'c'].map((id, i) => logged({ id, time: `2026-05-01T10:00:0${i}.000Z` }));
    const har = toHar(entries, ORIGIN, VERSION);
    expect(har.log.entries.map((e) => [e._id, e.startedDateTime])).toEqual([
      ['a', '2026-05-01T10:00:00.000Z'],
      ['b', '2026-05-01T10:00:01.000Z'],
      ['c', '2026-05-01T10:00:02.000Z'],
    ]);
  });

  it('does not change the logged requests it is given', () => {
    const entry = logged({ query: { tag_slug: ['a', 'b'] } });
    const copy = structuredClone(entry);
    toHar([entry], ORIGIN, VERSION);
    expect(entry).toEqual(copy);
  });
});
