/**
 * The control API over real HTTP (server/control/: jobs, clock, state, dashboard actions; the
 * code is the reference where docs/control-api.md is silent; webhook kinds: docs/webhooks.md).
 *
 * One emulator for the file, seeded from a copy of the demo fixture whose built-in receivers
 * answer at once (the demo's `search-indexer` inbox waits 1.5 s and fails its first delivery,
 * which would make every wait for deliveries slow); everything else is the demo's, and what the
 * tests expect is derived from loadFixture('demo'). Before each test the clock is real again,
 * every job and delivery has finished, that fixture is loaded afresh and the delivery log and the
 * `demo` inbox are empty, so each test starts from the fixture.
 *
 * Slow jobs come from a local origin (node:http, port 0) that holds image downloads until the
 * test releases them: a post whose featured image points there keeps a `media.import` job running.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ClockState } from '../../server/clock.js';
import { messages } from '../../server/domain/messages.js';
import type { JobRecord } from '../../server/jobs/queue.js';
import type { FieldValues, Organization, Page, Post, StoreData, WebhookEvent } from '../../server/store/schema.js';
import { resolveFixture } from '../../server/store/seed.js';
import type { Delivery } from '../../server/webhooks/delivery.js';
import type { InboxRequest } from '../../server/webhooks/inboxes.js';
import { loadFixture, startTestEmulator, type ApiResponse, type TestEmulator } from '../helpers/emulator.js';

const PAGES_FIXTURE = fileURLToPath(new URL('../fixtures/pages', import.meta.url));
const FIXTURES_FOLDER = fileURLToPath(new URL('../fixtures', import.meta.url));

interface DetailJson {
  detail: string;
}

interface PostJson {
  slug: string;
  title: string;
  status: string;
  created: string;
  published: string | null;
}

interface PageJson {
  slug: string;
  published: string | null;
  updated: string;
  scheduled: string | null;
  status: string;
  fields: Record<string, unknown>;
}

interface SnapshotJson {
  name: string;
  created: string;
}

let api: TestEmulator;
/** The instant-receiver copy of the demo fixture the emulator was seeded from. */
let fixtureDir: string;
let demo: StoreData;
let acme: Organization;
let origin: HoldingOrigin;
let sequence = 0;

/** A word no other test uses, for titles and slugs. */
function unique(prefix: string): string {
  sequence += 1;
  return `${prefix}-${sequence}-${Date.now().toString(36)}`;
}

function required<T>(value: T | undefined | null, what: string): T {
  if (value === undefined || value === null) throw new Error(`the demo fixture has no ${what}`);
  return value;
}

function org(data: StoreData, slug: string): Organization {
  return required(
    data.organizations.find((o) => o.slug === slug),
    `organization "${slug}"`,
  );
}

function tokens(slug: string): { read: string; write: string } {
  return required(api.tokens[slug], `tokens of "${slug}"`);
}

// ---------------------------------------------------------------------------------------------
// HTTP helpers

/** A request to the control API (`/__emulator` + path); `body` is JSON-encoded unless a string. */
async function control<T = unknown>(method: string, path: string, body?: unknown): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = {};
  let payload: string | undefined;
  if (body !== undefined) {
    payload = typeof body === 'string' ? body : JSON.stringify(body);
    headers['content-type'] = 'application/json';
  }
  const response = await fetch(`${api.url}/__emulator${path}`, { method, headers, body: payload });
  const text = await response.text();
  const isJson = (response.headers.get('content-type') ?? '').includes('json');
  return { status: response.status, headers: response.headers, text, body: (isJson && text ? JSON.parse(text) : undefined) as T };
}

async function settle(): Promise<void> {
  const res = await control('GET', '/jobs/idle?deliveries=1&timeout_ms=20000');
  expect(res.status).toBe(200);
}

async function jobs(query = ''): Promise<JobRecord[]> {
  const res = await control<{ data: JobRecord[] }>('GET', `/jobs${query}`);
  expect(res.status).toBe(200);
  return res.body.data;
}

async function clock(): Promise<ClockState> {
  const res = await control<{ data: ClockState }>('GET', '/clock');
  expect(res.status).toBe(200);
  return res.body.data;
}

/** Every delivery of the test (the log is emptied before each), once all have finished. */
async function deliveries(query = ''): Promise<Delivery[]> {
  await settle();
  const res = await control<{ data: Delivery[] }>('GET', `/deliveries?limit=2000${query}`);
  expect(res.status).toBe(200);
  return res.body.data;
}

function createPost(orgSlug: string, body: Record<string, unknown>): Promise<ApiResponse<unknown>> {
  return api.request('POST', '/posts/', { headerToken: tokens(orgSlug).write, body });
}

function readPost(slug: string, orgSlug = 'acme'): Promise<ApiResponse<{ data: PostJson }>> {
  return api.get(`/posts/${encodeURIComponent(slug)}/`, { token: tokens(orgSlug).read });
}

/** Slugs of the organization's published posts, as a non-preview list shows them. */
async function publicSlugs(orgSlug = 'acme'): Promise<string[]> {
  const res = await api.get<{ data: PostJson[] }>('/posts/', { token: tokens(orgSlug).read, query: { limit: 100 } });
  expect(res.status).toBe(200);
  return res.body.data.map((p) => p.slug);
}

function readPage(page: Page, preview = false): Promise<ApiResponse<{ data: PageJson }>> {
  return api.get(`/pages/${page.page_type ?? '*'}/${page.slug}/`, {
    token: tokens('acme').read,
    ...(preview ? { query: { preview: 'true' } } : {}),
  });
}

function readItem(collection: string, id: number, preview = false): Promise<ApiResponse<unknown>> {
  return api.get(`/content/${collection}/${id}/`, { token: tokens('acme').read, ...(preview ? { query: { preview: 'true' } } : {}) });
}

function dashboard<T = unknown>(path: string, body?: unknown): Promise<ApiResponse<T>> {
  return control<T>('POST', `/organizations/${path}`, body);
}

