/**
 * The request log over real HTTP (server/http/request-log.ts, server/control/requests.ts,
 * server/http/har.ts): every request to the emulated API and the CDN, newest first, tokens
 * redacted, bodies capped at 64 KiB; filters; one request with what it caused; HAR 1.2 and NDJSON
 * exports. The HAR export is checked against a zod schema written here from the HAR 1.2 spec
 * (http://www.softwareishard.com/blog/har-12-spec/).
 *
 * One emulator for the file on the demo fixture; the log is emptied before each test, so each
 * test sees only its own requests. Writes are drafts (their webhooks go to the instant `demo`
 * inbox only); what the tests expect of the fixture is derived from loadFixture().
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { LoggedRequest } from '../../server/http/request-log.js';
import type { JobRecord } from '../../server/jobs/queue.js';
import type { MediaRecord, Organization, StoreData, WebhookEvent } from '../../server/store/schema.js';
import { packageRoot } from '../../server/store/seed.js';
import type { Delivery } from '../../server/webhooks/delivery.js';
import { loadFixture, startTestEmulator, type ApiResponse, type RequestOptions, type TestEmulator } from '../helpers/emulator.js';

const KIB64 = 64 * 1024;
const REDACTED = '[redacted]';

interface DetailJson {
  detail: string;
}

// ---------------------------------------------------------------------------------------------
// HAR 1.2, from the spec: required fields as the spec lists them, optional ones as it marks them.

const comment = z.string().optional();
const nameValue = z.object({ name: z.string(), value: z.string(), comment });
const cookie = z.object({
  name: z.string(),
  value: z.string(),
  path: z.string().optional(),
  domain: z.string().optional(),
  expires: z.string().optional(),
  httpOnly: z.boolean().optional(),
  secure: z.boolean().optional(),
  comment,
});
const isoDateTime = z.iso.datetime({ offset: true });
const sizeOrUnknown = z.int().min(-1);
const harEntry = z
  .object({
    pageref: z.string().optional(),
    startedDateTime: isoDateTime,
    time: z.number().min(0),
    request: z.object({
      method: z.string().min(1),
      url: z.url(),
      httpVersion: z.string().min(1),
      cookies: z.array(cookie),
      headers: z.array(nameValue),
      queryString: z.array(nameValue),
      postData: z
        .object({
          mimeType: z.string().min(1),
          params: z
            .array(
              z.object({
                name: z.string(),
                value: z.string().optional(),
                fileName: z.string().optional(),
                contentType: z.string().optional(),
              }),
            )
            .optional(),
          text: z.string(),
          comment,
        })
        .optional(),
      headersSize: sizeOrUnknown,
      bodySize: sizeOrUnknown,
      comment,
    }),
    response: z.object({
      status: z.int().min(100).max(599),
      statusText: z.string(),
      httpVersion: z.string().min(1),
      cookies: z.array(cookie),
      headers: z.array(nameValue),
      content: z.object({
        size: z.int().min(0),
        compression: z.int().optional(),
        mimeType: z.string().min(1),
        text: z.string().optional(),
        encoding: z.string().optional(),
        comment,
      }),
      redirectURL: z.string(),
      headersSize: sizeOrUnknown,
      bodySize: sizeOrUnknown,
      comment,
    }),
    cache: z.object({ beforeRequest: z.unknown().optional(), afterRequest: z.unknown().optional(), comment }),
    timings: z.object({
      blocked: z.number().min(-1).optional(),
      dns: z.number().min(-1).optional(),
      connect: z.number().min(-1).optional(),
      send: z.number().min(0),
      wait: z.number().min(0),
      receive: z.number().min(0),
      ssl: z.number().min(-1).optional(),
      comment,
    }),
    serverIPAddress: z.string().optional(),
    connection: z.string().optional(),
    comment,
  })
  // Custom fields (the spec: names starting with "_") are kept, not stripped.
  .loose();
const creator = z.object({ name: z.string().min(1), version: z.string().min(1), comment });
const harSchema = z.object({
  log: z.object({
    version: z.literal('1.2'),
    creator,
    browser: creator.optional(),
    pages: z
      .array(
        z.object({
          startedDateTime: isoDateTime,
          id: z.string(),
          title: z.string(),
          pageTimings: z.object({ onContentLoad: z.number().optional(), onLoad: z.number().optional(), comment }),
          comment,
        }),
      )
      .optional(),
    entries: z.array(harEntry),
    comment,
  }),
});

// ---------------------------------------------------------------------------------------------

let api: TestEmulator;
let demo: StoreData;
let acme: Organization;
let basePath: string;
let sequence = 0;

function unique(prefix: string): string {
  sequence += 1;
  return `${prefix}-${sequence}-${Date.now().toString(36)}`;
}

function tokens(slug: string): { read: string; write: string } {
  const found = api.tokens[slug];
  if (!found) throw new Error(`no tokens for "${slug}"`);
  return found;
}

function allTokens(): string[] {
  return Object.values(api.tokens).flatMap((t) => [t.read, t.write]);
}

async function control<T = unknown>(method: string, path: string, body?: unknown): Promise<ApiResponse<T>> {
  const init: RequestInit = { method };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers = { 'content-type': 'application/json' };
  }
  const response = await fetch(`${api.url}/__emulator${path}`, init);
  const text = await response.text();
  const isJson = /^application\/(.+\+)?json/.test(response.headers.get('content-type') ?? '');
  return { status: response.status, headers: response.headers, text, body: (isJson && text ? JSON.parse(text) : undefined) as T };
}

/** The log, newest first, through the control API. */
async function logged(query: Record<string, string> = {}): Promise<LoggedRequest[]> {
  const res = await control<{ data: LoggedRequest[] }>('GET', `/requests?${new URLSearchParams(query)}`);
  expect(res.status, res.text).toBe(200);
  return res.body.data;
}

