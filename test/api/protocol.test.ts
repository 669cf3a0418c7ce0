/**
 * Cross-cutting protocol rules (spec: conventions, Authentication, Errors; docs/spec-gaps.md
 * "Authentication", "Routing and bodies"): JSON everywhere but feeds, trailing slashes, unknown
 * paths and methods, the token matrix, and a fuzz table that must never produce a 5xx.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../server/domain/messages.js';
import type { Organization, StoreData } from '../../server/store/schema.js';
import { loadFixture, startTestEmulator, type ApiResponse, type RequestOptions, type TestEmulator } from '../helpers/emulator.js';

let api: TestEmulator;
let fixture: StoreData;
let acme: Organization;
let read: string;
let write: string;
/** The API's base path (`/v2`), from the URL the emulator reports. */
let basePath: string;

beforeAll(async () => {
  fixture = await loadFixture();
  const org = fixture.organizations.find((o) => o.slug === 'acme');
  if (!org) throw new Error('the demo fixture has no organization "acme"');
  acme = org;
  api = await startTestEmulator();
  read = api.tokens['acme']!.read;
  write = api.tokens['acme']!.write;
  basePath = new URL(api.apiUrl).pathname.replace(/\/+$/, '');
});

afterAll(async () => {
  await api?.close();
});

const publishedSlug = (): string => acme.posts.find((p) => p.status === 'published' && p.deleted === null)!.slug;

function expectJson(res: ApiResponse): void {
  expect(res.headers.get('content-type'), `${res.status} ${res.text.slice(0, 200)}`).toMatch(/^application\/json/);
  expect(() => JSON.parse(res.text) as unknown).not.toThrow();
}

function expectDetail(res: ApiResponse, status: number, detail: string): void {
  expect(res.status, res.text.slice(0, 300)).toBe(status);
  expectJson(res);
  expect(res.body).toStrictEqual({ detail });
}

/** A request to a path outside the API base path (the helper's paths are relative to it). */
async function rawRequest(method: string, path: string): Promise<ApiResponse> {
  const response = await fetch(new URL(path, api.url), { method, headers: { authorization: `Token ${read}` } });
  const text = await response.text();
  const isJson = (response.headers.get('content-type') ?? '').includes('json');
  return { status: response.status, headers: response.headers, text, body: isJson && text ? (JSON.parse(text) as unknown) : undefined };
}

describe('JSON everywhere except feeds', () => {
  it('every JSON response (2xx, 202, 400, 401, 404, 405, 415) has an application/json content type', async () => {
    const slug = publishedSlug();
    const cases: [string, string, RequestOptions, number][] = [
      ['GET', '/posts/', { token: read }, 200],
      ['GET', `/posts/${slug}/`, { token: read }, 200],
      ['GET', '/posts/search/', { token: read, query: { query: 'trail' } }, 200],
      ['GET', '/authors/', { token: read }, 200],
      ['GET', '/categories/', { token: read }, 200],
      ['GET', '/tags/', { token: read }, 200],
      ['GET', '/posts/', { token: read, query: { page: 0 } }, 400],
      ['GET', '/posts/', {}, 401],
      ['GET', '/posts/no-such-post/', { token: read }, 404],
      ['GET', '/feeds/rss/', {}, 401],
      ['DELETE', '/authors/', { headerToken: write }, 405],
      ['POST', '/posts/', { headerToken: write, body: {} }, 400],
      ['POST', '/posts/', { headerToken: write, body: 'title=x', headers: { 'content-type': 'text/plain' } }, 415],
      ['PATCH', '/posts/no-such-post/', { headerToken: write, body: { title: 'x' } }, 404],
    ];
    for (const [method, path, options, status] of cases) {
      const res = await api.request(method, path, options);
      expect(res.status, `${method} ${path}`).toBe(status);
      expectJson(res);
    }
  });

  it('a write accepted with 202 answers JSON too', async () => {
    const res = await api.request('POST', '/posts/', {
      headerToken: write,
      body: { title: 'Protocol probe draft', slug: 'protocol-probe-draft' },
    });
    expect(res.status).toBe(202);
    expectJson(res);
    expect(res.body).toStrictEqual({ status: 'pending' });
    await api.idle();
    const deleted = await api.request('DELETE', '/posts/protocol-probe-draft/', { headerToken: write });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
  });
});