/** Polls `check` until it holds (for what a timer does, e.g. the scheduler's tick). */
async function eventually(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// ---------------------------------------------------------------------------------------------
// Expectations derived from the fixture and docs/webhooks.md

interface Expected {
  webhook_id: string;
  event: string;
}

const byWebhookAndEvent = (a: Expected, b: Expected) => `${a.webhook_id} ${a.event}`.localeCompare(`${b.webhook_id} ${b.event}`);

/** One delivery per enabled webhook of `o` per kind it subscribes to (docs/webhooks.md). */
function expectedDeliveries(o: Organization, kinds: WebhookEvent[]): Expected[] {
  return o.webhooks
    .filter((w) => w.enabled)
    .flatMap((w) => kinds.filter((k) => w.events.includes(k)).map((event) => ({ webhook_id: w.id, event })))
    .sort(byWebhookAndEvent);
}

function sent(list: Delivery[]): Expected[] {
  return list.map((d) => ({ webhook_id: d.webhook_id ?? '', event: d.event })).sort(byWebhookAndEvent);
}

/**
 * Checks that the test's acme deliveries of the kinds' group (`post.`, `page.`…) are exactly those
 * `kinds` fire, all succeeded, with `cause`.
 */
async function expectWebhooks(kinds: WebhookEvent[], cause: { kind: 'control'; action: string }): Promise<Delivery[]> {
  const expected = expectedDeliveries(acme, kinds);
  expect(expected.length).toBeGreaterThan(0);
  const group = kinds[0]!.split('.')[0] + '.';
  const list = (await deliveries('&organization=acme')).filter((d) => d.event.startsWith(group));
  expect(sent(list)).toEqual(expected);
  for (const d of list) {
    expect(d.cause).toEqual(cause);
    expect(d.state).toBe('succeeded');
  }
  return list;
}

function envelope(d: Delivery): { data: Record<string, unknown>; webhook: { event: string } } {
  return JSON.parse(d.request.body) as { data: Record<string, unknown>; webhook: { event: string } };
}

/** Field values of stored content, per locale when the organization has locales. */
function localeValues(o: Organization, content: FieldValues): FieldValues[] {
  return o.locales.length > 0 ? (Object.values(content) as FieldValues[]) : [content];
}

// ---------------------------------------------------------------------------------------------
// A local origin that holds image downloads until released

interface HoldingOrigin {
  url: string;
  /** Resolves once a request for `path` has arrived (and is being held). */
  arrived(path: string): Promise<void>;
  /** Answers every held request with a JPEG. */
  release(): void;
  /** Whether a request for `path` ever arrived. */
  wasRequested(path: string): boolean;
  close(): Promise<void>;
}

async function startHoldingOrigin(jpeg: Buffer): Promise<HoldingOrigin> {
  const held: ServerResponse[] = [];
  const seen = new Set<string>();
  const waiters = new Map<string, () => void>();
  const server: Server = createServer((req, res) => {
    held.push(res);
    const path = req.url ?? '';
    seen.add(path);
    waiters.get(path)?.();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    arrived: (path) => (seen.has(path) ? Promise.resolve() : new Promise((resolve) => waiters.set(path, resolve))),
    wasRequested: (path) => seen.has(path),
    release() {
      for (const res of held.splice(0)) {
        res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': String(jpeg.length) });
        res.end(jpeg);
      }
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Starts a write whose background download hangs on the origin: a `media.import` job is running when this resolves. */
async function startSlowJob(): Promise<string> {
  const path = `/${unique('held')}.jpg`;
  const res = await createPost('acme', { title: unique('Slow image'), featured_image: origin.url + path });
  expect(res.status).toBe(202);
  await origin.arrived(path);
  return path;
}

// ---------------------------------------------------------------------------------------------

beforeAll(async () => {
  const demoDir = resolveFixture('demo');
  const raw = JSON.parse(await readFile(join(demoDir, 'data.json'), 'utf8')) as { inboxes: Record<string, unknown>[] };
  raw.inboxes = raw.inboxes.map((inbox) => ({ ...inbox, delay_ms: 0, fail_first: 0 }));
  fixtureDir = await mkdtemp(join(tmpdir(), 'cms-emulator-control-fixture-'));
  await writeFile(join(fixtureDir, 'data.json'), JSON.stringify(raw));
  demo = await loadFixture('demo');
  acme = org(demo, 'acme');
  const photo = required(
    acme.media.find((m) => m.content_type === 'image/jpeg'),
    'JPEG in the media library',
  );
  origin = await startHoldingOrigin(await readFile(join(demoDir, photo.file)));
  api = await startTestEmulator(fixtureDir);
});

afterAll(async () => {
  origin?.release();
  await api?.close();
  await origin?.close();
  if (fixtureDir) await rm(fixtureDir, { recursive: true, force: true });
});

beforeEach(async () => {
  expect((await control('DELETE', '/clock')).status).toBe(200);
  origin.release();
  await settle();
  expect((await control('POST', '/fixtures/load', { fixture: fixtureDir })).status).toBe(200);
  expect((await control('DELETE', '/deliveries')).status).toBe(204);
  expect((await control('DELETE', '/inboxes/demo/requests')).status).toBe(204);
});

// ---------------------------------------------------------------------------------------------

describe('unknown control paths', () => {
  it.each([
    ['GET', '/nope'],
    ['GET', '/'],
    ['POST', '/jobs'],
    ['PUT', '/requests'],
    ['GET', '/organizations/acme/posts/welcome/publish'],
  ])('%s /__emulator%s → 404 JSON {detail}', async (method, path) => {
    const res = await control<DetailJson>(method, path);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toEqual({ detail: expect.any(String) });
  });
});

describe('jobs', () => {
  it('lists jobs newest first with their status, cause and the reason a job failed; filters status, kind, organization, limit', async () => {
    const author = unique('nobody');
    const failing = await createPost('acme', { title: unique('Unknown author'), author: { slug: author } });
    expect(failing.status).toBe(202);
    const fine = await createPost('northwind', { title: unique('Northwind draft') });
    expect(fine.status).toBe(202);
    await settle();

    const all = await jobs();
    const [newest, older] = all;
    expect(newest).toMatchObject({ kind: 'post.create', organization: 'northwind', status: 'succeeded', error: null });
    expect(older).toMatchObject({
      kind: 'post.create',
      organization: 'acme',
      status: 'failed',
      error: messages.jobAuthorNotFound('slug', author),
      cause: { kind: 'api', requestId: expect.any(String) },
    });
    for (const job of [newest!, older!]) {
      expect(Date.parse(job.created)).not.toBeNaN();
      expect(Date.parse(job.started ?? '')).not.toBeNaN();
      expect(Date.parse(job.finished ?? '')).not.toBeNaN();
    }
    // The cause names the request in the request log.
    const request = await control<{ data: { method: string; path: string; response: { status: number } } }>(
      'GET',
      `/requests/${(older!.cause as { requestId: string }).requestId}`,
    );
    expect(request.status).toBe(200);
    expect(request.body.data).toMatchObject({ method: 'POST', path: `${api.emulator.config.basePath}/posts/`, response: { status: 202 } });

    const failed = await jobs('?status=failed');
    expect(failed.map((j) => j.id)).toContain(older!.id);
    expect(failed.every((j) => j.status === 'failed')).toBe(true);
    expect(failed.map((j) => j.id)).not.toContain(newest!.id);

    const northwind = await jobs('?kind=post.create&organization=northwind');
    expect(northwind.map((j) => j.id)).toContain(newest!.id);
    expect(northwind.every((j) => j.kind === 'post.create' && j.organization === 'northwind')).toBe(true);
    expect(await jobs('?kind=media.import&organization=northwind')).toEqual([]);

    expect(await jobs('?limit=1')).toEqual([newest]);
  });

  it.each(['?status=done', '?limit=0', '?limit=2001', '?limit=ten', '?status=failed&status=queued'])('GET /jobs%s → 400', async (query) => {
    const res = await control<DetailJson>('GET', `/jobs${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: expect.any(String) });
  });

  it('GET /jobs/idle answers 200 {idle: true} when nothing runs, 408 while a download is slow, 200 once it finishes', async () => {
    const quiet = await control('GET', '/jobs/idle');
    expect(quiet.status).toBe(200);
    expect(quiet.body).toEqual({ data: { idle: true } });

    await startSlowJob();
    const started = Date.now();
    const busy = await control<DetailJson>('GET', '/jobs/idle?timeout_ms=50');
    expect(busy.status).toBe(408);
    expect(busy.body).toEqual({ detail: expect.stringContaining('50 ms') });
    expect(Date.now() - started).toBeLessThan(2000);

    const running = await jobs('?status=running');
    expect(running).toHaveLength(1);
    expect(running[0]).toMatchObject({ kind: 'media.import', organization: 'acme', status: 'running', finished: null });

    const waiting = control('GET', '/jobs/idle?timeout_ms=10000');
    origin.release();
    const idle = await waiting;
    expect(idle.status).toBe(200);
    expect(idle.body).toEqual({ data: { idle: true } });
    const [download] = await jobs('?kind=media.import&limit=1');
    expect(download).toMatchObject({ id: running[0]!.id, status: 'succeeded', error: null });
  });

  it('GET /jobs/idle?deliveries=1 also waits for webhook deliveries in flight', async () => {
    const draft = required(
      acme.posts.find((p) => p.status === 'draft' && p.deleted === null),
      'acme draft post',
    );
    const slowInbox = await control('PUT', '/inboxes/demo/config', { delay_ms: 400 });
    expect(slowInbox.status).toBe(200);
    expect((await dashboard(`acme/posts/${draft.slug}/publish`)).status).toBe(200);

    // No job runs, so a plain wait is over at once; the delivery to the slow inbox is not.
    expect((await control('GET', '/jobs/idle?timeout_ms=100')).status).toBe(200);
    expect((await control('GET', '/jobs/idle?timeout_ms=100&deliveries=1')).status).toBe(408);

    const idle = await control('GET', '/jobs/idle?deliveries=1&timeout_ms=10000');
    expect(idle.status).toBe(200);
    expect(idle.body).toEqual({ data: { idle: true } });
    const list = await control<{ data: Delivery[] }>('GET', '/deliveries');
    expect(list.body.data.length).toBeGreaterThan(0);
    expect(list.body.data.every((d) => d.state === 'succeeded')).toBe(true);
  });

  it.each(['?timeout_ms=0', '?timeout_ms=120001', '?deliveries=2', '?deliveries=yes'])('GET /jobs/idle%s → 400', async (query) => {
    const res = await control<DetailJson>('GET', `/jobs/idle${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: expect.any(String) });
  });
});

describe('clock', () => {
  const FUTURE = '2029-06-01T12:00:00.000Z';

  it('is real time by default', async () => {
    const state = await clock();
    expect(state.mode).toBe('real');
    expect(state.offset_ms).toBe(0);
    expect(Math.abs(Date.parse(state.now) - Date.now())).toBeLessThan(5000);
  });

  it('PUT {now, freeze: true} stands still at that time, and new writes take their timestamps from it', async () => {
    const set = await control<{ data: ClockState }>('PUT', '/clock', { now: '2029-06-01T14:00:00+02:00', freeze: true });
    expect(set.status).toBe(200);
    expect(set.body.data).toMatchObject({ now: FUTURE, mode: 'frozen' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await clock()).now).toBe(FUTURE);

    const slug = unique('frozen-post');
    expect((await createPost('acme', { title: unique('Frozen'), slug, status: 'published' })).status).toBe(202);
    await settle();
    const post = await readPost(slug);
    expect(post.status).toBe(200);
    expect(post.body.data.created).toBe(FUTURE);
    expect(post.body.data.published).toBe(FUTURE);
    const [job] = await jobs('?kind=post.create&limit=1');
    expect(job).toMatchObject({ created: FUTURE, finished: FUTURE });
  });

  it('PUT {now} without freeze jumps there and time runs on (offset mode)', async () => {
    const set = await control<{ data: ClockState }>('PUT', '/clock', { now: FUTURE });
    expect(set.status).toBe(200);
    expect(set.body.data.mode).toBe('offset');
    expect(Date.parse(set.body.data.now)).toBeGreaterThanOrEqual(Date.parse(FUTURE));
    expect(Date.parse(set.body.data.now) - Date.parse(FUTURE)).toBeLessThan(1000);
    expect(Math.abs(set.body.data.offset_ms - (Date.parse(FUTURE) - Date.now()))).toBeLessThan(1000);
    const first = Date.parse(set.body.data.now);
    expect(await eventually(async () => Date.parse((await clock()).now) > first, 2000)).toBe(true);
    expect((await clock()).mode).toBe('offset');
  });

  it('POST /clock/advance moves a frozen clock by days, hours, minutes, seconds and ms', async () => {
    await control('PUT', '/clock', { now: FUTURE, freeze: true });
    const advanced = await control<{ data: ClockState }>('POST', '/clock/advance', { days: 1, hours: 2, minutes: 3, seconds: 4, ms: 5 });
    expect(advanced.status).toBe(200);
    const step = 86_400_000 + 2 * 3_600_000 + 3 * 60_000 + 4_000 + 5;
    expect(advanced.body.data).toMatchObject({ mode: 'frozen', now: new Date(Date.parse(FUTURE) + step).toISOString() });
    const fractional = await control<{ data: ClockState }>('POST', '/clock/advance', { seconds: 1.5 });
    expect(fractional.body.data.now).toBe(new Date(Date.parse(FUTURE) + step + 1500).toISOString());
    const nothing = await control<{ data: ClockState }>('POST', '/clock/advance', {});
    expect(nothing.status).toBe(200);
    expect(nothing.body.data.now).toBe(fractional.body.data.now);
  });

  it('POST /clock/advance adds to the offset of a running clock; DELETE /clock is real time again', async () => {
    const set = await control<{ data: ClockState }>('PUT', '/clock', { now: FUTURE });
    const advanced = await control<{ data: ClockState }>('POST', '/clock/advance', { hours: 1 });
    expect(advanced.status).toBe(200);
    expect(advanced.body.data.mode).toBe('offset');
    expect(advanced.body.data.offset_ms).toBe(set.body.data.offset_ms + 3_600_000);

    const reset = await control<{ data: ClockState }>('DELETE', '/clock');
    expect(reset.status).toBe(200);
    expect(reset.body.data).toMatchObject({ mode: 'real', offset_ms: 0 });
    expect(Math.abs(Date.parse(reset.body.data.now) - Date.now())).toBeLessThan(5000);
  });

  it.each<[string, string, unknown]>([
    ['PUT', '/clock', {}],
    ['PUT', '/clock', { now: 'next tuesday' }],
    ['PUT', '/clock', { now: '2029-06-01' }],
    ['PUT', '/clock', { now: FUTURE, freeze: 'yes' }],
    ['PUT', '/clock', { now: FUTURE, speed: 2 }],
    ['PUT', '/clock', '{"now": '],
    ['POST', '/clock/advance', { days: -1 }],
    ['POST', '/clock/advance', { ms: 1.5 }],
    ['POST', '/clock/advance', { hours: '2' }],
    ['POST', '/clock/advance', { weeks: 1 }],
  ])('%s %s %j → 400 and the clock is unchanged', async (method, path, body) => {
    const res = await control<DetailJson>(method, path, body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: expect.any(String) });
    expect(await clock()).toMatchObject({ mode: 'real', offset_ms: 0 });
  });

  describe('passing a scheduled time', () => {
    const scheduledPost = (): Post =>
      required(
        acme.posts.find((p) => p.status === 'scheduled' && p.scheduled !== null && p.deleted === null),
        'scheduled acme post',
      );
    const scheduledPage = (): Page =>
      required(
        acme.pages.find((p) => p.scheduled !== null && p.draft_version !== null && p.published_version !== null && p.page_type !== null),
        'acme page with a scheduled change',
      );
    const CAUSE = { kind: 'control', action: 'scheduled publication' } as const;

    it('publishes the scheduled post at its scheduled time and fires its webhooks', async () => {
      const post = scheduledPost();
      const at = Date.parse(post.scheduled!);
      await control('PUT', '/clock', { now: new Date(at - 60_000).toISOString(), freeze: true });
      expect((await readPost(post.slug)).body.data.status).toBe('scheduled');
      expect(await publicSlugs()).not.toContain(post.slug);

      const advanced = await control('POST', '/clock/advance', { minutes: 2 });
      expect(advanced.status).toBe(200);
      const read = await readPost(post.slug);
      expect(read.status).toBe(200);
      expect(read.body.data).toMatchObject({ status: 'published', published: new Date(at).toISOString() });
      expect(await publicSlugs()).toContain(post.slug);

      const list = await expectWebhooks(['post.published', 'post.all'], CAUSE);
      for (const d of list) expect(envelope(d).data).toEqual({ id: post.slug, _id: post.id });
      const inbox = await control<{ data: { requests: InboxRequest[] } }>('GET', '/inboxes/demo');
      const received = inbox.body.data.requests.map((r) => (r.json as { data: { id: string }; webhook: { event: string } }).data.id);
      expect(received).toContain(post.slug);
    });

    it('makes the scheduled draft of a page its live version, which non-preview reads then show', async () => {
      const page = scheduledPage();
      const locale = acme.default_locale!;
      const draftFields = (page.draft_version!.fields[locale] ?? {}) as FieldValues;
      const liveFields = (page.published_version!.fields[locale] ?? {}) as FieldValues;
      const key = required(
        Object.keys(draftFields).find((k) => typeof draftFields[k] === 'string' && draftFields[k] !== liveFields[k]),
        'text field that differs between the draft and the live version',
      );
      const at = Date.parse(page.scheduled!);
      await control('PUT', '/clock', { now: new Date(at - 1000).toISOString(), freeze: true });
      expect((await readPage(page)).body.data.fields[key]).toBe(liveFields[key]);

      await control('POST', '/clock/advance', { seconds: 2 });
      const live = await readPage(page);
      expect(live.status).toBe(200);
      expect(live.body.data.fields[key]).toBe(draftFields[key]);
      expect(live.body.data).toMatchObject({ status: 'published', scheduled: null, updated: new Date(at).toISOString() });
      const preview = await readPage(page, true);
      expect(preview.body.data.fields[key]).toBe(draftFields[key]);

      const list = await expectWebhooks(['page.published', 'page.all'], CAUSE);
      for (const d of list)
        expect(envelope(d).data).toMatchObject({ id: page.slug, service_id: page.id, status: 'published', scheduled: null });
    });

    it('a running clock publishes on the scheduler tick, with no further clock call', async () => {
      const post = scheduledPost();
      await control('PUT', '/clock', { now: new Date(Date.parse(post.scheduled!) - 300).toISOString() });
      expect((await readPost(post.slug)).body.data.status).toBe('scheduled');
      expect(await eventually(async () => (await readPost(post.slug)).body.data.status === 'published', 4000)).toBe(true);
    });
  });
});

describe('state', () => {
  const publishedSlugOf = async (title: string): Promise<string> => {
    const slug = unique('state-post');
    expect((await createPost('acme', { title, slug, status: 'published' })).status).toBe(202);
    await settle();
    expect((await readPost(slug)).status).toBe(200);
    return slug;
  };

  describe('snapshots', () => {
    it('POST creates (201), GET lists, restore (204) brings back the state of the snapshot, DELETE forgets (204)', async () => {
      const name = unique('snap');
      const created = await control<{ data: SnapshotJson }>('POST', '/snapshots', { name });
      expect(created.status).toBe(201);
      expect(created.body.data).toEqual({ name, created: expect.any(String) });
      expect(Date.parse(created.body.data.created)).not.toBeNaN();
      const list = await control<{ data: SnapshotJson[] }>('GET', '/snapshots');
      expect(list.body.data).toContainEqual(created.body.data);

      const slug = await publishedSlugOf(unique('After snapshot'));
      const started = performance.now();
      const restored = await control('POST', `/snapshots/${name}/restore`);
      const elapsed = performance.now() - started;
      expect(restored.status).toBe(204);
      expect(restored.text).toBe('');
      expect(elapsed).toBeLessThan(1000);
      expect((await readPost(slug)).status).toBe(404);
      const onDisk = await api.readDataFile();
      expect(org(onDisk, 'acme').posts.some((p) => p.slug === slug)).toBe(false);

      // The snapshot is a copy: writing after a restore does not change it.
      const again = await publishedSlugOf(unique('After restore'));
      expect((await control('POST', `/snapshots/${name}/restore`)).status).toBe(204);
      expect((await readPost(again)).status).toBe(404);

      expect((await control('DELETE', `/snapshots/${name}`)).status).toBe(204);
      const after = await control<{ data: SnapshotJson[] }>('GET', '/snapshots');
      expect(after.body.data.map((s) => s.name)).not.toContain(name);
      expect((await control('POST', `/snapshots/${name}/restore`)).status).toBe(404);
      expect((await control('DELETE', `/snapshots/${name}`)).status).toBe(404);
    });

    it.each<[string, string, unknown]>([
      ['POST', '/snapshots', { name: 'has space' }],
      ['POST', '/snapshots', { name: '' }],
      ['POST', '/snapshots', { name: 'x'.repeat(101) }],
      ['POST', '/snapshots', {}],
      ['POST', '/snapshots', { name: 'ok', extra: true }],
      ['POST', '/snapshots/bad%20name/restore', undefined],
      ['DELETE', '/snapshots/bad%20name', undefined],
    ])('%s %s %j → 400', async (method, path, body) => {
      const res = await control<DetailJson>(method, path, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ detail: expect.any(String) });
    });

    it('404 for an unknown snapshot', async () => {
      const name = unique('never-saved');
      expect((await control<DetailJson>('POST', `/snapshots/${name}/restore`)).body).toEqual({ detail: expect.stringContaining(name) });
      expect((await control('DELETE', `/snapshots/${name}`)).status).toBe(404);
    });
  });

  describe('reset', () => {
    it('POST /reset goes back to the fixture in well under a second', async () => {
      const slug = await publishedSlugOf(unique('Before reset'));
      const started = performance.now();
      const res = await control<{ data: { fixture: string } }>('POST', '/reset');
      const elapsed = performance.now() - started;
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: { fixture: fixtureDir } });
      expect(elapsed).toBeLessThan(1000);
      expect((await readPost(slug)).status).toBe(404);
      const onDisk = await api.readDataFile();
      expect(org(onDisk, 'acme').posts.map((p) => p.slug)).toEqual(acme.posts.map((p) => p.slug));
    });

    it('drops the jobs still queued and records them as failed; they never run', async () => {
      // Downloads run beside the write line, four at a time: a fifth waits its turn, queued.
      for (let i = 0; i < 4; i++) await startSlowJob();
      const queuedSlug = unique('queued-image');
      const queuedPath = `/${unique('never')}.jpg`;
      const created = await createPost('acme', {
        title: unique('Queued'),
        slug: queuedSlug,
        status: 'published',
        featured_image: origin.url + queuedPath,
      });
      expect(created.status).toBe(202);
      let queued: JobRecord | undefined;
      await expect.poll(async () => (queued = (await jobs('?status=queued&kind=media.import'))[0])).toBeDefined();

      expect((await control('POST', '/reset')).status).toBe(200);
      const dropped = (await jobs('?kind=media.import')).find((j) => j.id === queued!.id);
      expect(dropped).toMatchObject({ status: 'failed', error: expect.stringMatching(/reset/), finished: expect.any(String) });

      origin.release();
      await settle();
      expect(origin.wasRequested(queuedPath)).toBe(false);
      expect((await jobs()).find((j) => j.id === queued!.id)?.status).toBe('failed');
    });

    it('a slow download does not hold back later writes', async () => {
      await startSlowJob();
      const slug = unique('not-held');
      expect((await createPost('acme', { title: unique('Not held'), slug, status: 'published' })).status).toBe(202);
      await expect.poll(async () => (await readPost(slug)).status, { timeout: 5000 }).toBe(200);
      expect(await jobs('?status=running&kind=media.import')).toHaveLength(1);
      origin.release();
      await settle();
    });
  });

  describe('fixtures/load', () => {
    it('replaces the state by another fixture: its tokens work, the demo tokens do not, and a reset stays on it', async () => {
      const pages = await loadFixture(PAGES_FIXTURE);
      const pagesAcme = org(pages, 'acme');
      const pageType = required(pagesAcme.page_types[0], 'page type in test/fixtures/pages').key;
      try {
        const res = await control<{ data: { fixture: string } }>('POST', '/fixtures/load', { fixture: PAGES_FIXTURE });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ data: { fixture: PAGES_FIXTURE } });
        expect((await api.get(`/pages/${pageType}/`, { token: pagesAcme.tokens.read })).status).toBe(200);
        expect((await api.get('/posts/', { token: tokens('acme').read })).status).toBe(401);

        expect((await control<{ data: { fixture: string } }>('POST', '/reset')).body).toEqual({ data: { fixture: PAGES_FIXTURE } });
        expect((await api.get(`/pages/${pageType}/`, { token: pagesAcme.tokens.read })).status).toBe(200);
        expect((await api.get('/posts/', { token: tokens('acme').read })).status).toBe(401);
      } finally {
        await control('POST', '/fixtures/load', { fixture: fixtureDir });
      }
      expect((await api.get('/posts/', { token: tokens('acme').read })).status).toBe(200);
    });

    it('loads a built-in fixture by name', async () => {
      const res = await control<{ data: { fixture: string } }>('POST', '/fixtures/load', { fixture: 'demo' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: { fixture: resolveFixture('demo') } });
    });

    it('404 for a folder without data.json; 400 for a body without a fixture; the state is unchanged', async () => {
      const missing = await control<DetailJson>('POST', '/fixtures/load', { fixture: FIXTURES_FOLDER });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ detail: expect.stringContaining('data.json') });
      for (const body of [{}, { fixture: '' }, { fixture: 3 }, { fixture: 'demo', extra: 1 }]) {
        const res = await control<DetailJson>('POST', '/fixtures/load', body);
        expect(res.status, JSON.stringify(body)).toBe(400);
      }
      expect((await api.get('/posts/', { token: tokens('acme').read })).status).toBe(200);
    });

    it('400 for a fixture whose data.json is broken; the state is unchanged', async () => {
      const broken = await mkdtemp(join(tmpdir(), 'cms-emulator-broken-fixture-'));
      try {
        await writeFile(join(broken, 'data.json'), JSON.stringify({ format_version: 1, organizations: 'none' }));
        const res = await control<DetailJson>('POST', '/fixtures/load', { fixture: broken });
        expect(res.status).toBe(400);
        expect(res.body.detail).toMatch(/organizations/);
        expect((await api.get('/posts/', { token: tokens('acme').read })).status).toBe(200);
      } finally {
        await rm(broken, { recursive: true, force: true });
      }
    });
  });

  describe('export and import', () => {
    it('GET /state returns the whole data file, writes included', async () => {
      const slug = await publishedSlugOf(unique('Exported'));
      const res = await control<StoreData>('GET', '/state');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-disposition')).toMatch(/attachment/);
      expect(res.body).toEqual(await api.readDataFile());
      expect(org(res.body, 'acme').posts.some((p) => p.slug === slug)).toBe(true);
      expect(res.body.organizations.map((o) => o.slug)).toEqual(demo.organizations.map((o) => o.slug));
    });

    it('PUT /state imports a modified copy (204), which the API and the data file then show', async () => {
      const exported = (await control<StoreData>('GET', '/state')).body;
      const post = required(
        org(exported, 'acme').posts.find((p) => p.status === 'published' && p.deleted === null),
        'published acme post',
      );
      const title = unique('Imported title');
      post.title = title;
      const res = await control('PUT', '/state', exported);
      expect(res.status).toBe(204);
      const read = await readPost(post.slug);
      expect(read.body.data.title).toBe(title);
      expect(org(await api.readDataFile(), 'acme').posts.find((p) => p.id === post.id)?.title).toBe(title);
    });

    it('PUT /state refuses a broken reference with 400 naming its path; the state is unchanged', async () => {
      const before = (await control<StoreData>('GET', '/state')).body;
      const broken = structuredClone(before);
      const acmeIndex = broken.organizations.findIndex((o) => o.slug === 'acme');
      const posts = broken.organizations[acmeIndex]!.posts;
      const index = posts.findIndex((p) => p.deleted === null);
      const author = unique('ghost-author');
      posts[index]!.author = author;
      const res = await control<DetailJson>('PUT', '/state', broken);
      expect(res.status).toBe(400);
      expect(res.body.detail).toContain(`organizations[${acmeIndex}].posts[${index}].author`);
      expect(res.body.detail).toContain(author);
      expect((await control<StoreData>('GET', '/state')).body).toEqual(before);
      expect(await api.readDataFile()).toEqual(before);
    });

    it.each<[string, unknown]>([
      ['an empty object', {}],
      ['an array', []],
      ['malformed JSON', '{"organizations": ['],
    ])('PUT /state with %s → 400', async (_what, body) => {
      const res = await control<DetailJson>('PUT', '/state', body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ detail: expect.any(String) });
      expect((await api.get('/posts/', { token: tokens('acme').read })).status).toBe(200);
    });
  });
});