async function only(): Promise<LoggedRequest> {
  const list = await logged();
  expect(list).toHaveLength(1);
  return list[0]!;
}

/** A raw request to the API (for bodies and headers the helper would normalize). */
async function raw(method: string, path: string, init: { headers?: Record<string, string>; body?: string } = {}): Promise<Response> {
  const response = await fetch(api.apiUrl + path, { method, ...init });
  await response.arrayBuffer();
  return response;
}

function createDraft(body: Record<string, unknown>, options: RequestOptions = {}): Promise<ApiResponse<unknown>> {
  return api.request('POST', '/posts/', { headerToken: tokens('acme').write, body: { status: 'draft', ...body }, ...options });
}

function jpegMedia(): MediaRecord {
  const found = acme.media.find((m) => m.content_type === 'image/jpeg');
  if (!found) throw new Error('the demo fixture has no JPEG');
  return found;
}

beforeAll(async () => {
  api = await startTestEmulator();
  demo = await loadFixture('demo');
  const found = demo.organizations.find((o) => o.slug === 'acme');
  if (!found) throw new Error('the demo fixture has no acme');
  acme = found;
  basePath = api.emulator.config.basePath;
});

afterAll(async () => {
  if (!api) return;
  await control('DELETE', '/clock');
  await control('GET', '/jobs/idle?deliveries=1&timeout_ms=20000');
  await api.close();
});

beforeEach(async () => {
  await control('GET', '/jobs/idle?deliveries=1&timeout_ms=20000');
  expect((await control('DELETE', '/requests')).status).toBe(204);
});

// ---------------------------------------------------------------------------------------------