describe('trailing slash', () => {
  it.each(['/posts', '/posts/{slug}', '/authors', '/feeds/rss', '/categories', '/tags/{tag}', '/posts/search'])(
    '%s without its trailing slash is a 404 whose detail points at the slash',
    async (template) => {
      const path = template.replace('{slug}', encodeURIComponent(publishedSlug())).replace('{tag}', acme.tags[0]!.slug);
      const res = await api.get(path, { token: read });
      expect(res.status).toBe(404);
      expectJson(res);
      const { detail } = res.body as { detail: string };
      expect(detail).toMatch(/trailing slash/);
      expect(detail).toBe(messages.notFoundTrailingSlash(`${basePath}${path}`));
      // The same path with its slash works.
      expect((await api.get(`${path}/`, { token: read })).status).toBe(200);
    },
  );

  it('a missing trailing slash is reported before authentication', async () => {
    const res = await api.get('/posts');
    expect(res.status).toBe(404);
    expect((res.body as { detail: string }).detail).toBe(messages.notFoundTrailingSlash(`${basePath}/posts`));
  });
});

describe('unknown paths', () => {
  it('an unknown path under the base path is a 404 {detail: "Not found."}', async () => {
    expectDetail(await api.get('/nothing/', { token: read }), 404, messages.notFound);
    expectDetail(await api.get('/posts/a/b/', { token: read }), 404, messages.notFound);
    expectDetail(await api.get('/', { token: read }), 404, messages.notFound);
  });

  it('a path outside the base path is a 404 JSON', async () => {
    for (const path of ['/nothing/', '/v1/posts/', '/v3/posts/', `${basePath}x/posts/`]) {
      const res = await rawRequest('GET', path);
      expect(res.status, path).toBe(404);
      expectJson(res);
      expect(typeof (res.body as { detail: unknown }).detail, path).toBe('string');
    }
  });
});

describe('wrong methods', () => {
  it.each<[string, string, string[]]>([
    ['PUT', '/posts/', ['GET', 'POST']],
    ['POST', '/authors/', ['GET']],
    ['PATCH', '/feeds/rss/', ['GET']],
    ['DELETE', '/categories/', ['GET']],
    ['PUT', '/posts/{slug}/', ['GET', 'PATCH', 'DELETE']],
    ['POST', '/posts/search/', ['GET']],
  ])('%s %s is a 405 with Allow', async (method, template, allowed) => {
    const path = template.replace('{slug}', publishedSlug());
    const res = await api.request(method, path, { headerToken: write, body: {} });
    expectDetail(res, 405, messages.methodNotAllowed(method));
    const allow = (res.headers.get('allow') ?? '').split(',').map((m) => m.trim());
    for (const m of allowed) expect(allow, `Allow: ${res.headers.get('allow')}`).toContain(m);
    expect(allow).not.toContain(method);
  });

  it('the 405 does not depend on the token', async () => {
    expectDetail(await api.request('PUT', '/posts/'), 405, messages.methodNotAllowed('PUT'));
  });
});

describe('authentication matrix on a read endpoint', () => {
  const challenge = (res: ApiResponse): string | null => res.headers.get('www-authenticate');

  it.each<[string, RequestOptions, number, string | null]>([
    ['read token in the query', { token: 'READ' }, 200, null],
    ['read token in the header', { headerToken: 'READ' }, 200, null],
    ['write token in the header', { headerToken: 'WRITE' }, 200, null],
    ['write token in the query', { token: 'WRITE' }, 200, null],
    ['invalid token in the query', { token: 'not-a-real-token' }, 401, messages.invalidToken],
    ['invalid token in the header', { headerToken: 'not-a-real-token' }, 401, messages.invalidToken],
    ['no token', {}, 401, messages.noCredentials],
    ['empty auth_token', { query: { auth_token: '' } }, 401, messages.noCredentials],
    ['Bearer scheme (counts as missing)', { headers: { authorization: 'Bearer READ' } }, 401, messages.noCredentials],
    ['Basic scheme (counts as missing)', { headers: { authorization: 'Basic cmVhZDpyZWFk' } }, 401, messages.noCredentials],
    ['header without a token', { headers: { authorization: 'Token' } }, 401, messages.noCredentials],
    ['Bearer header with a valid query token', { token: 'READ', headers: { authorization: 'Bearer READ' } }, 200, null],
    ['invalid header wins over a valid query token', { token: 'READ', headerToken: 'not-a-real-token' }, 401, messages.invalidToken],
    ['valid header wins over an invalid query token', { token: 'not-a-real-token', headerToken: 'READ' }, 200, null],
  ])('%s', async (_name, template, status, detail) => {
    const real = (v: string): string => v.replace('READ', read).replace('WRITE', write);
    const options: RequestOptions = {
      ...template,
      token: template.token === undefined ? undefined : real(template.token),
      headerToken: template.headerToken === undefined ? undefined : real(template.headerToken),
      headers: Object.fromEntries(Object.entries(template.headers ?? {}).map(([k, v]) => [k, real(v)])),
    };
    const res = await api.get('/posts/', options);
    expect(res.status).toBe(status);
    expectJson(res);
    if (detail === null) {
      expect(Array.isArray((res.body as { data: unknown }).data)).toBe(true);
    } else {
      expect(res.body).toStrictEqual({ detail });
      expect(challenge(res)).toBe('Token');
    }
  });

  it("one organization's token reads only its own posts", async () => {
    const northwind = fixture.organizations.find((o) => o.slug === 'northwind')!;
    const acmeOnly = acme.posts.find(
      (p) => p.status === 'published' && p.deleted === null && !northwind.posts.some((n) => n.slug === p.slug),
    )!;
    expect((await api.get(`/posts/${acmeOnly.slug}/`, { token: read })).status).toBe(200);
    expectDetail(await api.get(`/posts/${acmeOnly.slug}/`, { token: api.tokens['northwind']!.read }), 404, messages.notFound);
  });
});