describe('dashboard actions', () => {
  const draftPost = () =>
    required(
      acme.posts.find((p) => p.status === 'draft' && p.deleted === null),
      'acme draft post',
    );
  const publishedPost = () =>
    required(
      acme.posts.find((p) => p.status === 'published' && p.deleted === null),
      'published acme post',
    );
  const dashboardCause = (action: string) => ({ kind: 'control', action: `dashboard ${action}` }) as const;

  /** The exported state is still a valid data file (dashboard actions keep its rules). */
  async function expectImportable(): Promise<void> {
    const exported = (await control<StoreData>('GET', '/state')).body;
    const res = await control<DetailJson>('PUT', '/state', exported);
    expect(res.status, res.text).toBe(204);
  }

  describe('posts', () => {
    it('publish: a draft becomes published and readable; post.published fires', async () => {
      const post = draftPost();
      expect(await publicSlugs()).not.toContain(post.slug);
      const res = await dashboard<{ data: Post }>(`acme/posts/${post.slug}/publish`);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ slug: post.slug, status: 'published', scheduled: null, published: expect.any(String) });
      const read = await readPost(post.slug);
      expect(read.status).toBe(200);
      expect(read.body.data.status).toBe('published');
      expect(await publicSlugs()).toContain(post.slug);
      const list = await expectWebhooks(['post.published', 'post.all'], dashboardCause('publish'));
      for (const d of list) expect(envelope(d).data).toEqual({ id: post.slug, _id: post.id });
      await expectImportable();
    });

    it('unpublish: a published post leaves public reads; post.draft and post.delete fire', async () => {
      const post = publishedPost();
      const res = await dashboard<{ data: Post }>(`acme/posts/${post.slug}/unpublish`);
      expect(res.status).toBe(200);
      expect(res.body.data.status).toBe('draft');
      expect((await readPost(post.slug)).body.data.status).toBe('draft');
      expect(await publicSlugs()).not.toContain(post.slug);
      await expectWebhooks(['post.draft', 'post.delete', 'post.all'], dashboardCause('unpublish'));
      await expectImportable();
    });

    it('unpublish a draft → 409, nothing changes and nothing fires', async () => {
      const post = draftPost();
      const res = await dashboard<DetailJson>(`acme/posts/${post.slug}/unpublish`);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ detail: expect.any(String) });
      expect(org(await api.readDataFile(), 'acme').posts.find((p) => p.id === post.id)).toEqual(post);
      expect(await deliveries()).toEqual([]);
    });

    it('schedule {at}: the post is scheduled at that instant (UTC), leaves public reads, and publishes when the clock passes it', async () => {
      const post = publishedPost();
      const res = await dashboard<{ data: Post }>(`acme/posts/${post.slug}/schedule`, { at: '2031-01-01T10:00:00+02:00' });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ status: 'scheduled', scheduled: '2031-01-01T08:00:00.000Z' });
      expect((await readPost(post.slug)).body.data.status).toBe('scheduled');
      expect(await publicSlugs()).not.toContain(post.slug);
      await expectWebhooks(['post.draft', 'post.delete', 'post.all'], dashboardCause('schedule'));
      await expectImportable();

      await control('PUT', '/clock', { now: '2031-01-01T08:00:01Z', freeze: true });
      expect((await readPost(post.slug)).body.data?.status).toBe('published');
    });

    it.each<[string, unknown]>([
      ['no body', undefined],
      ['no at', {}],
      ['a bad at', { at: 'tomorrow' }],
      ['a date without time', { at: '2031-01-01' }],
      ['an extra key', { at: '2031-01-01T08:00:00Z', when: 'now' }],
    ])('schedule with %s → 400', async (_what, body) => {
      const post = publishedPost();
      const res = await dashboard<DetailJson>(`acme/posts/${post.slug}/schedule`, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ detail: expect.any(String) });
      expect((await readPost(post.slug)).body.data.status).toBe('published');
    });

    it('delete: the post is gone from reads and further actions; post.delete fires', async () => {
      const post = publishedPost();
      const res = await dashboard<{ data: Post }>(`acme/posts/${post.slug}/delete`);
      expect(res.status).toBe(200);
      expect(res.body.data.deleted).toEqual(expect.any(String));
      expect((await readPost(post.slug)).status).toBe(404);
      await expectWebhooks(['post.delete', 'post.all'], dashboardCause('delete'));
      expect(org(await api.readDataFile(), 'acme').posts.find((p) => p.id === post.id)?.deleted).toEqual(expect.any(String));
      expect((await dashboard(`acme/posts/${post.slug}/publish`)).status).toBe(404);
      await expectImportable();
    });

    it('404 for an unknown organization or post', async () => {
      const post = publishedPost();
      const noOrg = await dashboard<DetailJson>(`${unique('no-org')}/posts/${post.slug}/publish`);
      expect(noOrg.status).toBe(404);
      expect(noOrg.body).toEqual({ detail: expect.any(String) });
      // A post of another organization is not found either.
      const northwindOnly = required(
        org(demo, 'northwind').posts.find((p) => !acme.posts.some((a) => a.slug === p.slug)),
        'northwind post whose slug acme lacks',
      );
      expect((await dashboard(`acme/posts/${northwindOnly.slug}/publish`)).status).toBe(404);
      expect((await dashboard(`acme/posts/${unique('no-post')}/delete`)).status).toBe(404);
    });
  });

  describe('pages', () => {
    const draftOnlyPage = () =>
      required(
        acme.pages.find((p) => p.published_version === null && p.draft_version !== null && p.scheduled === null && p.page_type !== null),
        'acme draft-only page',
      );
    const livePage = () =>
      required(
        acme.pages.find((p) => p.published_version !== null && p.draft_version === null && p.page_type !== null),
        'acme live page without a draft',
      );

    it('publish: a draft-only page goes live; page.published fires', async () => {
      const page = draftOnlyPage();
      expect((await readPage(page)).status).toBe(404);
      const res = await dashboard<{ data: Page }>(`acme/pages/${page.slug}/publish`);
      expect(res.status).toBe(200);
      const read = await readPage(page);
      expect(read.status).toBe(200);
      expect(read.body.data).toMatchObject({ slug: page.slug, status: 'published', published: expect.any(String) });
      const list = await expectWebhooks(['page.published', 'page.all'], dashboardCause('publish'));
      for (const d of list) expect(envelope(d).data).toMatchObject({ id: page.slug, service_id: page.id, status: 'published' });
      await expectImportable();
    });

    it('unpublish: a live page leaves public reads (its content stays as a draft); page.unpublished fires', async () => {
      const page = livePage();
      const res = await dashboard<{ data: Page }>(`acme/pages/${page.slug}/unpublish`);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ published_version: null, published: null });
      expect((await readPage(page)).status).toBe(404);
      expect((await readPage(page, true)).status).toBe(200);
      await expectWebhooks(['page.unpublished', 'page.all'], dashboardCause('unpublish'));
      await expectImportable();
    });

    it('unpublish a draft-only page → 409', async () => {
      const res = await dashboard<DetailJson>(`acme/pages/${draftOnlyPage().slug}/unpublish`);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ detail: expect.any(String) });
      expect(await deliveries()).toEqual([]);
    });

    it('schedule {at}: the page gets a scheduled change (preview reads show the schedule); page.draft fires', async () => {
      const page = livePage();
      const res = await dashboard<{ data: Page }>(`acme/pages/${page.slug}/schedule`, { at: '2031-02-01T09:00:00Z' });
      expect(res.status).toBe(200);
      expect(res.body.data.scheduled).toBe('2031-02-01T09:00:00.000Z');
      expect((await readPage(page)).status).toBe(200);
      expect((await readPage(page, true)).body.data).toMatchObject({ scheduled: '2031-02-01T09:00:00.000Z' });
      await expectWebhooks(['page.draft', 'page.all'], dashboardCause('schedule'));
      await expectImportable();
      expect((await dashboard<DetailJson>(`acme/pages/${page.slug}/schedule`, { at: 'soon' })).status).toBe(400);
      expect((await dashboard<DetailJson>(`acme/pages/${page.slug}/schedule`)).status).toBe(400);
    });

    it('delete: the page is gone from reads and further actions; page.delete fires', async () => {
      const page = livePage();
      const res = await dashboard<{ data: Page }>(`acme/pages/${page.slug}/delete`);
      expect(res.status).toBe(200);
      expect((await readPage(page)).status).toBe(404);
      expect((await readPage(page, true)).status).toBe(404);
      const list = await expectWebhooks(['page.delete', 'page.all'], dashboardCause('delete'));
      for (const d of list) expect(envelope(d).data).toMatchObject({ id: page.slug, status: 'deleted' });
      expect((await dashboard(`acme/pages/${page.slug}/publish`)).status).toBe(404);
      await expectImportable();
    });

    it('deleting a page removes the references other pages hold to it (after idle)', async () => {
      // A page that another page references through a reference field to its page type.
      let found: { target: Page; holder: Page; field: string } | undefined;
      for (const holder of acme.pages) {
        const defs = acme.page_types.find((t) => t.key === holder.page_type)?.fields ?? [];
        for (const def of defs) {
          if (def.type !== 'reference' || !('page_type' in def.to)) continue;
          for (const values of localeValues(acme, holder.published_version?.fields ?? {})) {
            const refs = ([] as unknown[]).concat(values[def.key] ?? []);
            const target = acme.pages.find((p) => p.page_type === (def.to as { page_type: string }).page_type && refs.includes(p.slug));
            if (target && target.id !== holder.id) found ??= { target, holder, field: def.key };
          }
        }
      }
      const { target, holder, field } = required(found, 'page referenced by another page');
      expect((await dashboard(`acme/pages/${target.slug}/delete`)).status).toBe(200);
      await settle();
      const stored = required(
        org(await api.readDataFile(), 'acme').pages.find((p) => p.id === holder.id),
        'referring page',
      );
      for (const values of localeValues(acme, stored.published_version?.fields ?? {})) {
        expect(([] as unknown[]).concat(values[field] ?? [])).not.toContain(target.slug);
      }
    });

    it('404 for an unknown page or organization', async () => {
      expect((await dashboard<DetailJson>(`acme/pages/${unique('no-page')}/publish`)).status).toBe(404);
      expect((await dashboard<DetailJson>(`${unique('no-org')}/pages/${livePage().slug}/publish`)).status).toBe(404);
    });
  });

  describe('collection items', () => {
    const itemWith = (status: 'draft' | 'published') => {
      for (const collection of acme.collections) {
        const item = collection.items.find((i) => i.status === status && i.deleted === null);
        if (item) return { collection: collection.key, item };
      }
      throw new Error(`the demo fixture has no ${status} acme item`);
    };

    it('publish: a draft item becomes readable; collectionitem.published fires', async () => {
      const { collection, item } = itemWith('draft');
      expect((await readItem(collection, item.id)).status).toBe(404);
      const res = await dashboard<{ data: { status: string } }>(`acme/collections/${collection}/items/${item.id}/publish`);
      expect(res.status).toBe(200);
      expect(res.body.data.status).toBe('published');
      expect((await readItem(collection, item.id)).status).toBe(200);
      const list = await expectWebhooks(['collectionitem.published', 'collectionitem.all'], dashboardCause('publish'));
      for (const d of list) expect(envelope(d).data).toMatchObject({ id: collection, status: 'published' });
      await expectImportable();
    });

    it('unpublish: a published item leaves public reads; collectionitem.unpublished fires; a draft → 409', async () => {
      const { collection, item } = itemWith('published');
      const res = await dashboard<{ data: { status: string } }>(`acme/collections/${collection}/items/${item.id}/unpublish`);
      expect(res.status).toBe(200);
      expect((await readItem(collection, item.id)).status).toBe(404);
      expect((await readItem(collection, item.id, true)).status).toBe(200);
      await expectWebhooks(['collectionitem.unpublished', 'collectionitem.all'], dashboardCause('unpublish'));

      const again = await dashboard<DetailJson>(`acme/collections/${collection}/items/${item.id}/unpublish`);
      expect(again.status).toBe(409);
      expect(again.body).toEqual({ detail: expect.any(String) });
    });

    it('delete: the item is gone, collectionitem.delete fires, and references to it are cleaned up (after idle)', async () => {
      // An item that items of another collection reference.
      let found: { collection: string; id: number; holders: { collection: string; id: number; field: string }[] } | undefined;
      for (const target of acme.collections) {
        for (const item of target.items.filter((i) => i.deleted === null)) {
          const holders = acme.collections.flatMap((c) =>
            c.fields
              .filter((f) => f.type === 'reference' && 'collection' in f.to && f.to.collection === target.key)
              .flatMap((f) =>
                c.items
                  .filter((h) => localeValues(acme, h.fields).some((v) => ([] as unknown[]).concat(v[f.key] ?? []).includes(item.id)))
                  .map((h) => ({ collection: c.key, id: h.id, field: f.key })),
              ),
          );
          if (holders.length > 0) found ??= { collection: target.key, id: item.id, holders };
        }
      }
      const target = required(found, 'item referenced by other items');

      const res = await dashboard<{ data: { deleted: string | null } }>(`acme/collections/${target.collection}/items/${target.id}/delete`);
      expect(res.status).toBe(200);
      expect(res.body.data.deleted).toEqual(expect.any(String));
      expect((await readItem(target.collection, target.id, true)).status).toBe(404);
      const list = await expectWebhooks(['collectionitem.delete', 'collectionitem.all'], dashboardCause('delete'));
      for (const d of list) expect(envelope(d).data).toMatchObject({ id: target.collection, status: 'deleted' });

      const [cleanup] = await jobs('?kind=references.cleanup&limit=1');
      expect(cleanup).toMatchObject({ status: 'succeeded', organization: 'acme', cause: dashboardCause('delete') });
      const stored = org(await api.readDataFile(), 'acme');
      for (const holder of target.holders) {
        const item = stored.collections.find((c) => c.key === holder.collection)?.items.find((i) => i.id === holder.id);
        for (const values of localeValues(acme, required(item, 'referring item').fields)) {
          expect(([] as unknown[]).concat(values[holder.field] ?? [])).not.toContain(target.id);
        }
      }
      expect((await dashboard(`acme/collections/${target.collection}/items/${target.id}/publish`)).status).toBe(404);
      await expectImportable();
    });

    it('404 for an unknown organization, collection or item', async () => {
      const { collection, item } = itemWith('published');
      expect((await dashboard<DetailJson>(`${unique('no-org')}/collections/${collection}/items/${item.id}/unpublish`)).status).toBe(404);
      expect((await dashboard<DetailJson>(`acme/collections/${unique('no-collection')}/items/${item.id}/unpublish`)).status).toBe(404);
      const maxId = Math.max(...acme.collections.flatMap((c) => c.items.map((i) => i.id)));
      expect((await dashboard<DetailJson>(`acme/collections/${collection}/items/${maxId + 1000}/unpublish`)).status).toBe(404);
      // An item exists in one collection only.
      const other = required(
        acme.collections.find((c) => c.key !== collection),
        'second acme collection',
      );
      expect((await dashboard<DetailJson>(`acme/collections/${other.key}/items/${item.id}/unpublish`)).status).toBe(404);
    });
  });

  it.each([
    ['a post', () => `acme/posts/${publishedPost().slug}/archive`],
    ['a page', () => `acme/pages/${required(acme.pages[0], 'acme page').slug}/archive`],
    [
      'an item (items cannot be scheduled)',
      () => `acme/collections/${acme.collections[0]!.key}/items/${acme.collections[0]!.items[0]!.id}/schedule`,
    ],
  ])('404 for an unknown action on %s', async (_what, path) => {
    const res = await dashboard<DetailJson>(path());
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: expect.any(String) });
  });
});