describe('what is logged', () => {
  it('an API read: method, url and query with auth_token redacted, organization, token kind, response, duration', async () => {
    const res = await api.get('/posts/', { token: tokens('acme').read, query: { limit: 2 } });
    expect(res.status).toBe(200);
    const entry = await only();
    expect(entry).toMatchObject({
      surface: 'api',
      method: 'GET',
      url: `${basePath}/posts/?auth_token=${REDACTED}&limit=2`,
      path: `${basePath}/posts/`,
      query: { auth_token: REDACTED, limit: '2' },
      organization: 'acme',
      token: 'read',
      request: { body: { text: '', truncated: false, size: 0 } },
      response: { status: 200, body: { text: res.text, truncated: false, size: Buffer.byteLength(res.text) } },
    });
    expect(entry.id).toEqual(expect.any(String));
    expect(entry.response.headers['content-type']).toMatch(/^application\/json/);
    expect(entry.request.headers['host']).toBe(new URL(api.url).host);
    expect(entry.duration_ms).toBeGreaterThanOrEqual(0);
    expect(Math.abs(Date.parse(entry.time) - Date.now())).toBeLessThan(10_000);
    for (const token of allTokens()) expect(JSON.stringify(entry)).not.toContain(token);
  });

  it('a write: the Authorization value redacted with its scheme kept, the request body, the write token kind', async () => {
    const body = { title: unique('Logged write'), slug: unique('logged-write'), status: 'draft' };
    const res = await api.request('POST', '/posts/', { headerToken: tokens('acme').write, body });
    expect(res.status).toBe(202);
    const entry = await only();
    const text = JSON.stringify(body);
    expect(entry).toMatchObject({
      method: 'POST',
      url: `${basePath}/posts/`,
      query: {},
      organization: 'acme',
      token: 'write',
      request: { body: { text, truncated: false, size: Buffer.byteLength(text) } },
      response: { status: 202, body: { text: res.text, truncated: false } },
    });
    expect(entry.request.headers['authorization']).toBe(`Token ${REDACTED}`);
    expect(entry.request.headers['content-type']).toBe('application/json');
    for (const token of allTokens()) expect(JSON.stringify(entry)).not.toContain(token);
  });

  it('keeps any scheme of an Authorization header and redacts only its value', async () => {
    await raw('GET', '/posts/', { headers: { authorization: `Bearer ${tokens('acme').read}` } });
    const entry = await only();
    expect(entry.request.headers['authorization']).toBe(`Bearer ${REDACTED}`);
    expect(entry).toMatchObject({ organization: null, token: null, response: { status: 401 } });
  });

  it('redacts an Authorization header that has no scheme, too', async () => {
    await raw('GET', '/posts/', { headers: { authorization: tokens('acme').read } });
    const entry = await only();
    expect(entry.request.headers['authorization']).toBe(REDACTED);
    for (const token of allTokens()) expect(JSON.stringify(entry)).not.toContain(token);
  });

  it('refused and unknown requests: their status, no organization or token', async () => {
    await api.get('/posts/', { token: 'not-a-token' });
    await api.get(`/posts/${unique('no-such-post')}/`, { token: tokens('northwind').read });
    await api.get('/no-such-endpoint/', { token: tokens('acme').read });
    const [unknown, missing, refused] = await logged();
    expect(refused).toMatchObject({ response: { status: 401 }, organization: null, token: null, query: { auth_token: REDACTED } });
    expect(refused!.response.headers['www-authenticate']).toBe('Token');
    expect(missing).toMatchObject({ response: { status: 404 }, organization: 'northwind', token: 'read' });
    expect(unknown).toMatchObject({ response: { status: 404 }, path: `${basePath}/no-such-endpoint/` });
  });

  it('CDN requests: surface cdn, and an image body as a note of its size and type', async () => {
    const media = jpegMedia();
    const res = await fetch(`${api.cdnUrl}/${media.id}`);
    const bytes = (await res.arrayBuffer()).byteLength;
    expect(res.status).toBe(200);
    expect(bytes).toBe(media.size);
    const entry = await only();
    expect(entry).toMatchObject({
      surface: 'cdn',
      method: 'GET',
      path: `/cdn/${media.id}`,
      organization: null,
      token: null,
      response: { status: 200, body: { text: `[${media.size} bytes of image/jpeg]`, size: media.size } },
    });
    expect(entry.response.headers['content-type']).toBe('image/jpeg');
  });

  it('every API and CDN request, newest first', async () => {
    const media = jpegMedia();
    await api.get('/posts/', { token: tokens('acme').read, query: { limit: 1 } });
    await fetch(`${api.cdnUrl}/${media.id}`).then((r) => r.arrayBuffer());
    await api.get('/authors/', { token: tokens('northwind').read });
    await createDraft({ title: unique('Ordered') });
    const list = await logged();
    expect(list.map((e) => [e.method, e.path])).toEqual([
      ['POST', `${basePath}/posts/`],
      ['GET', `${basePath}/authors/`],
      ['GET', `/cdn/${media.id}`],
      ['GET', `${basePath}/posts/`],
    ]);
    const times = list.map((e) => Date.parse(e.time));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(new Set(list.map((e) => e.id)).size).toBe(4);
  });

  it('does not log the control API, nor the built-in inboxes receiving deliveries', async () => {
    await control('GET', '/clock');
    await control('GET', '/jobs');
    await control('GET', '/requests');
    await control('POST', '/inboxes/request-log-test', { hello: 'world' });
    await control('GET', '/nope');
    await fetch(api.url + '/');
    expect(await logged()).toEqual([]);
  });

  it('a response over 64 KiB: its first 64 KiB, truncated: true, and its whole size', async () => {
    const res = await api.get('/posts/', { token: tokens('acme').read, query: { limit: 100 } });
    const size = Buffer.byteLength(res.text);
    expect(size).toBeGreaterThan(KIB64);
    const entry = await only();
    expect(entry.response.body.truncated).toBe(true);
    expect(entry.response.body.size).toBe(size);
    expect(Buffer.byteLength(entry.response.body.text)).toBe(KIB64);
    expect(entry.response.body.text).toBe(Buffer.from(res.text).subarray(0, KIB64).toString('utf8'));
  });

  it('a request body over 64 KiB: its first 64 KiB, truncated: true, and its whole size', async () => {
    const body = { title: unique('Long body'), body: `<p>${'a'.repeat(80_000)}</p>` };
    const text = JSON.stringify({ status: 'draft', ...body });
    expect((await createDraft(body)).status).toBe(202);
    const entry = await only();
    expect(entry.request.body).toEqual({ text: text.slice(0, KIB64), truncated: true, size: Buffer.byteLength(text) });
  });

  it('a multi-byte request body over 64 KiB is cut at 64 KiB of bytes', async () => {
    const body = { title: unique('Kanji body'), body: `<p>${'日'.repeat(30_000)}</p>` };
    const text = JSON.stringify({ status: 'draft', ...body });
    expect(Buffer.byteLength(text)).toBeGreaterThan(KIB64);
    expect((await createDraft(body)).status).toBe(202);
    const entry = await only();
    expect(entry.request.body.size).toBe(Buffer.byteLength(text));
    expect(entry.request.body.truncated).toBe(true);
    expect(Buffer.byteLength(entry.request.body.text)).toBeLessThanOrEqual(KIB64);
  });

  describe('the request body as sent', () => {
    it('keeps the text of a JSON body exactly (spacing, number digits)', async () => {
      // Spacing, and numbers JSON.parse changes: 1.50 → 1.5, 12345678901234567890 → 12345678901234567000.
      const text = `{ "title": "${unique('Exact text')}",  "status": "draft", "x_weight": 1.50, "x_ref": 12345678901234567890 }`;
      const res = await raw('POST', '/posts/', {
        headers: { authorization: `Token ${tokens('acme').write}`, 'content-type': 'application/json' },
        body: text,
      });
      expect(res.status).toBe(202);
      const entry = await only();
      expect(entry.request.body).toEqual({ text, truncated: false, size: Buffer.byteLength(text) });
    });

    it('logs the body of a write refused before it was read (401)', async () => {
      const text = JSON.stringify({ title: unique('Refused write') });
      const res = await raw('POST', '/posts/', {
        headers: { authorization: `Token ${tokens('acme').read}`, 'content-type': 'application/json' },
        body: text,
      });
      expect(res.status).toBe(401);
      const entry = await only();
      expect(entry.request.body).toEqual({ text, truncated: false, size: Buffer.byteLength(text) });
    });

    it('logs the body of a write with malformed JSON (400)', async () => {
      const text = '{"title": "broken';
      const res = await raw('POST', '/posts/', {
        headers: { authorization: `Token ${tokens('acme').write}`, 'content-type': 'application/json' },
        body: text,
      });
      expect(res.status).toBe(400);
      const entry = await only();
      expect(entry.request.body).toEqual({ text, truncated: false, size: Buffer.byteLength(text) });
    });
  });
});