describe('never a 5xx', () => {
  interface FuzzCase {
    name: string;
    method?: string;
    /** Relative to the API base path, query included, sent as is. */
    path: string;
    body?: unknown;
    headers?: Record<string, string>;
  }

  const deep = (n: number): string => '['.repeat(n) + ']'.repeat(n);
  const longSlug = 'x'.repeat(5000);

  const cases: FuzzCase[] = [
    { name: 'very long query string', path: `/posts/?tag_slug=${'a'.repeat(12_000)}` },
    { name: 'many parameters', path: `/posts/?${Array.from({ length: 500 }, (_, i) => `p${i}=${i}`).join('&')}` },
    { name: 'page=%00', path: '/posts/?page=%00' },
    { name: 'page=1e3', path: '/posts/?page=1e3' },
    { name: 'page=1.5', path: '/posts/?page=1.5' },
    { name: 'page=-1', path: '/posts/?page=-1' },
    { name: 'page=0x10', path: '/posts/?page=0x10' },
    { name: 'page=Infinity', path: '/posts/?page=Infinity' },
    { name: 'huge page', path: '/posts/?page=999999999999999' },
    { name: 'page past MAX_SAFE_INTEGER', path: '/posts/?page=9007199254740993' },
    { name: 'page with 400 digits', path: `/posts/?page=${'9'.repeat(400)}` },
    { name: 'huge page_size', path: '/posts/?page_size=99999999999999999999' },
    { name: 'huge offset', path: '/posts/?limit=5&offset=999999999999999' },
    { name: 'page given twice', path: '/posts/?page=1&page=2' },
    { name: 'both pagination pairs', path: '/posts/?page=1&limit=2' },
    { name: 'bracket parameter', path: '/posts/?page[]=1&tag_slug[a]=b' },
    { name: 'preview=yes', path: '/posts/?preview=yes' },
    { name: 'invalid percent-encoding in the path', path: '/posts/%E0%A4%A/' },
    { name: 'lone percent in the path', path: '/posts/%/' },
    { name: 'empty slug (double slash)', path: '/posts//' },
    { name: 'double slash before the resource', path: '//posts/' },
    { name: 'encoded NUL in the path', path: '/posts/%00/' },
    { name: 'encoded slashes in the path', path: '/posts/..%2F..%2Fetc%2Fpasswd/' },
    { name: 'invalid percent-encoding in the query', path: '/posts/?category_slug=%E0%A4%A&tag_slug=%' },
    { name: 'unicode in filters', path: `/posts/?category_slug=${encodeURIComponent('日本語')}&tag_slug=${encodeURIComponent('🎉')}` },
    { name: 'unicode author filter', path: `/posts/?author_slug=${encodeURIComponent('lucía-fernández')}` },
    { name: 'lone surrogate in a filter', path: '/posts/?tag_slug=%ED%A0%80' },
    { name: 'unicode search', path: `/posts/search/?query=${encodeURIComponent('café 山の日 🎉')}` },
    { name: 'search query too long', path: `/posts/search/?query=${'q'.repeat(101)}` },
    { name: 'unicode author slug', path: `/authors/${encodeURIComponent('ñandú-☃')}/` },
    { name: 'long post slug', path: `/posts/${longSlug}/` },
    { name: 'long author slug', path: `/authors/${longSlug}/` },
    { name: 'long category slug', path: `/categories/${longSlug}/` },
    { name: 'prototype names as query keys', path: '/posts/?__proto__=1&constructor=1&toString=x&hasOwnProperty=1' },
    { name: 'prototype name as include', path: '/authors/?include=__proto__' },
    { name: 'prototype name as a post slug', path: '/posts/constructor/' },
    { name: 'prototype name as a term slug', path: '/tags/__proto__/' },
    { name: 'prototype name as a feed', path: '/feeds/__proto__/' },
    { name: 'prototype method name as a feed', path: '/feeds/valueOf/' },
    { name: 'include=recent_posts twice', path: '/tags/?include=recent_posts&include=recent_posts' },
    { name: 'POST nested arrays', method: 'POST', path: '/posts/', body: deep(50) },
    { name: 'POST deeply nested arrays', method: 'POST', path: '/posts/', body: deep(5000) },
    {
      name: 'POST fields holding nested arrays',
      method: 'POST',
      path: '/posts/',
      body: { title: [[['x']]], categories: [[1, [2]]], tags: [[[]]] },
    },
    { name: 'POST deep array in a field', method: 'POST', path: '/posts/', body: `{"title":"x","tags":${deep(3000)}}` },
    { name: 'POST author as nested array', method: 'POST', path: '/posts/', body: { title: 'x', author: [[{ slug: 'a' }]] } },
    { name: 'POST JSON string', method: 'POST', path: '/posts/', body: '"just a string"' },
    { name: 'POST JSON null', method: 'POST', path: '/posts/', body: 'null' },
    { name: 'POST number', method: 'POST', path: '/posts/', body: '42' },
    { name: 'POST malformed JSON', method: 'POST', path: '/posts/', body: '{"title": ' },
    {
      name: 'POST __proto__ keys',
      method: 'POST',
      path: '/posts/',
      body: '{"__proto__": {"status": "published"}, "constructor": {"prototype": {}}}',
    },
    { name: 'POST wrong content type', method: 'POST', path: '/posts/', body: '{"title":"x"}', headers: { 'content-type': 'text/plain' } },
    {
      name: 'POST unknown charset',
      method: 'POST',
      path: '/posts/',
      body: '{"title":"x"}',
      headers: { 'content-type': 'application/json; charset=klingon' },
    },
    {
      name: 'POST body over the limit',
      method: 'POST',
      path: '/posts/',
      body: JSON.stringify({ title: 'x', body: 'b'.repeat(6 * 1024 * 1024) }),
    },
    {
      name: 'PATCH nested arrays',
      method: 'PATCH',
      path: `/posts/{slug}/`,
      body: { title: [[]], status: [['published']], scheduled: [[1]] },
    },
    { name: 'PATCH unknown post', method: 'PATCH', path: '/posts/%E0%A4%A/', body: { title: 'x' } },
    { name: 'DELETE invalid encoding', method: 'DELETE', path: '/posts/%E0%A4%A/' },
    { name: 'PUT with nested arrays', method: 'PUT', path: '/posts/', body: deep(100) },
  ];

  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, { method = 'GET', path, body, headers }) => {
    const res = await api.request(method, path.replace('{slug}', publishedSlug()), {
      headerToken: method === 'GET' ? read : write,
      ...(body === undefined ? {} : { body }),
      ...(headers === undefined ? {} : { headers }),
    });
    expect(res.status, res.text.slice(0, 300)).toBeLessThan(500);
    expectJson(res);
    const parsed: unknown = JSON.parse(res.text);
    expect(typeof parsed).toBe('object');
    expect(parsed).not.toBeNull();
    if (res.status < 400) return;
    const record = parsed as Record<string, unknown>;
    if (typeof record['detail'] === 'string') return;
    // Field validation of a write: an object mapping each field to an array of messages.
    expect(res.status, res.text.slice(0, 300)).toBe(400);
    expect(method).not.toBe('GET');
    expect(Object.keys(record).length).toBeGreaterThan(0);
    for (const [field, list] of Object.entries(record)) {
      expect(Array.isArray(list), field).toBe(true);
      for (const message of list as unknown[]) expect(typeof message, field).toBe('string');
    }
  });

  it('the emulator still answers after the fuzz', async () => {
    const res = await api.get('/posts/', { token: read });
    expect(res.status).toBe(200);
  });
});
