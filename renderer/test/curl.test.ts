/** "Copy as curl": a logged request becomes a command that runs, tokens put back, quoting safe. */
import { describe, expect, it } from 'vitest';
import type { LoggedRequest } from '../src/api/types.js';
import { toCurl } from '../src/views/requests/curl.js';

function logged(patch: Partial<LoggedRequest> = {}): LoggedRequest {
  const empty = { text: '', truncated: false, size: 0 };
  return {
    id: 'r1',
    time: '2026-11-21T10:00:00.000Z',
    duration_ms: 3,
    surface: 'api',
    method: 'GET',
    url: '/v2/posts/?auth_token=[redacted]&page_size=2',
    path: '/v2/posts/',
    query: {},
    organization: 'acme',
    token: 'read',
    request: { headers: { host: '127.0.0.1:4010', accept: '*/*', 'accept-encoding': 'gzip' }, body: empty },
    response: { status: 200, headers: {}, body: empty },
    ...patch,
  };
}

describe('toCurl', () => {
  it('puts the real token back into the query and leaves out headers curl sets itself', () => {
    expect(toCurl(logged(), 'http://127.0.0.1:4010', 'acme-read-7f3c9a1e5b')).toBe(
      "curl 'http://127.0.0.1:4010/v2/posts/?auth_token=acme-read-7f3c9a1e5b&page_size=2' -H 'accept: */*'",
    );
  });

  it('keeps the redaction when the token is unknown (never guesses)', () => {
    expect(toCurl(logged(), 'http://h', null)).toContain('auth_token=[redacted]');
  });

  it('writes: method, Authorization with the token back, and the body quoted safely', () => {
    const body = `{"title": "It's here"}`;
    const command = toCurl(
      logged({
        method: 'POST',
        url: '/v2/posts/',
        token: 'write',
        request: {
          headers: { authorization: 'Token [redacted]', 'content-type': 'application/json', 'content-length': '22' },
          body: { text: body, truncated: false, size: 22 },
        },
      }),
      'http://h',
      'acme-write-2d8e4b6f1c',
    );
    expect(command).toBe(
      `curl 'http://h/v2/posts/' -X POST -H 'authorization: Token acme-write-2d8e4b6f1c' -H 'content-type: application/json' --data-raw '{"title": "It'\\''s here"}'`,
    );
  });
});