describe('filters', () => {
  /** One request of each kind; returns the log, newest first. */
  async function mixedTraffic(): Promise<LoggedRequest[]> {
    await api.get('/posts/', { token: tokens('acme').read, query: { limit: 1 } });
    await createDraft({ title: unique('Filtered') });
    await api.get('/posts/', { token: tokens('northwind').read, query: { limit: 1 } });
    await api.get('/authors/', { token: 'wrong-token' });
    await api.get(`/posts/${unique('missing')}/`, { token: tokens('acme').read });
    await fetch(`${api.cdnUrl}/${jpegMedia().id}`).then((r) => r.arrayBuffer());
    const all = await logged();
    expect(all).toHaveLength(6);
    return all;
  }

  it('method (any case), status (exact or class), path substring, organization, surface, limit, combined', async () => {
    const all = await mixedTraffic();
    const ids = (list: LoggedRequest[]) => list.map((e) => e.id);
    const expectFilter = async (query: Record<string, string>, keep: (e: LoggedRequest) => boolean) => {
      const expected = all.filter(keep);
      expect(expected.length, JSON.stringify(query)).toBeGreaterThan(0);
      expect(ids(await logged(query)), JSON.stringify(query)).toEqual(ids(expected));
    };
    await expectFilter({ method: 'post' }, (e) => e.method === 'POST');
    await expectFilter({ method: 'GET' }, (e) => e.method === 'GET');
    await expectFilter({ status: '404' }, (e) => e.response.status === 404);
    await expectFilter({ status: '4xx' }, (e) => e.response.status >= 400 && e.response.status < 500);
    await expectFilter({ status: '2xx' }, (e) => e.response.status >= 200 && e.response.status < 300);
    await expectFilter({ path: '/posts/' }, (e) => e.path.includes('/posts/'));
    await expectFilter({ path: 'authors' }, (e) => e.path.includes('authors'));
    await expectFilter({ organization: 'northwind' }, (e) => e.organization === 'northwind');
    await expectFilter({ organization: 'acme' }, (e) => e.organization === 'acme');
    await expectFilter({ surface: 'cdn' }, (e) => e.surface === 'cdn');
    await expectFilter({ surface: 'api' }, (e) => e.surface === 'api');
    await expectFilter(
      { method: 'get', organization: 'acme', status: '2xx' },
      (e) => e.method === 'GET' && e.organization === 'acme' && e.response.status === 200,
    );
    expect(ids(await logged({ limit: '2' }))).toEqual(ids(all.slice(0, 2)));
    expect(await logged({ organization: 'nobody' })).toEqual([]);
    expect(await logged({ status: '5xx' })).toEqual([]);
  });

  it('since and until: by the emulator clock time the request arrived, in any zone offset', async () => {
    const early = '2027-01-01T00:00:00.000Z';
    const late = '2027-01-02T00:00:00.000Z';
    try {
      await control('PUT', '/clock', { now: early, freeze: true });
      await api.get('/posts/', { token: tokens('acme').read, query: { limit: 1 } });
      await control('PUT', '/clock', { now: late, freeze: true });
      await api.get('/authors/', { token: tokens('acme').read });
    } finally {
      await control('DELETE', '/clock');
    }
    const [b, a] = await logged();
    expect(a).toMatchObject({ time: early, path: `${basePath}/posts/` });
    expect(b).toMatchObject({ time: late, path: `${basePath}/authors/` });
    expect(await logged({ since: late })).toEqual([b]);
    expect(await logged({ since: '2027-01-02T01:00:00+01:00' })).toEqual([b]);
    expect(await logged({ until: early })).toEqual([a]);
    expect(await logged({ until: '2027-01-01T12:00:00Z' })).toEqual([a]);
    expect(await logged({ since: early, until: late })).toEqual([b, a]);
    expect(await logged({ since: '2027-01-03T00:00:00Z' })).toEqual([]);
  });

  it.each([
    ['status=44'],
    ['status=4XX'],
    ['status=600'],
    ['status=4x'],
    ['surface=web'],
    ['since=yesterday'],
    ['since=2027-01-01'],
    ['until=2027-13-01T00:00:00Z'],
    ['limit=0'],
    ['limit=10001'],
    ['limit=abc'],
    ['method=GET&method=POST'],
  ])('400 for a malformed filter: %s', async (query) => {
    const res = await control<DetailJson>('GET', `/requests?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: expect.any(String) });
    const har = await control<DetailJson>('GET', `/requests/export.har?${query}`);
    expect(har.status).toBe(400);
  });
});

describe('one request', () => {
  it('GET /requests/{id} of a write includes the jobs it caused and their webhook deliveries', async () => {
    const slug = unique('caused');
    expect((await createDraft({ title: unique('Caused'), slug })).status).toBe(202);
    const [entry] = await logged();
    await control('GET', '/jobs/idle?deliveries=1');
    const res = await control<{ data: LoggedRequest & { caused: { jobs: JobRecord[]; deliveries: Delivery[] } } }>(
      'GET',
      `/requests/${entry!.id}`,
    );
    expect(res.status).toBe(200);
    const { caused, ...rest } = res.body.data;
    expect(rest).toEqual(entry);
    expect(caused.jobs).toHaveLength(1);
    expect(caused.jobs[0]).toMatchObject({ kind: 'post.create', status: 'succeeded', cause: { kind: 'api', requestId: entry!.id } });

    const kinds: WebhookEvent[] = ['post.draft', 'post.all'];
    const expected = acme.webhooks
      .filter((w) => w.enabled)
      .flatMap((w) => kinds.filter((k) => w.events.includes(k)).map((event) => `${w.id} ${event}`))
      .sort();
    expect(expected.length).toBeGreaterThan(0);
    expect(caused.deliveries.map((d) => `${d.webhook_id} ${d.event}`).sort()).toEqual(expected);
    for (const d of caused.deliveries) {
      expect(d.cause).toEqual({ kind: 'api', requestId: entry!.id });
      expect((JSON.parse(d.request.body) as { data: { id: string } }).data.id).toBe(slug);
    }
  });

  it('a read caused nothing', async () => {
    await api.get('/posts/', { token: tokens('acme').read, query: { limit: 1 } });
    const [entry] = await logged();
    const res = await control<{ data: { caused: unknown } }>('GET', `/requests/${entry!.id}`);
    expect(res.body.data.caused).toEqual({ jobs: [], deliveries: [] });
  });

  it('404 for an unknown id', async () => {
    const res = await control<DetailJson>('GET', '/requests/00000000-0000-4000-8000-000000000000');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: expect.any(String) });
  });

  it('DELETE /requests forgets every request (204)', async () => {
    await api.get('/posts/', { token: tokens('acme').read, query: { limit: 1 } });
    const [entry] = await logged();
    const res = await control('DELETE', '/requests');
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await logged()).toEqual([]);
    expect((await control('GET', `/requests/${entry!.id}`)).status).toBe(404);
  });
});

describe('exports', () => {
  async function traffic(): Promise<{ body: string }> {
    await api.get('/posts/', { token: tokens('acme').read, query: { limit: 1, tag_slug: 'x' } });
    const body = { title: unique('Exported'), status: 'draft' };
    await api.request('POST', '/posts/', { headerToken: tokens('acme').write, body });
    await fetch(`${api.cdnUrl}/${jpegMedia().id}`).then((r) => r.arrayBuffer());
    await api.get('/posts/', { token: 'wrong-token' });
    return { body: JSON.stringify(body) };
  }

  it('GET /requests/export.har is HAR 1.2: entries oldest first, absolute URLs, bodies, redacted tokens', async () => {
    const { body } = await traffic();
    const list = await logged();
    const res = await control('GET', '/requests/export.har');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename=".+\.har"$/);
    const har = harSchema.parse(res.body);
    const version = (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
    expect(har.log.creator).toEqual({ name: 'cms-emulator', version });

    const entries = har.log.entries;
    expect(entries).toHaveLength(list.length);
    expect(entries.map((e) => e['_id'])).toEqual([...list].reverse().map((e) => e.id));
    expect(entries.map((e) => [e.request.method, new URL(e.request.url).pathname])).toEqual(
      [...list].reverse().map((e) => [e.method, e.path]),
    );
    for (const [i, entry] of entries.entries()) {
      const source = list[list.length - 1 - i]!;
      expect(entry.request.url.startsWith(`${api.url}/`)).toBe(true);
      expect(entry.startedDateTime).toBe(source.time);
      expect(entry.time).toBe(entry.timings.send + entry.timings.wait + entry.timings.receive);
      expect(entry.response.status).toBe(source.response.status);
      expect(entry.response.content.size).toBe(source.response.body.size);
      if (i > 0) expect(Date.parse(entry.startedDateTime)).toBeGreaterThanOrEqual(Date.parse(entries[i - 1]!.startedDateTime));
    }

    const [read, write, image, refused] = entries;
    expect(read!.request.queryString).toEqual(
      expect.arrayContaining([
        { name: 'auth_token', value: REDACTED },
        { name: 'limit', value: '1' },
        { name: 'tag_slug', value: 'x' },
      ]),
    );
    expect(read!.request.postData).toBeUndefined();
    expect(read!.response.content.mimeType).toMatch(/^application\/json/);
    expect(JSON.parse(read!.response.content.text ?? '')).toMatchObject({ data: expect.any(Array) });
    expect(write!.request.postData).toEqual({ mimeType: 'application/json', text: body });
    expect(write!.request.bodySize).toBe(Buffer.byteLength(body));
    expect(write!.request.headers).toContainEqual({ name: 'authorization', value: `Token ${REDACTED}` });
    expect(write!.response.status).toBe(202);
    expect(image!.response.content).toMatchObject({ mimeType: 'image/jpeg', size: jpegMedia().size });
    expect(refused!.response.status).toBe(401);
    for (const token of allTokens()) expect(res.text).not.toContain(token);
  });

  it('the exports take the same filters as the list', async () => {
    await traffic();
    const har = harSchema.parse((await control('GET', '/requests/export.har?surface=cdn')).body);
    expect(har.log.entries).toHaveLength(1);
    expect(new URL(har.log.entries[0]!.request.url).pathname).toBe(`/cdn/${jpegMedia().id}`);
    const limited = harSchema.parse((await control('GET', '/requests/export.har?limit=2')).body);
    const newestTwo = (await logged({ limit: '2' })).map((e) => e.id).reverse();
    expect(limited.log.entries.map((e) => e['_id'])).toEqual(newestTwo);
    const ndjson = await control('GET', '/requests/export.ndjson?method=POST');
    expect(ndjson.text.trim().split('\n')).toHaveLength(1);
  });

  it('an empty log is a HAR with no entries', async () => {
    const har = harSchema.parse((await control('GET', '/requests/export.har')).body);
    expect(har.log.entries).toEqual([]);
  });

  it('GET /requests/export.ndjson: one logged request per line, oldest first', async () => {
    await traffic();
    const list = await logged();
    const res = await control('GET', '/requests/export.ndjson');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename=".+\.ndjson"$/);
    expect(res.text.endsWith('\n')).toBe(true);
    const lines = res.text.slice(0, -1).split('\n');
    expect(lines).toHaveLength(list.length);
    const parsed = lines.map((line) => JSON.parse(line) as LoggedRequest);
    expect(parsed).toEqual([...list].reverse());
    expect((await control('GET', '/requests/export.ndjson?organization=nobody')).text).toBe('');
  });
});
