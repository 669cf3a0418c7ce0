/**
 * Webhooks over real HTTP (spec: Events; docs/webhooks.md: configuration, the table of which
 * change fires which kinds, payloads; docs/control-api.md: deliveries and inboxes).
 *
 * Receivers are real `node:http` servers on port 0 (a main one with one path per webhook, an
 * `alt` one for edited replays, and a closed port for a dead receiver). Their URLs only exist once
 * they listen, so the fixture test/fixtures/webhooks names them with placeholders (`RECEIVER_ALL`
 * → `http://127.0.0.1:<port>/all`) and a temporary copy with the real URLs seeds the emulator.
 *
 * Fixture: org `acme` (locales en/es, default en; owner Maya Okafor) with page type `guide`, a
 * scheduled page, a page with a draft above its live version, a Single Page `about`, collections
 * `brands` and `products` (reference to brands, media field `clip`), posts `hello-world`
 * (published) and `coming-soon` (scheduled). Its webhooks: `specific` (every specific kind),
 * `all` (the three `.all` kinds), `secret` (custom header), `disabled`, `retry` ([50, 50]),
 * `slow` (timeout 200 ms), `dead` (closed port), `qa` (inbox:qa, collection items, [20, 20]).
 * Org `other` has its own two webhooks on the `other` receiver. Every test starts with the
 * deliveries of earlier tests finished and the receivers' records emptied; each writes its own
 * posts, pages and items (unique slugs and names) unless it names a fixture record.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEmulator } from '../../server/index.js';
import type { WebhookEvent } from '../../server/store/schema.js';
import type { Delivery } from '../../server/webhooks/delivery.js';
import { startTestEmulator, type ApiResponse, type TestEmulator } from '../helpers/emulator.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/webhooks', import.meta.url));

const ZONELESS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?$/;
const ISO_Z_FRACTION = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z$/;
const SPECIFIC_KINDS: WebhookEvent[] = [
  'page.published',
  'page.draft',
  'page.delete',
  'page.unpublished',
  'post.published',
  'post.draft',
  'post.delete',
  'collectionitem.published',
  'collectionitem.draft',
  'collectionitem.delete',
  'collectionitem.unpublished',
  'media.videouploaded',
];
const VIDEO_BYTES = Buffer.from('\u0000\u0000\u0000\u0018ftypmp42' + 'v'.repeat(1000), 'latin1');
const PDF_BYTES = Buffer.from('%PDF-1.4\n% not really a pdf\n%%EOF\n', 'latin1');

// ---------------------------------------------------------------------------------------------
// Receivers

interface Received {
  path: string;
  /** The URL the receiver was called at, as it saw it. */
  url: string;
  method: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: unknown;
  at: number;
}

/** How the receiver answers its next request on a path (default: 200 at once, a small JSON body). */
interface Plan {
  status?: number;
  delayMs?: number;
  body?: string;
}

interface Envelope {
  data: Record<string, unknown>;
  webhook: { event: string; target: string };
}

const RECEIVER_BODY = '{"ok":true}';

class Receiver {
  /** What arrived since the last reset. */
  requests: Received[] = [];
  /** Everything that ever arrived. */
  readonly everything: Received[] = [];
  private readonly plans = new Map<string, Plan[]>();
  private waiters: { path: string; resolve: (r: Received) => void }[] = [];

  private constructor(
    private readonly server: Server,
    readonly name: string,
    readonly base: string,
  ) {}

  static async start(name: string): Promise<Receiver> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const receiver = new Receiver(server, name, `http://127.0.0.1:${port}`);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const path = (req.url ?? '/').split('?')[0]!;
        if (req.method === 'GET' || req.method === 'HEAD') {
          const media = path.endsWith('.mp4') ? { type: 'video/mp4', bytes: VIDEO_BYTES } : { type: 'application/pdf', bytes: PDF_BYTES };
          if (!path.startsWith('/media/')) {
            res.writeHead(404).end();
            return;
          }
          res.writeHead(200, { 'content-type': media.type, 'content-length': String(media.bytes.length) });
          res.end(req.method === 'HEAD' ? undefined : media.bytes);
          return;
        }
        const body = Buffer.concat(chunks).toString('utf8');
        const received: Received = {
          path,
          url: `http://${req.headers.host ?? ''}${req.url ?? ''}`,
          method: req.method ?? '',
          headers: req.headers,
          body,
          json: parseJson(body),
          at: performance.now(),
        };
        receiver.requests.push(received);
        receiver.everything.push(received);
        for (const waiter of receiver.waiters.filter((w) => w.path === path)) waiter.resolve(received);
        receiver.waiters = receiver.waiters.filter((w) => w.path !== path);
        const plan = receiver.plans.get(path)?.shift() ?? {};
        res.on('error', () => undefined);
        const answer = () => {
          if (res.destroyed) return;
          res.writeHead(plan.status ?? 200, { 'content-type': 'application/json', 'x-receiver': `${name}${path}` });
          res.end(plan.body ?? RECEIVER_BODY);
        };
        if (plan.delayMs) setTimeout(answer, plan.delayMs);
        else answer();
      });
    });
    return receiver;
  }

  url(path: string): string {
    return this.base + path;
  }

  /** The next requests on `path` are answered by these plans, in order. */
  plan(path: string, ...plans: Plan[]): void {
    this.plans.set(path, [...(this.plans.get(path) ?? []), ...plans]);
  }

  at(path: string): Received[] {
    return this.requests.filter((r) => r.path === path);
  }

  /** Resolves with the next request that arrives on `path`. */
  next(path: string): Promise<Received> {
    return new Promise((resolve) => this.waiters.push({ path, resolve }));
  }

  reset(): void {
    this.requests = [];
    this.plans.clear();
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** A port nothing listens on: a server is started and closed again. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

// ---------------------------------------------------------------------------------------------
// Set-up

let receiver: Receiver;
let alt: Receiver;
let deadUrl: string;
let fixtureDir: string;
let api: TestEmulator;
let basePath: string;

const P = {
  specific: '/specific',
  all: '/all',
  secret: '/secret',
  disabled: '/disabled',
  retry: '/retry',
  slow: '/slow',
  other: '/other',
} as const;

/** A temporary copy of the fixture folder with every `RECEIVER_<NAME>` placeholder replaced. */
async function writeFixture(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cms-emulator-webhooks-fixture-'));
  const text = await readFile(join(FIXTURE, 'data.json'), 'utf8');
  const replaced = text.replace(/"RECEIVER_([A-Z]+)"/g, (_m, name: string) =>
    JSON.stringify(name === 'DEAD' ? deadUrl : receiver.url(`/${name.toLowerCase()}`)),
  );
  await writeFile(join(dir, 'data.json'), replaced);
  return dir;
}

beforeAll(async () => {
  receiver = await Receiver.start('main');
  alt = await Receiver.start('alt');
  deadUrl = `http://127.0.0.1:${await deadPort()}/hook`;
  fixtureDir = await writeFixture();
  api = await startTestEmulator(fixtureDir);
  basePath = new URL(api.apiUrl).pathname;
});

afterAll(async () => {
  await api?.close();
  await receiver?.close();
  await alt?.close();
  if (fixtureDir) await rm(fixtureDir, { recursive: true, force: true });
});

/** Every accepted write finished and every delivery it caused sent (no sleeps). */
async function settle(target: TestEmulator = api): Promise<void> {
  await target.idle();
  await target.emulator.webhooks.idle();
  // A write finished by a job may have queued another (media downloads): go round once more.
  await target.idle();
  await target.emulator.webhooks.idle();
}

beforeEach(async () => {
  await settle();
  receiver.reset();
  alt.reset();
});

// ---------------------------------------------------------------------------------------------
// Helpers

function tokensOf(org: string): { read: string; write: string } {
  const tokens = api.tokens[org];
  if (!tokens) throw new Error(`the webhooks fixture has no organization "${org}"`);
  return tokens;
}

interface WriteOptions {
  org?: string;
  query?: Record<string, string>;
}

async function write<T = unknown>(method: string, path: string, body?: unknown, options: WriteOptions = {}): Promise<ApiResponse<T>> {
  const res = await api.request<T>(method, path, {
    headerToken: tokensOf(options.org ?? 'acme').write,
    ...(body === undefined ? {} : { body }),
    ...(options.query ? { query: options.query } : {}),
  });
  return res;
}

/** A write the API accepts (202, or 204 for deletes). */
async function accepted(method: string, path: string, body?: unknown, options: WriteOptions = {}): Promise<void> {
  const res = await write(method, path, body, options);
  expect(res.status, `${method} ${path}: ${res.text}`).toBe(method === 'DELETE' ? 204 : 202);
}

interface ControlResponse<T> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

async function control<T = unknown>(method: string, path: string, body?: unknown, base = api.url): Promise<ControlResponse<T>> {
  const init: RequestInit = { method };
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
    init.headers = { 'content-type': 'application/json' };
  }
  const res = await fetch(`${base}/__emulator${path}`, init);
  const text = await res.text();
  const isJson = (res.headers.get('content-type') ?? '').includes('json');
  return { status: res.status, body: (isJson && text ? JSON.parse(text) : undefined) as T, text, headers: res.headers };
}

interface ListJson {
  data: Delivery[];
}
interface OneJson {
  data: Delivery;
}
interface DetailJson {
  detail: string;
}

async function deliveries(query: Record<string, string> = {}): Promise<Delivery[]> {
  const res = await control<ListJson>('GET', `/deliveries?${new URLSearchParams(query).toString()}`);
  expect(res.status, res.text).toBe(200);
  return res.body.data;
}

/** The newest delivery of a webhook (after settle(): the one the last change caused). */
async function latest(webhook: string, query: Record<string, string> = {}): Promise<Delivery> {
  const [delivery] = await deliveries({ webhook, limit: '1', ...query });
  if (!delivery) throw new Error(`no delivery of webhook "${webhook}"`);
  return delivery;
}

const envelope = (r: Received): Envelope => r.json as Envelope;
const eventsAt = (path: string, from: Receiver = receiver): string[] => from.at(path).map((r) => envelope(r).webhook.event);
const sortedEventsAt = (path: string): string[] => [...eventsAt(path)].sort();

/** The row's kinds reached the "specific" receiver, and its group's `.all` the "all" one, once. */
function expectFired(kinds: WebhookEvent[], all: 'post.all' | 'page.all' | 'collectionitem.all'): void {
  expect(sortedEventsAt(P.specific)).toEqual([...kinds].sort());
  expect(eventsAt(P.all)).toEqual([all]);
}

let counter = 0;
function unique(prefix: string): string {
  counter += 1;
  return `${prefix}-wh${counter}`;
}

function acmeStore() {
  const org = api.emulator.store.organization('acme');
  if (!org) throw new Error('no acme');
  return org;
}

function postRecord(slug: string) {
  const post = acmeStore().posts.find((p) => p.slug === slug);
  if (!post) throw new Error(`no post ${slug}`);
  return post;
}

function pageRecord(slug: string) {
  const page = acmeStore().pages.find((p) => p.slug === slug && p.deleted === null);
  if (!page) throw new Error(`no page ${slug}`);
  return page;
}

function itemByName(collection: string, name: string) {
  const items = acmeStore().collections.find((c) => c.key === collection)?.items ?? [];
  const item = items.find((i) => {
    const en = (i.fields as Record<string, Record<string, unknown> | undefined>)['en'];
    return en?.['name'] === name;
  });
  if (!item) throw new Error(`no ${collection} item named ${name}`);
  return item;
}

/** Creates a post, waits for it and its deliveries, and forgets what the receivers got. */
async function freshPost(status: 'draft' | 'published'): Promise<{ slug: string; id: number }> {
  const slug = unique('post');
  await accepted('POST', '/posts/', { title: `Post ${slug}`, slug, status });
  await settle();
  receiver.reset();
  return { slug, id: postRecord(slug).id };
}

async function freshPage(status: 'draft' | 'published'): Promise<string> {
  const slug = unique('page');
  await accepted('POST', '/pages/', {
    page_type: 'guide',
    title: `Page ${slug}`,
    slug,
    status,
    fields: { title: slug, hero: null, brand: null },
  });
  await settle();
  receiver.reset();
  return slug;
}

async function freshItem(status: 'draft' | 'published'): Promise<{ name: string; id: number }> {
  const name = unique('brand');
  await accepted('POST', '/content/', { key: 'brands', status, fields: { name } });
  await settle();
  receiver.reset();
  return { name, id: itemByName('brands', name).id };
}

/** Headers the HTTP client adds to any request: not part of what a delivery record shows. */
const TRANSPORT_HEADERS = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'accept',
  'accept-language',
  'accept-encoding',
  'sec-fetch-mode',
]);

/** What the receiver got, without transport headers, as a plain record. */
function applicationHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers)
      .filter(([name]) => !TRANSPORT_HEADERS.has(name))
      .map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : (value ?? '')]),
  );
}

const lowerKeys = (headers: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));

/** The receiver's headers for each header the delivery record says it sent. */
function expectSentHeaders(recorded: Record<string, string>, got: IncomingHttpHeaders): void {
  for (const [name, value] of Object.entries(recorded)) expect(got[name.toLowerCase()], name).toBe(value);
}

// ---------------------------------------------------------------------------------------------
// Configuration, request and envelope

describe('which webhooks are called', () => {
  it('a change reaches every enabled webhook subscribed to one of its kinds, and no other', async () => {
    await accepted('POST', '/posts/', { title: 'Fan out', slug: unique('fan'), status: 'published' });
    await settle();
    expect(eventsAt(P.specific)).toEqual(['post.published']);
    expect(eventsAt(P.all)).toEqual(['post.all']);
    expect(eventsAt(P.secret)).toEqual(['post.all']);
    expect(eventsAt(P.retry)).toEqual(['post.all']);
    expect(eventsAt(P.slow)).toEqual(['post.all']);
    expect(eventsAt(P.disabled)).toEqual([]);
    expect(eventsAt(P.other)).toEqual([]);
    expect(receiver.requests).toHaveLength(5);
    // The dead webhook was tried (and failed); the inbox webhook subscribes to items only.
    expect((await latest('dead')).event).toBe('post.all');
    const created = await deliveries({ organization: 'acme', limit: '6' });
    expect(
      created
        .slice(0, 6)
        .map((d) => d.webhook_id)
        .sort(),
    ).toEqual(['all', 'dead', 'retry', 'secret', 'slow', 'specific']);
  });

  it('the request is a POST of JSON with the user agent and the webhook’s custom headers', async () => {
    await accepted('POST', '/posts/', { title: 'Headers', slug: unique('headers') });
    await settle();
    const [secret] = receiver.at(P.secret);
    expect(secret).toBeDefined();
    expect(secret!.method).toBe('POST');
    expect(secret!.headers['content-type']).toBe('application/json');
    expect(secret!.headers['user-agent']).toBe('cms-emulator-webhooks/1');
    expect(secret!.headers['x-webhook-secret']).toBe('s3cret-value');
    // Custom headers belong to their webhook only.
    for (const r of receiver.requests.filter((x) => x.path !== P.secret)) expect(r.headers['x-webhook-secret']).toBeUndefined();
    for (const r of receiver.requests) {
      expect(r.method).toBe('POST');
      expect(r.headers['content-type']).toBe('application/json');
    }
  });

  it('the envelope is {data, webhook: {event, target}} with target the URL posted to', async () => {
    await accepted('PATCH', '/posts/hello-world/', { summary: 'Envelope check' });
    await settle();
    expect(receiver.requests.length).toBeGreaterThanOrEqual(5);
    for (const r of receiver.requests) {
      const body = envelope(r);
      expect(Object.keys(body).sort()).toEqual(['data', 'webhook']);
      expect(Object.keys(body.webhook).sort()).toEqual(['event', 'target']);
      expect(body.webhook.target).toBe(r.url);
      expect(body.webhook.target).toBe(receiver.url(r.path));
    }
    expect(envelope(receiver.at(P.specific)[0]!).webhook.event).toBe('post.published');
    expect(envelope(receiver.at(P.all)[0]!).webhook.event).toBe('post.all');
  });

  it("another organization's changes reach only its own webhooks", async () => {
    const slug = unique('other');
    await accepted('POST', '/posts/', { title: 'Other org post', slug, status: 'published' }, { org: 'other' });
    await accepted('PATCH', '/content/brands/21/', { fields: { name: 'Other Brand 2' } }, { org: 'other' });
    await settle();
    expect(receiver.requests.filter((r) => r.path !== P.other)).toEqual([]);
    expect(alt.requests).toEqual([]);
    expect(eventsAt(P.other).sort()).toEqual(['collectionitem.all', 'collectionitem.published', 'post.all', 'post.published']);
    const ofOther = await deliveries({ organization: 'other', limit: '4' });
    expect(ofOther.map((d) => d.webhook_id).sort()).toEqual(['other-all', 'other-all', 'other-published', 'other-published']);
    for (const d of ofOther) expect(d.organization).toBe('other');
    // An organization without locales: the item label is its flat first text value.
    const item = receiver
      .at(P.other)
      .map(envelope)
      .find((b) => b.webhook.event === 'collectionitem.all')!;
    expect(item.data).toMatchObject({ id: 'brands', label: 'Other Brand 2', editor: 'Olga Ivanova', status: 'published', locale: null });
    // And acme's changes never reach the other organization's receiver.
    receiver.reset();
    await accepted('PATCH', '/content/brands/1/', { fields: { country: 'CA' } });
    await settle();
    expect(eventsAt(P.other)).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// docs/webhooks.md: Posts

describe('posts: which change fires which kinds', () => {
  it('POST /posts/ → draft fires post.draft', async () => {
    await accepted('POST', '/posts/', { title: 'A draft', slug: unique('draft'), status: 'draft' });
    await settle();
    expectFired(['post.draft'], 'post.all');
  });

  it('POST /posts/ with no status (a draft) fires post.draft', async () => {
    await accepted('POST', '/posts/', { title: 'No status', slug: unique('nostatus') });
    await settle();
    expectFired(['post.draft'], 'post.all');
  });

  it('POST /posts/ → published fires post.published', async () => {
    await accepted('POST', '/posts/', { title: 'Live now', slug: unique('live'), status: 'published' });
    await settle();
    expectFired(['post.published'], 'post.all');
  });

  it('PATCH draft → draft fires post.draft', async () => {
    const { slug } = await freshPost('draft');
    await accepted('PATCH', `/posts/${slug}/`, { title: 'Still a draft' });
    await settle();
    expectFired(['post.draft'], 'post.all');
  });

  it('PATCH draft → draft (status named) fires post.draft', async () => {
    const { slug } = await freshPost('draft');
    await accepted('PATCH', `/posts/${slug}/`, { status: 'draft' });
    await settle();
    expectFired(['post.draft'], 'post.all');
  });

  it('PATCH scheduled → draft fires post.draft', async () => {
    expect(postRecord('coming-soon').status).toBe('scheduled');
    await accepted('PATCH', '/posts/coming-soon/', { status: 'draft' });
    await settle();
    expect(postRecord('coming-soon').status).toBe('draft');
    expectFired(['post.draft'], 'post.all');
  });

  it('PATCH draft → published fires post.published', async () => {
    const { slug } = await freshPost('draft');
    await accepted('PATCH', `/posts/${slug}/`, { status: 'published' });
    await settle();
    expectFired(['post.published'], 'post.all');
  });

  it('PATCH of a published post (an edit, no status) fires post.published', async () => {
    const { slug } = await freshPost('published');
    await accepted('PATCH', `/posts/${slug}/`, { title: 'Edited live post' });
    await settle();
    expectFired(['post.published'], 'post.all');
  });

  it('PATCH published → draft (unpublished) fires post.draft and post.delete', async () => {
    const { slug } = await freshPost('published');
    await accepted('PATCH', `/posts/${slug}/`, { status: 'draft' });
    await settle();
    expectFired(['post.draft', 'post.delete'], 'post.all');
  });

  it.each(['published', 'draft'] as const)('DELETE a %s post fires post.delete', async (status) => {
    const { slug, id } = await freshPost(status);
    await accepted('DELETE', `/posts/${slug}/`);
    await settle();
    expectFired(['post.delete'], 'post.all');
    expect(envelope(receiver.at(P.specific)[0]!).data).toEqual({ id: slug, _id: id });
  });

  it('the post payload is exactly {id: slug, _id: numeric id}, the same for every kind', async () => {
    const { slug, id } = await freshPost('published');
    await accepted('PATCH', `/posts/${slug}/`, { status: 'draft' });
    await settle();
    const bodies = [...receiver.at(P.specific), ...receiver.at(P.all)].map(envelope);
    expect(bodies).toHaveLength(3);
    for (const body of bodies) expect(body.data).toEqual({ id: slug, _id: id });
  });
});

// ---------------------------------------------------------------------------------------------
// docs/webhooks.md: Pages

describe('pages: which change fires which kinds', () => {
  it('POST /pages/ → draft fires page.draft', async () => {
    const slug = unique('page');
    await accepted('POST', '/pages/', { page_type: 'guide', title: 'Draft page', slug, fields: { title: 'T', hero: null, brand: null } });
    await settle();
    expectFired(['page.draft'], 'page.all');
  });

  it('POST /pages/ → published fires page.published', async () => {
    const slug = unique('page');
    await accepted('POST', '/pages/', {
      page_type: 'guide',
      title: 'Live page',
      slug,
      status: 'published',
      fields: { title: 'T', hero: null, brand: 1 },
    });
    await settle();
    expectFired(['page.published'], 'page.all');
  });

  describe.each(['PATCH', 'PUT'])('%s', (method) => {
    it('with status published on a draft-only page: page.published', async () => {
      const slug = await freshPage('draft');
      await accepted(method, `/pages/guide/${slug}/`, { status: 'published' });
      await settle();
      expectFired(['page.published'], 'page.all');
    });

    it('with status published on a live page: page.published', async () => {
      const slug = await freshPage('published');
      await accepted(method, `/pages/guide/${slug}/`, { status: 'published', fields: { en: { title: 'Republished' } } });
      await settle();
      expectFired(['page.published'], 'page.all');
    });

    it('without status on a live page with no draft (the live version changes): page.published', async () => {
      const slug = await freshPage('published');
      await accepted(method, `/pages/guide/${slug}/`, { fields: { title: 'Live edit' } }, { query: { locale: 'en' } });
      await settle();
      expect(pageRecord(slug).draft_version).toBeNull();
      expectFired(['page.published'], 'page.all');
    });

    it('with status draft on a live page (published → draft): page.unpublished', async () => {
      const slug = await freshPage('published');
      await accepted(method, `/pages/guide/${slug}/`, { status: 'draft' });
      await settle();
      expect(pageRecord(slug).published_version).toBeNull();
      expectFired(['page.unpublished'], 'page.all');
    });

    it('that saves a draft-only page: page.draft', async () => {
      const slug = await freshPage('draft');
      await accepted(method, `/pages/guide/${slug}/`, { fields: { en: { title: 'Draft edit' } } });
      await settle();
      expectFired(['page.draft'], 'page.all');
    });

    it('with status draft on a draft-only page: page.draft', async () => {
      const slug = await freshPage('draft');
      await accepted(method, `/pages/guide/${slug}/`, { status: 'draft', fields: { en: { title: 'Draft again' } } });
      await settle();
      expectFired(['page.draft'], 'page.all');
    });

    it('that saves a draft above the live version: page.draft', async () => {
      await accepted(method, '/pages/guide/drafted-guide/', { fields: { title: `Revised by ${method}` } }, { query: { locale: 'en' } });
      await settle();
      const page = pageRecord('drafted-guide');
      expect(page.published_version).not.toBeNull();
      expect(page.draft_version).not.toBeNull();
      expectFired(['page.draft'], 'page.all');
    });

    it('that saves a scheduled change: page.draft', async () => {
      await accepted(method, '/pages/guide/scheduled-guide/', { fields: { en: { title: `Next by ${method}` } } });
      await settle();
      expect(pageRecord('scheduled-guide').scheduled).not.toBeNull();
      expectFired(['page.draft'], 'page.all');
    });
  });

  it('a Single Page edit (live, no draft) fires page.published', async () => {
    await accepted('PATCH', '/pages/*/about/', { fields: { heading: 'Sobre nosotros' } }, { query: { locale: 'es' } });
    await settle();
    expectFired(['page.published'], 'page.all');
  });
});

// ---------------------------------------------------------------------------------------------
// docs/webhooks.md: Collection items

describe('collection items: which change fires which kinds', () => {
  it('POST /content/ → draft fires collectionitem.draft', async () => {
    await accepted('POST', '/content/', { key: 'brands', status: 'draft', fields: { name: unique('brand') } });
    await settle();
    expectFired(['collectionitem.draft'], 'collectionitem.all');
  });

  it('POST /content/ with no status (a draft) fires collectionitem.draft', async () => {
    await accepted('POST', '/content/', { key: 'brands', fields: { name: unique('brand') } });
    await settle();
    expectFired(['collectionitem.draft'], 'collectionitem.all');
  });

  it('POST /content/ → published fires collectionitem.published', async () => {
    await accepted('POST', '/content/', { key: 'products', status: 'published', fields: { name: unique('product'), brand: 1 } });
    await settle();
    expectFired(['collectionitem.published'], 'collectionitem.all');
  });

  describe.each([
    ['PUT', true],
    ['PATCH', false],
  ] as const)('%s', (method, replace) => {
    const fields = (name: string, extra: Record<string, unknown> = {}) => (replace ? { name, ...extra } : extra);

    it('draft → published fires collectionitem.published', async () => {
      const { name, id } = await freshItem('draft');
      await accepted(method, `/content/brands/${id}/`, { status: 'published', fields: fields(name) });
      await settle();
      expectFired(['collectionitem.published'], 'collectionitem.all');
    });

    it('published → published fires collectionitem.published', async () => {
      const { name, id } = await freshItem('published');
      await accepted(method, `/content/brands/${id}/`, { fields: fields(name, { country: 'NO' }) });
      await settle();
      expectFired(['collectionitem.published'], 'collectionitem.all');
    });

    it('published → draft fires collectionitem.unpublished', async () => {
      const { name, id } = await freshItem('published');
      await accepted(method, `/content/brands/${id}/`, { status: 'draft', fields: fields(name) });
      await settle();
      expectFired(['collectionitem.unpublished'], 'collectionitem.all');
    });

    it('draft → draft fires collectionitem.draft', async () => {
      const { name, id } = await freshItem('draft');
      await accepted(method, `/content/brands/${id}/`, { fields: fields(name, { country: 'SE' }) });
      await settle();
      expectFired(['collectionitem.draft'], 'collectionitem.all');
    });
  });

  it.each(['published', 'draft'] as const)('DELETE a %s item fires collectionitem.delete', async (status) => {
    const { id } = await freshItem(status);
    await accepted('DELETE', `/content/brands/${id}/`);
    await settle();
    expectFired(['collectionitem.delete'], 'collectionitem.all');
    expect(envelope(receiver.at(P.specific)[0]!).data['status']).toBe('deleted');
  });
});

// ---------------------------------------------------------------------------------------------
// docs/webhooks.md: Media

describe('media: a video downloaded into the library fires media.videouploaded', () => {
  it('a page media field with a video URL', async () => {
    const slug = unique('video-page');
    const url = receiver.url(`/media/${slug}.mp4`);
    const before = Date.now();
    await accepted('POST', '/pages/', { page_type: 'guide', title: 'Video page', slug, fields: { title: 'V', hero: url, brand: null } });
    await settle();
    expect(sortedEventsAt(P.specific)).toEqual(['media.videouploaded', 'page.draft']);
    // media.videouploaded has no `.all` kind: the "all" webhook only hears about the page.
    expect(eventsAt(P.all)).toEqual(['page.all']);
    const video = receiver
      .at(P.specific)
      .map(envelope)
      .find((b) => b.webhook.event === 'media.videouploaded')!;
    const record = acmeStore().media.find((m) => m.original_url === url);
    expect(record).toBeDefined();
    expect(video.data).toEqual({
      id: record!.id,
      url: `${api.url}/cdn/${record!.id}`,
      content_type: 'video/mp4',
      size: VIDEO_BYTES.length,
      original_url: url,
      timestamp: expect.stringMatching(ZONELESS),
    });
    expect(Date.parse(`${String(video.data['timestamp'])}Z`)).toBeGreaterThanOrEqual(before - 5);
    // The CDN URL serves the file.
    const cdn = await fetch(String(video.data['url']));
    expect(cdn.status).toBe(200);
    expect(Buffer.from(await cdn.arrayBuffer()).equals(VIDEO_BYTES)).toBe(true);
  });

  it('a collection item media field with a video URL', async () => {
    const url = receiver.url(`/media/${unique('clip')}.mp4`);
    await accepted('POST', '/content/', { key: 'products', fields: { name: unique('product'), clip: url } });
    await settle();
    expect(sortedEventsAt(P.specific)).toEqual(['collectionitem.draft', 'media.videouploaded']);
    expect(eventsAt(P.all)).toEqual(['collectionitem.all']);
    const video = receiver
      .at(P.specific)
      .map(envelope)
      .find((b) => b.webhook.event === 'media.videouploaded')!;
    expect(video.data['original_url']).toBe(url);
    expect(video.data['content_type']).toBe('video/mp4');
  });

  it('a file that is not a video fires no media kind', async () => {
    const url = receiver.url(`/media/${unique('doc')}.pdf`);
    await accepted('POST', '/content/', { key: 'brands', fields: { name: unique('brand'), logo: url } });
    await settle();
    expect(acmeStore().media.some((m) => m.original_url === url)).toBe(true);
    expectFired(['collectionitem.draft'], 'collectionitem.all');
  });
});

// ---------------------------------------------------------------------------------------------
// Payloads

const PAGE_FIELDS = [
  'editor',
  'id',
  'locale',
  'name',
  'page_type',
  'published',
  'scheduled',
  'service_id',
  'status',
  'timestamp',
  'updated',
];

/** The spec's page.all table: every field present with its type. */
function expectPagePayloadShape(data: Record<string, unknown>): void {
  expect(Object.keys(data).sort()).toEqual(PAGE_FIELDS);
  expect(typeof data['id']).toBe('string');
  expect(Number.isInteger(data['service_id'])).toBe(true);
  expect(typeof data['page_type']).toBe('string');
  expect(typeof data['editor']).toBe('string');
  expect(typeof data['name']).toBe('string');
  expect(data['timestamp']).toEqual(expect.stringMatching(ZONELESS));
  expect(data['locale'] === null || typeof data['locale'] === 'string').toBe(true);
  expect(['draft', 'published', 'scheduled', 'deleted']).toContain(data['status']);
  expect(data['updated']).toEqual(expect.stringMatching(ISO_Z_FRACTION));
  expect(data['published'] === null || typeof data['published'] === 'string').toBe(true);
  expect(data['scheduled'] === null || typeof data['scheduled'] === 'string').toBe(true);
}

function pagePayloads(): Record<string, unknown>[] {
  return [...receiver.at(P.specific), ...receiver.at(P.all)].map((r) => envelope(r).data);
}

describe('payloads', () => {
  it('page.*: a new draft page carries the 11 fields of the spec with their types', async () => {
    const slug = unique('payload');
    const before = Date.now();
    await accepted('POST', '/pages/', { page_type: 'guide', title: 'Payload page', slug, fields: { title: 'P', hero: null, brand: null } });
    await settle();
    const after = Date.now();
    const page = pageRecord(slug);
    const payloads = pagePayloads();
    expect(payloads).toHaveLength(2);
    for (const data of payloads) {
      expectPagePayloadShape(data);
      expect(data).toMatchObject({
        id: slug,
        service_id: page.id,
        page_type: 'guide',
        editor: 'Maya Okafor',
        name: 'Payload page',
        locale: null,
        status: 'draft',
        published: null,
        scheduled: null,
      });
      // Never published: `updated` is when its draft was saved.
      expect(data['updated']).toBe(new Date(page.draft_version!.saved).toISOString());
      const generated = Date.parse(`${String(data['timestamp'])}Z`);
      expect(generated).toBeGreaterThanOrEqual(before - 5);
      expect(generated).toBeLessThanOrEqual(after + 5);
    }
  });

  it('page.*: publishing with ?locale=es names the locale, the status and the publication times', async () => {
    const slug = await freshPage('draft');
    await accepted('PATCH', `/pages/guide/${slug}/`, { status: 'published', fields: { title: 'Guía' } }, { query: { locale: 'es' } });
    await settle();
    const page = pageRecord(slug);
    for (const data of pagePayloads()) {
      expectPagePayloadShape(data);
      expect(data).toMatchObject({ id: slug, locale: 'es', status: 'published', scheduled: null });
      expect(data['published']).toBe(new Date(page.published!).toISOString());
      expect(data['updated']).toBe(new Date(page.updated!).toISOString());
    }
  });

  it('page.*: locale is null for a write that names the default locale', async () => {
    const slug = await freshPage('published');
    await accepted('PATCH', `/pages/guide/${slug}/`, { fields: { title: 'English edit' } }, { query: { locale: 'en' } });
    await settle();
    for (const data of pagePayloads()) expect(data['locale']).toBeNull();
  });

  it('page.*: locale is null for a multi-locale (nested) write', async () => {
    const slug = await freshPage('published');
    await accepted('PATCH', `/pages/guide/${slug}/`, { fields: { en: { title: 'Both' }, es: { title: 'Ambos' } } });
    await settle();
    expect(pagePayloads()).toHaveLength(2);
    for (const data of pagePayloads()) expect(data['locale']).toBeNull();
  });

  it('page.*: a Single Page has page_type "*"', async () => {
    await accepted('PATCH', '/pages/*/about/', { fields: { en: { heading: 'About Acme Outdoor' } } });
    await settle();
    const page = pageRecord('about');
    for (const data of pagePayloads()) {
      expectPagePayloadShape(data);
      expect(data).toMatchObject({ id: 'about', service_id: page.id, page_type: '*', name: 'About us', status: 'published', locale: null });
      expect(data['published']).toBe('2026-01-02T10:00:00.000Z');
    }
  });

  it('page.*: a scheduled page reports status scheduled and its publication time', async () => {
    await accepted('PATCH', '/pages/guide/scheduled-guide/', { fields: { title: 'Scheduled edit' } }, { query: { locale: 'en' } });
    await settle();
    for (const data of pagePayloads()) {
      expectPagePayloadShape(data);
      expect(data).toMatchObject({ id: 'scheduled-guide', status: 'scheduled', published: '2026-01-05T10:00:00.000Z' });
      expect(new Date(String(data['scheduled'])).toISOString()).toBe('2030-01-01T09:00:00.000Z');
      // `updated` is the most recent publication, not the draft just saved.
      expect(data['updated']).toBe('2026-01-05T10:00:00.000Z');
    }
  });

  it('page.*: an unpublished page reports status draft and published null', async () => {
    const slug = await freshPage('published');
    await accepted('PATCH', `/pages/guide/${slug}/`, { status: 'draft' });
    await settle();
    for (const data of pagePayloads()) {
      expectPagePayloadShape(data);
      expect(data).toMatchObject({ id: slug, status: 'draft', published: null });
    }
  });

  it('collectionitem.*: id, itemid, label, editor, timestamp, locale, status', async () => {
    const name = unique('Label');
    const before = Date.now();
    await accepted('POST', '/content/', { key: 'brands', status: 'published', fields: { name, country: 'IT' } });
    await settle();
    const item = itemByName('brands', name);
    const bodies = [...receiver.at(P.specific), ...receiver.at(P.all)].map(envelope);
    expect(bodies).toHaveLength(2);
    for (const body of bodies) {
      expect(body.data).toEqual({
        id: 'brands',
        itemid: `${basePath}/content/?keys=brands[_id=${item.id}]`,
        label: name,
        editor: 'Maya Okafor',
        timestamp: expect.stringMatching(ZONELESS),
        locale: null,
        status: 'published',
      });
      expect(Date.parse(`${String(body.data['timestamp'])}Z`)).toBeGreaterThanOrEqual(before - 5);
    }
  });

  it('collectionitem.*: the label is the first text value in the default locale, also for a write in another locale', async () => {
    await accepted('PATCH', '/content/brands/1/', { fields: { name: 'Acme Equipo Nuevo' } }, { query: { locale: 'es' } });
    await settle();
    const data = envelope(receiver.at(P.specific)[0]!).data;
    expect(data).toMatchObject({ id: 'brands', label: 'Acme Gear', status: 'published', locale: null });
  });
});

// ---------------------------------------------------------------------------------------------
// Delivery records

describe('GET /__emulator/deliveries', () => {
  it('lists deliveries newest first with every documented field', async () => {
    await accepted('POST', '/posts/', { title: 'First', slug: unique('first') });
    await settle();
    await accepted('POST', '/posts/', { title: 'Second', slug: unique('second'), status: 'published' });
    await settle();
    const [newest, older] = await deliveries({ webhook: 'specific', limit: '2' });
    expect(newest!.event).toBe('post.published');
    expect(older!.event).toBe('post.draft');
    expect(newest!.created >= older!.created).toBe(true);
    const all = await deliveries({ limit: '2000' });
    for (let i = 1; i < all.length; i += 1) expect(all[i - 1]!.created >= all[i]!.created).toBe(true);
    expect(Object.keys(newest!).sort()).toEqual(
      [
        'attempts',
        'cause',
        'created',
        'event',
        'finished',
        'id',
        'max_attempts',
        'organization',
        'replay_of',
        'request',
        'retry_delays_ms',
        'state',
        'target',
        'timeout_ms',
        'webhook_id',
      ].sort(),
    );
    expect(newest).toMatchObject({
      organization: 'acme',
      webhook_id: 'specific',
      event: 'post.published',
      target: receiver.url(P.specific),
      state: 'succeeded',
      max_attempts: 1,
      retry_delays_ms: [],
      timeout_ms: 5000,
      replay_of: null,
      cause: { kind: 'api' },
    });
    expect(newest!.request).toMatchObject({ method: 'POST', url: receiver.url(P.specific) });
    expect(newest!.finished).not.toBeNull();
    expect(Date.parse(newest!.finished!)).toBeGreaterThanOrEqual(Date.parse(newest!.created));
  });

  it('defaults to 100 deliveries, and `limit` takes 1 to 2000', async () => {
    const slugs = Array.from({ length: 17 }, () => unique('many'));
    for (const slug of slugs) await accepted('POST', '/posts/', { title: slug, slug });
    await settle();
    expect(await deliveries()).toHaveLength(100);
    expect(await deliveries({ limit: '1' })).toHaveLength(1);
    expect((await deliveries({ limit: '2000' })).length).toBeGreaterThan(100);
  });

  it('filters by organization, event, webhook, state, target and since', async () => {
    const since = new Date().toISOString();
    const slug = unique('filters');
    await accepted('POST', '/posts/', { title: 'Filters', slug, status: 'published' });
    await accepted('POST', '/posts/', { title: 'Other filters', slug: unique('of'), status: 'published' }, { org: 'other' });
    await settle();

    const recent = await deliveries({ since, limit: '2000' });
    expect(recent.map((d) => d.webhook_id).sort()).toEqual(
      ['all', 'dead', 'other-all', 'other-published', 'retry', 'secret', 'slow', 'specific'].sort(),
    );
    for (const d of recent) expect(d.created >= since).toBe(true);

    expect((await deliveries({ since, organization: 'other' })).map((d) => d.webhook_id).sort()).toEqual(['other-all', 'other-published']);
    expect((await deliveries({ since, organization: 'acme' })).every((d) => d.organization === 'acme')).toBe(true);
    expect((await deliveries({ since, organization: 'nobody' })).length).toBe(0);

    const published = await deliveries({ since, event: 'post.published' });
    expect(published.map((d) => d.webhook_id).sort()).toEqual(['other-published', 'specific']);

    const bySecret = await deliveries({ webhook: 'secret', limit: '2000' });
    expect(bySecret.length).toBeGreaterThan(0);
    expect(bySecret.every((d) => d.webhook_id === 'secret')).toBe(true);

    const failed = await deliveries({ state: 'failed', limit: '2000' });
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((d) => d.state === 'failed')).toBe(true);
    expect(failed.some((d) => d.webhook_id === 'dead')).toBe(true);
    const succeeded = await deliveries({ state: 'succeeded', limit: '2000' });
    expect(succeeded.every((d) => d.state === 'succeeded')).toBe(true);
    const finished = await deliveries({ state: 'finished', limit: '2000' });
    expect(finished.length).toBe(failed.length + succeeded.length);
    expect(await deliveries({ state: 'pending' })).toEqual([]);
    expect(await deliveries({ state: 'sending' })).toEqual([]);
    expect(await deliveries({ state: 'retrying' })).toEqual([]);

    const byTarget = await deliveries({ since, target: '/secr' });
    expect(byTarget.map((d) => d.webhook_id)).toEqual(['secret']);
    expect(await deliveries({ since, target: 'no-such-target' })).toEqual([]);

    // Filters combine.
    expect((await deliveries({ since, organization: 'acme', event: 'post.all', state: 'failed' })).map((d) => d.webhook_id)).toEqual([
      'dead',
    ]);

    // A `since` after everything matches nothing.
    expect(await deliveries({ since: new Date(Date.now() + 60_000).toISOString() })).toEqual([]);
  });

  it('since keeps a delivery created at that instant when the time is given in whole seconds', async () => {
    await accepted('POST', '/posts/', { title: 'Since seconds', slug: unique('since') });
    await settle();
    const delivery = await latest('specific');
    // The same second, written without a fraction: every delivery of that second is at or after it.
    const since = delivery.created.replace(/\.\d+Z$/, 'Z');
    const found = await deliveries({ since, limit: '2000' });
    expect(found.map((d) => d.id)).toContain(delivery.id);
  });

  it('since keeps a delivery created at that instant when the time has a zone offset', async () => {
    await accepted('POST', '/posts/', { title: 'Since offset', slug: unique('since') });
    await settle();
    const delivery = await latest('specific');
    const instant = new Date(delivery.created);
    // The same instant at +02:00.
    const shifted = new Date(instant.getTime() + 2 * 3600_000).toISOString().replace('Z', '+02:00');
    expect(Date.parse(shifted)).toBe(instant.getTime());
    const found = await deliveries({ since: shifted, limit: '2000' });
    expect(found.map((d) => d.id)).toContain(delivery.id);
  });

  it.each([
    ['state', 'done'],
    ['state', ''],
    ['limit', '0'],
    ['limit', '2001'],
    ['limit', 'ten'],
    ['limit', '1.5'],
    ['since', 'yesterday'],
    ['since', '2026-13-01T00:00:00Z'],
  ])('400 with a detail for %s=%j', async (name, value) => {
    const res = await control<DetailJson>('GET', `/deliveries?${name}=${encodeURIComponent(value)}`);
    expect(res.status).toBe(400);
    expect(typeof res.body.detail).toBe('string');
    expect(res.body.detail.length).toBeGreaterThan(0);
  });
});

describe('the control surface', () => {
  it('404 with a detail for an unknown control endpoint', async () => {
    const res = await control<DetailJson>('GET', '/no-such-thing');
    expect(res.status).toBe(404);
    expect(typeof res.body.detail).toBe('string');
  });
});

describe('GET /__emulator/deliveries/{id}', () => {
  it('records the request exactly as the receiver got it, and the receiver’s answer', async () => {
    await accepted('POST', '/posts/', { title: 'Exact', slug: unique('exact') });
    await settle();
    const listed = await latest('secret');
    const res = await control<OneJson>('GET', `/deliveries/${listed.id}`);
    expect(res.status).toBe(200);
    const delivery = res.body.data;
    expect(delivery).toEqual(listed);
    const [got] = receiver.at(P.secret);
    expect(got).toBeDefined();
    expect(delivery.request.method).toBe(got!.method);
    expect(delivery.request.url).toBe(got!.url);
    expect(delivery.request.body).toBe(got!.body);
    expect(delivery.request.headers).toEqual({
      'content-type': 'application/json',
      'user-agent': 'cms-emulator-webhooks/1',
      'X-Webhook-Secret': 's3cret-value',
    });
    expectSentHeaders(delivery.request.headers, got!.headers);
    expect(applicationHeaders(got!.headers)).toEqual(lowerKeys(delivery.request.headers));
    expect(delivery.attempts).toHaveLength(1);
    const [attempt] = delivery.attempts;
    expect(attempt).toMatchObject({
      status: 200,
      response_body: RECEIVER_BODY,
      response_truncated: false,
      error: null,
    });
    expect(attempt!.response_headers['x-receiver']).toBe(`main${P.secret}`);
    expect(attempt!.response_headers['content-type']).toBe('application/json');
    expect(attempt!.duration_ms).toBeGreaterThanOrEqual(0);
    expect(Number.isNaN(Date.parse(attempt!.at))).toBe(false);
    expect(delivery.cause.kind).toBe('api');
    expect(delivery.cause).toHaveProperty('requestId');
    expect(delivery.state).toBe('succeeded');
  });

  it('404 with a detail for an unknown id', async () => {
    const res = await control<DetailJson>('GET', '/deliveries/00000000-0000-0000-0000-000000000000');
    expect(res.status).toBe(404);
    expect(typeof res.body.detail).toBe('string');
  });
});

// ---------------------------------------------------------------------------------------------
// Failures, timeouts, retries

describe('failed deliveries', () => {
  it('a receiver slower than timeout_ms: failed, status null, the error names the timeout', async () => {
    receiver.plan(P.slow, { delayMs: 1000 });
    await accepted('POST', '/posts/', { title: 'Too slow', slug: unique('slow') });
    await settle();
    const delivery = await latest('slow');
    expect(delivery.state).toBe('failed');
    expect(delivery.timeout_ms).toBe(200);
    expect(delivery.attempts).toHaveLength(1);
    const [attempt] = delivery.attempts;
    expect(attempt!.status).toBeNull();
    expect(attempt!.error).toMatch(/200 ms/);
    expect(attempt!.error).toMatch(/no answer|timeout|timed out/i);
    expect(attempt!.duration_ms).toBeGreaterThanOrEqual(180);
    expect(attempt!.duration_ms).toBeLessThan(1000);
  });

  it('a dead receiver: failed with a connection error', async () => {
    await accepted('POST', '/posts/', { title: 'Nobody home', slug: unique('dead') });
    await settle();
    const delivery = await latest('dead');
    expect(delivery.state).toBe('failed');
    expect(delivery.target).toBe(deadUrl);
    expect(delivery.attempts).toHaveLength(1);
    expect(delivery.attempts[0]!.status).toBeNull();
    expect(delivery.attempts[0]!.error).toMatch(/ECONNREFUSED|connect|refused/i);
    expect(delivery.finished).not.toBeNull();
  });

  it('a non-2xx answer: failed with the status and the answer recorded, one attempt by default', async () => {
    receiver.plan(P.secret, { status: 503, body: '{"error":"maintenance"}' });
    await accepted('POST', '/posts/', { title: 'Refused', slug: unique('503') });
    await settle();
    const delivery = await latest('secret');
    expect(delivery.state).toBe('failed');
    expect(delivery.max_attempts).toBe(1);
    expect(delivery.attempts).toHaveLength(1);
    expect(delivery.attempts[0]).toMatchObject({ status: 503, response_body: '{"error":"maintenance"}' });
    expect(delivery.attempts[0]!.error).toMatch(/503/);
    expect(receiver.at(P.secret)).toHaveLength(1);
  });

  it('any 2xx is a success', async () => {
    receiver.plan(P.secret, { status: 204, body: '' });
    await accepted('POST', '/posts/', { title: 'No content', slug: unique('204') });
    await settle();
    const delivery = await latest('secret');
    expect(delivery.state).toBe('succeeded');
    expect(delivery.attempts[0]).toMatchObject({ status: 204, error: null });
  });

  it('a 3xx answer is not followed and fails', async () => {
    receiver.plan(P.secret, { status: 302, body: '' });
    await accepted('POST', '/posts/', { title: 'Redirect', slug: unique('302') });
    await settle();
    const delivery = await latest('secret');
    expect(delivery.state).toBe('failed');
    expect(delivery.attempts.map((a) => a.status)).toEqual([302]);
  });

  it('a response body over 64 KiB is cut and marked response_truncated', async () => {
    const big = JSON.stringify({ padding: 'x'.repeat(70 * 1024) });
    receiver.plan(P.all, { body: big });
    await accepted('POST', '/posts/', { title: 'Big answer', slug: unique('big') });
    await settle();
    const delivery = await latest('all');
    expect(delivery.state).toBe('succeeded');
    const [attempt] = delivery.attempts;
    expect(attempt!.response_truncated).toBe(true);
    expect(attempt!.response_body).toHaveLength(64 * 1024);
    expect(big.startsWith(attempt!.response_body)).toBe(true);
  });

  it('the cap is 64 KiB of the answer, also when its characters take several bytes', async () => {
    // 40 000 euro signs: 40 000 characters, 120 000 bytes of UTF-8.
    const wide = '\u20ac'.repeat(40_000);
    receiver.plan(P.all, { body: wide });
    await accepted('POST', '/posts/', { title: 'Wide answer', slug: unique('wide') });
    await settle();
    const [attempt] = (await latest('all')).attempts;
    expect(attempt!.response_truncated).toBe(true);
    expect(Buffer.byteLength(attempt!.response_body, 'utf8')).toBeLessThanOrEqual(64 * 1024);
  });

  it('a response body of exactly 64 KiB is kept whole', async () => {
    const exact = 'y'.repeat(64 * 1024);
    receiver.plan(P.all, { body: exact });
    await accepted('POST', '/posts/', { title: 'Exact answer', slug: unique('exact64') });
    await settle();
    const [attempt] = (await latest('all')).attempts;
    expect(attempt!.response_truncated).toBe(false);
    expect(attempt!.response_body).toBe(exact);
  });
});

describe('retries', () => {
  it('a receiver failing twice then succeeding: 3 attempts, succeeded', async () => {
    receiver.plan(P.retry, { status: 500 }, { status: 500 });
    await accepted('POST', '/posts/', { title: 'Flaky', slug: unique('flaky') });
    await settle();
    const delivery = await latest('retry');
    expect(delivery).toMatchObject({ state: 'succeeded', max_attempts: 3, retry_delays_ms: [50, 50] });
    expect(delivery.attempts.map((a) => a.status)).toEqual([500, 500, 200]);
    expect(delivery.attempts.map((a) => a.error === null)).toEqual([false, false, true]);
    const got = receiver.at(P.retry);
    expect(got).toHaveLength(3);
    // The same request every time, sent after the configured delays.
    expect(new Set(got.map((r) => r.body)).size).toBe(1);
    expect(got[1]!.at - got[0]!.at).toBeGreaterThanOrEqual(45);
    expect(got[2]!.at - got[1]!.at).toBeGreaterThanOrEqual(45);
  });

  it('a receiver that keeps failing: every configured attempt, then failed', async () => {
    receiver.plan(P.retry, { status: 500 }, { status: 502 }, { status: 503 });
    await accepted('POST', '/posts/', { title: 'Always failing', slug: unique('fail3') });
    await settle();
    const delivery = await latest('retry');
    expect(delivery.state).toBe('failed');
    expect(delivery.attempts.map((a) => a.status)).toEqual([500, 502, 503]);
    expect(receiver.at(P.retry)).toHaveLength(3);
  });

  it('a webhook with no retry_delays_ms makes exactly one attempt', async () => {
    receiver.plan(P.all, { status: 500 });
    await accepted('POST', '/posts/', { title: 'Once only', slug: unique('once') });
    await settle();
    const delivery = await latest('all');
    expect(delivery).toMatchObject({ state: 'failed', max_attempts: 1, retry_delays_ms: [] });
    expect(delivery.attempts).toHaveLength(1);
    expect(receiver.at(P.all)).toHaveLength(1);
  });

  it('a retry holds the deliveries behind it to the same target', async () => {
    receiver.plan(P.retry, { status: 500 });
    const first = unique('held');
    const second = unique('held');
    await accepted('POST', '/posts/', { title: 'Held first', slug: first });
    await accepted('POST', '/posts/', { title: 'Held second', slug: second });
    await settle();
    const got = receiver.at(P.retry).map((r) => envelope(r).data['id']);
    expect(got).toEqual([first, first, second]);
  });
});

// ---------------------------------------------------------------------------------------------
// Ordering and the request path

describe('ordering and the request path', () => {
  it('20 quick writes to different posts: each receiver gets their deliveries in write order', async () => {
    const posts: { slug: string; id: number }[] = [];
    for (let i = 0; i < 20; i += 1) {
      const slug = unique('order');
      await accepted('POST', '/posts/', { title: `Order ${slug}`, slug });
      posts.push({ slug, id: 0 });
    }
    await settle();
    for (const p of posts) p.id = postRecord(p.slug).id;
    receiver.reset();
    // A shuffled but fixed order: 0, 7, 14, 1, 8, 15…
    const order = Array.from({ length: 20 }, (_, i) => posts[(i * 7) % 20]!);
    for (const p of order) await accepted('PATCH', `/posts/${p.slug}/`, { summary: 'in order' });
    await settle();
    const expected = order.map((p) => p.id);
    for (const path of [P.specific, P.all, P.secret, P.retry, P.slow]) {
      expect(
        receiver.at(path).map((r) => envelope(r).data['_id']),
        path,
      ).toEqual(expected);
    }
  });

  it('a slow receiver never slows the API', async () => {
    receiver.plan(P.all, { delayMs: 2000 });
    const arrived = receiver.next(P.all);
    await accepted('POST', '/posts/', { title: 'Slowly heard', slug: unique('slowly') });
    await arrived; // the delivery is now waiting for the 2 s answer
    const started = performance.now();
    const res = await write('POST', '/posts/', { title: 'Meanwhile', slug: unique('meanwhile') });
    const elapsed = performance.now() - started;
    expect(res.status).toBe(202);
    expect(elapsed).toBeLessThan(500);
    const list = await api.get<{ data: unknown[] }>('/posts/', { token: tokensOf('acme').read });
    expect(list.status).toBe(200);
    await settle();
    const [held, first] = await deliveries({ webhook: 'all', limit: '2' });
    expect(first!.attempts[0]!.duration_ms).toBeGreaterThanOrEqual(1900);
    expect(first!.state).toBe('succeeded');
    expect(held!.state).toBe('succeeded');
  });
});

// ---------------------------------------------------------------------------------------------
// Replay

describe('POST /__emulator/deliveries/{id}/replay', () => {
  async function original(): Promise<{ delivery: Delivery; got: Received }> {
    await accepted('POST', '/posts/', { title: 'To replay', slug: unique('replay') });
    await settle();
    const delivery = await latest('secret');
    const got = receiver.at(P.secret)[0]!;
    receiver.reset();
    return { delivery, got };
  }

  async function replay(id: string, body?: unknown): Promise<ControlResponse<OneJson>> {
    const res = await control<OneJson>('POST', `/deliveries/${id}/replay`, body);
    await settle();
    return res;
  }

  it('sends it again as it was sent: a new delivery with replay_of, the original unchanged', async () => {
    const { delivery, got } = await original();
    const res = await replay(delivery.id);
    expect(res.status).toBe(201);
    const copy = res.body.data;
    expect(copy.id).not.toBe(delivery.id);
    expect(copy).toMatchObject({
      replay_of: delivery.id,
      organization: 'acme',
      webhook_id: 'secret',
      event: delivery.event,
      target: delivery.target,
      cause: { kind: 'control' },
    });
    expect(copy.request).toEqual(delivery.request);
    const [again] = receiver.at(P.secret);
    expect(receiver.requests).toHaveLength(1);
    expect(again!.body).toBe(got.body);
    expectSentHeaders(delivery.request.headers, again!.headers);
    expect(applicationHeaders(again!.headers)).toEqual(lowerKeys(delivery.request.headers));
    expect(again!.headers['x-webhook-secret']).toBe('s3cret-value');
    const after = await control<OneJson>('GET', `/deliveries/${copy.id}`);
    expect(after.body.data.state).toBe('succeeded');
    expect(after.body.data.attempts).toHaveLength(1);
    expect((await control<OneJson>('GET', `/deliveries/${delivery.id}`)).body.data).toEqual(delivery);
    // The replay is listed, newest first.
    expect((await deliveries({ limit: '1' }))[0]!.id).toBe(copy.id);
  });

  it('a JSON body edit is sent as JSON', async () => {
    const { delivery } = await original();
    const res = await replay(delivery.id, { body: { data: { id: 'edited' }, webhook: { event: 'post.all', target: 'x' } } });
    expect(res.status).toBe(201);
    const [got] = receiver.at(P.secret);
    expect(got!.json).toEqual({ data: { id: 'edited' }, webhook: { event: 'post.all', target: 'x' } });
    expect(res.body.data.request.body).toBe(got!.body);
    expect(got!.headers['x-webhook-secret']).toBe('s3cret-value');
  });

  it('a string body edit is sent as it is', async () => {
    const { delivery } = await original();
    const res = await replay(delivery.id, { body: 'not { json' });
    expect(res.status).toBe(201);
    const [got] = receiver.at(P.secret);
    expect(got!.body).toBe('not { json');
    expect(res.body.data.request.body).toBe('not { json');
  });

  it('a headers edit replaces the original headers', async () => {
    const { delivery, got: before } = await original();
    const headers = { 'content-type': 'application/json', 'x-replayed': 'yes' };
    const res = await replay(delivery.id, { headers });
    expect(res.status).toBe(201);
    expect(res.body.data.request.headers).toEqual(headers);
    const [got] = receiver.at(P.secret);
    expect(got!.headers['x-replayed']).toBe('yes');
    expect(got!.headers['x-webhook-secret']).toBeUndefined();
    expect(got!.body).toBe(before.body);
  });

  it('with edited headers, the receiver gets exactly the recorded headers (nothing added behind the record’s back)', async () => {
    const { delivery } = await original();
    const res = await replay(delivery.id, { headers: { 'x-only': '1' } });
    expect(res.status).toBe(201);
    expect(res.body.data.request.headers).toEqual({ 'x-only': '1' });
    const [got] = receiver.at(P.secret);
    expect(got!.headers['x-only']).toBe('1');
    expect(applicationHeaders(got!.headers)).toEqual(lowerKeys(res.body.data.request.headers));
  });

  it('a target edit sends it to another receiver', async () => {
    const { delivery, got: before } = await original();
    const target = alt.url('/elsewhere');
    const res = await replay(delivery.id, { target });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ target, webhook_id: null, replay_of: delivery.id });
    expect(res.body.data.request.url).toBe(target);
    expect(receiver.requests).toEqual([]);
    const [got] = alt.at('/elsewhere');
    expect(got!.body).toBe(before.body);
    expect(got!.headers['x-webhook-secret']).toBe('s3cret-value');
    expect((await control<OneJson>('GET', `/deliveries/${res.body.data.id}`)).body.data.state).toBe('succeeded');
  });

  it('a target edit to inbox:qa lands in the inbox, with the edited body', async () => {
    await control('DELETE', '/inboxes/qa/requests');
    const { delivery } = await original();
    const res = await replay(delivery.id, { target: 'inbox:qa', body: { replayed: true } });
    expect(res.status).toBe(201);
    expect(res.body.data.target).toBe(`${api.url}/__emulator/inboxes/qa`);
    const inbox = await control<{ data: { requests: { json: unknown; body: string }[] } }>('GET', '/inboxes/qa');
    expect(inbox.body.data.requests).toHaveLength(1);
    expect(inbox.body.data.requests[0]!.json).toEqual({ replayed: true });
    expect((await control<OneJson>('GET', `/deliveries/${res.body.data.id}`)).body.data.state).toBe('succeeded');
  });

  it('a replay of a failed delivery is tried again and can succeed', async () => {
    receiver.plan(P.secret, { status: 500 });
    await accepted('POST', '/posts/', { title: 'Fail then replay', slug: unique('refail') });
    await settle();
    const failed = await latest('secret');
    expect(failed.state).toBe('failed');
    const res = await replay(failed.id);
    expect(res.status).toBe(201);
    const copy = (await control<OneJson>('GET', `/deliveries/${res.body.data.id}`)).body.data;
    expect(copy.state).toBe('succeeded');
    expect((await control<OneJson>('GET', `/deliveries/${failed.id}`)).body.data.state).toBe('failed');
  });

  it.each<[string, unknown]>([
    ['an unknown key', { bogus: 1 }],
    ['a target that is not http(s) or inbox:', { target: 'ftp://example.com/hook' }],
    ['an inbox target with a bad name', { target: 'inbox:bad name' }],
    ['a target that is not a string', { target: 42 }],
    ['headers that are not strings', { headers: { 'x-a': 1 } }],
    ['headers that are not an object', { headers: 'x-a: 1' }],
    ['a body that is not an object', [1, 2]],
  ])('400 with a detail for %s', async (_name, body) => {
    const { delivery } = await original();
    const res = await control<DetailJson>('POST', `/deliveries/${delivery.id}/replay`, body);
    expect(res.status).toBe(400);
    expect(typeof res.body.detail).toBe('string');
    await settle();
    expect(receiver.requests).toEqual([]);
  });

  it('400 for a body that is not JSON', async () => {
    const { delivery } = await original();
    const res = await control<DetailJson>('POST', `/deliveries/${delivery.id}/replay`, '{not json');
    expect(res.status).toBe(400);
  });

  it('404 for an unknown id', async () => {
    const res = await control<DetailJson>('POST', '/deliveries/no-such-delivery/replay', {});
    expect(res.status).toBe(404);
    expect(typeof res.body.detail).toBe('string');
  });
});

// ---------------------------------------------------------------------------------------------
// Long poll

describe('GET /__emulator/deliveries/wait', () => {
  it('waits for a matching delivery to finish', async () => {
    const since = new Date().toISOString();
    const waiting = control<OneJson>('GET', `/deliveries/wait?event=post.delete&webhook=specific&since=${since}&timeout_ms=5000`);
    const { slug } = await freshPostQuiet();
    await accepted('DELETE', `/posts/${slug}/`);
    const res = await waiting;
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ event: 'post.delete', webhook_id: 'specific', state: 'succeeded' });
    expect(JSON.parse(res.body.data.request.body)).toMatchObject({ data: { id: slug } });
  });

  it('answers at once with the oldest finished delivery that matches', async () => {
    const started = performance.now();
    const res = await control<OneJson>('GET', '/deliveries/wait?webhook=dead&timeout_ms=5000');
    expect(performance.now() - started).toBeLessThan(1000);
    expect(res.status).toBe(200);
    const all = await deliveries({ webhook: 'dead', limit: '2000' });
    expect(res.body.data.id).toBe(all[all.length - 1]!.id);
    expect(['succeeded', 'failed']).toContain(res.body.data.state);
  });

  it('filters by state: waiting for a failure', async () => {
    const since = new Date().toISOString();
    const waiting = control<OneJson>('GET', `/deliveries/wait?state=failed&webhook=secret&since=${since}&timeout_ms=5000`);
    receiver.plan(P.secret, { status: 500 });
    await accepted('POST', '/posts/', { title: 'Wait for failure', slug: unique('waitfail') });
    const res = await waiting;
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ webhook_id: 'secret', state: 'failed' });
  });

  it('408 with a JSON detail when nothing matched in time', async () => {
    const started = performance.now();
    const res = await control<DetailJson>('GET', '/deliveries/wait?event=page.delete&timeout_ms=150');
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    expect(res.status).toBe(408);
    expect(res.headers.get('content-type')).toMatch(/json/);
    expect(res.body.detail).toMatch(/150/);
  });

  it.each([
    ['timeout_ms', '0'],
    ['timeout_ms', '120001'],
    ['timeout_ms', 'soon'],
    ['state', 'nope'],
    ['since', 'later'],
  ])('400 for %s=%s', async (name, value) => {
    const res = await control<DetailJson>('GET', `/deliveries/wait?${name}=${value}`);
    expect(res.status).toBe(400);
    expect(typeof res.body.detail).toBe('string');
  });
});

/** A post whose creation deliveries are done, without asserting anything about them. */
async function freshPostQuiet(): Promise<{ slug: string }> {
  const slug = unique('quiet');
  await accepted('POST', '/posts/', { title: `Quiet ${slug}`, slug });
  await settle();
  return { slug };
}

// ---------------------------------------------------------------------------------------------
// Inboxes

interface InboxRequestJson {
  id: string;
  at: string;
  method: string;
  headers: Record<string, string>;
  body: string;
  json: unknown;
}
interface InboxJson {
  data: { name: string; status: number; delay_ms: number; fail_first: number; requests: InboxRequestJson[] };
}
interface InboxListJson {
  data: { name: string; status: number; delay_ms: number; fail_first: number; received: number }[];
}

describe('inboxes', () => {
  const DEFAULTS = { status: 200, delay_ms: 0, fail_first: 0 };

  beforeEach(async () => {
    expect((await control('PUT', '/inboxes/qa/config', DEFAULTS)).status).toBe(200);
    expect((await control('DELETE', '/inboxes/qa/requests')).status).toBe(204);
  });

  afterEach(async () => {
    await settle();
    await control('PUT', '/inboxes/qa/config', DEFAULTS);
  });

  async function itemChange(): Promise<void> {
    await accepted('PATCH', '/content/brands/1/', { fields: { country: unique('C') } });
    await settle();
  }

  it('inbox:qa receives deliveries; GET lists them newest first with the parsed JSON', async () => {
    await itemChange();
    await accepted('PATCH', '/content/products/11/', { fields: { name: 'Trail Boots' } });
    await settle();
    const res = await control<InboxJson>('GET', '/inboxes/qa');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ name: 'qa', ...DEFAULTS });
    const [newest, older] = res.body.data.requests;
    expect(res.body.data.requests).toHaveLength(2);
    const target = `${api.url}/__emulator/inboxes/qa`;
    expect(newest!.json).toMatchObject({ data: { id: 'products' }, webhook: { event: 'collectionitem.all', target } });
    expect(older!.json).toMatchObject({ data: { id: 'brands' }, webhook: { event: 'collectionitem.all', target } });
    expect(newest!.method).toBe('POST');
    expect(newest!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(newest!.body)).toEqual(newest!.json);
    const delivery = await latest('qa');
    expect(delivery).toMatchObject({ target, state: 'succeeded', webhook_id: 'qa' });
    expect(delivery.request.body).toBe(newest!.body);
    expect(delivery.attempts).toHaveLength(1);
    expect(delivery.attempts[0]!.status).toBe(200);
    expect(JSON.parse(delivery.attempts[0]!.response_body)).toMatchObject({ received: true, inbox: 'qa', request_id: newest!.id });
  });

  it('status 503: deliveries fail with 503 (every configured attempt)', async () => {
    const res = await control<{ data: unknown }>('PUT', '/inboxes/qa/config', { status: 503 });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ name: 'qa', status: 503, delay_ms: 0, fail_first: 0 });
    await itemChange();
    const delivery = await latest('qa');
    expect(delivery.state).toBe('failed');
    expect(delivery.attempts.map((a) => a.status)).toEqual([503, 503, 503]);
    expect(delivery.attempts[0]!.error).toMatch(/503/);
  });

  it('delay_ms 300: the attempt takes at least that long', async () => {
    expect((await control('PUT', '/inboxes/qa/config', { delay_ms: 300 })).status).toBe(200);
    await itemChange();
    const delivery = await latest('qa');
    expect(delivery.state).toBe('succeeded');
    expect(delivery.attempts[0]!.duration_ms).toBeGreaterThanOrEqual(295);
  });

  it('fail_first 2 with a retrying webhook: two 500s, then success', async () => {
    expect((await control('PUT', '/inboxes/qa/config', { fail_first: 2 })).status).toBe(200);
    await itemChange();
    const delivery = await latest('qa');
    expect(delivery.state).toBe('succeeded');
    expect(delivery.attempts.map((a) => a.status)).toEqual([500, 500, 200]);
    const inbox = await control<InboxJson>('GET', '/inboxes/qa');
    expect(inbox.body.data.requests).toHaveLength(3);
  });

  it('setting the configuration starts the fail count again', async () => {
    expect((await control('PUT', '/inboxes/qa/config', { fail_first: 1 })).status).toBe(200);
    await itemChange();
    expect((await latest('qa')).attempts.map((a) => a.status)).toEqual([500, 200]);
    await itemChange();
    expect((await latest('qa')).attempts.map((a) => a.status)).toEqual([200]);
    expect((await control('PUT', '/inboxes/qa/config', { fail_first: 1 })).status).toBe(200);
    await itemChange();
    expect((await latest('qa')).attempts.map((a) => a.status)).toEqual([500, 200]);
  });

  it('forgetting what it received keeps the fail count (only a new configuration starts it again)', async () => {
    expect((await control('PUT', '/inboxes/qa/config', { fail_first: 1 })).status).toBe(200);
    await itemChange();
    expect((await latest('qa')).attempts.map((a) => a.status)).toEqual([500, 200]);
    expect((await control('DELETE', '/inboxes/qa/requests')).status).toBe(204);
    expect((await control<InboxJson>('GET', '/inboxes/qa')).body.data.requests).toEqual([]);
    await itemChange();
    expect((await latest('qa')).attempts.map((a) => a.status)).toEqual([200]);
  });

  it('the configuration is saved in the data file, keeping what a PUT leaves out', async () => {
    expect((await control('PUT', '/inboxes/qa/config', { status: 202, delay_ms: 5 })).status).toBe(200);
    expect((await control('PUT', '/inboxes/qa/config', { fail_first: 3 })).status).toBe(200);
    const data = await api.readDataFile();
    expect(data.inboxes).toContainEqual({ name: 'qa', status: 202, delay_ms: 5, fail_first: 3 });
    expect(data.inboxes.filter((i) => i.name === 'qa')).toHaveLength(1);
  });

  it('a new inbox can be configured and is saved too', async () => {
    const name = unique('box');
    const res = await control<{ data: unknown }>('PUT', `/inboxes/${name}/config`, { status: 201 });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ name, status: 201, delay_ms: 0, fail_first: 0 });
    expect((await api.readDataFile()).inboxes).toContainEqual({ name, status: 201, delay_ms: 0, fail_first: 0 });
    const direct = await fetch(`${api.url}/__emulator/inboxes/${name}`, { method: 'POST', body: 'hi' });
    expect(direct.status).toBe(201);
  });

  it.each<[string, unknown]>([
    ['a status below 100', { status: 99 }],
    ['a status above 599', { status: 600 }],
    ['a status that is not an integer', { status: 200.5 }],
    ['a status given as a string', { status: '200' }],
    ['a negative delay', { delay_ms: -1 }],
    ['a delay over 120000', { delay_ms: 120_001 }],
    ['a negative fail_first', { fail_first: -1 }],
    ['an unknown key', { fail: 1 }],
    ['a name in the body', { name: 'other' }],
    ['a body that is not an object', [1]],
  ])('400 for %s', async (_what, body) => {
    const res = await control<DetailJson>('PUT', '/inboxes/qa/config', body);
    expect(res.status).toBe(400);
    expect(typeof res.body.detail).toBe('string');
    const inbox = await control<InboxJson>('GET', '/inboxes/qa');
    expect(inbox.body.data).toMatchObject({ name: 'qa', ...DEFAULTS });
  });

  it('400 for an inbox name that is not letters, digits, _ or -', async () => {
    const res = await control<DetailJson>('PUT', '/inboxes/bad%20name/config', { status: 200 });
    expect(res.status).toBe(400);
  });

  it('DELETE …/requests forgets what the inbox received', async () => {
    await itemChange();
    expect((await control<InboxJson>('GET', '/inboxes/qa')).body.data.requests.length).toBeGreaterThan(0);
    const res = await control('DELETE', '/inboxes/qa/requests');
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await control<InboxJson>('GET', '/inboxes/qa')).body.data.requests).toEqual([]);
  });

  it('GET /__emulator/inboxes lists every inbox with its configuration and how many requests it holds', async () => {
    await itemChange();
    await itemChange();
    const res = await control<InboxListJson>('GET', '/inboxes');
    expect(res.status).toBe(200);
    expect(res.body.data).toContainEqual({ name: 'qa', ...DEFAULTS, received: 2 });
    // An inbox that only received something (no configuration) is listed with the defaults.
    const name = unique('adhoc');
    await fetch(`${api.url}/__emulator/inboxes/${name}`, { method: 'POST', body: '{"a":1}' });
    const again = await control<InboxListJson>('GET', '/inboxes');
    expect(again.body.data).toContainEqual({ name, ...DEFAULTS, received: 1 });
  });

  it('the receiver records any body: JSON is parsed, anything else has json null', async () => {
    const name = unique('raw');
    const res = await fetch(`${api.url}/__emulator/inboxes/${name}`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', 'x-custom': 'v' },
      body: 'plain words',
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ received: true, inbox: name });
    const inbox = await control<InboxJson>('GET', `/inboxes/${name}`);
    expect(inbox.body.data.requests).toHaveLength(1);
    expect(inbox.body.data.requests[0]).toMatchObject({ method: 'POST', body: 'plain words', json: null });
    expect(inbox.body.data.requests[0]!.headers['x-custom']).toBe('v');
  });
});

// ---------------------------------------------------------------------------------------------
// Persistence

describe('persistence', () => {
  it('deliveries survive a restart', async () => {
    const first = await startTestEmulator(fixtureDir);
    let second: Awaited<ReturnType<typeof createEmulator>> | null = null;
    try {
      receiver.plan(P.secret, { status: 500 });
      const res = await first.request('POST', '/posts/', {
        headerToken: first.tokens['acme']!.write,
        body: { title: 'Persisted', slug: 'persisted', status: 'published' },
      });
      expect(res.status).toBe(202);
      await settle(first);
      const before = await control<ListJson>('GET', '/deliveries?limit=2000', undefined, first.url);
      expect(before.body.data.length).toBeGreaterThanOrEqual(6);
      await first.emulator.stop();

      second = await createEmulator({ dataDir: first.dataDir, port: 0 });
      const running = await second.start();
      const after = await control<ListJson>('GET', '/deliveries?limit=2000', undefined, running.url);
      expect(after.status).toBe(200);
      expect(after.body.data).toEqual(before.body.data);
      const failed = after.body.data.find((d) => d.webhook_id === 'secret')!;
      expect(failed.state).toBe('failed');
      const one = await control<OneJson>('GET', `/deliveries/${failed.id}`, undefined, running.url);
      expect(one.body.data).toEqual(failed);
      // And a replay works on a delivery from before the restart.
      const replayed = await control<OneJson>('POST', `/deliveries/${failed.id}/replay`, {}, running.url);
      expect(replayed.status).toBe(201);
      await second.webhooks.idle();
      expect((await control<OneJson>('GET', `/deliveries/${replayed.body.data.id}`, undefined, running.url)).body.data.state).toBe(
        'succeeded',
      );
    } finally {
      await second?.stop();
      await rm(first.dataDir, { recursive: true, force: true });
    }
  });

  it('a damaged deliveries file is set aside, and the emulator starts with an empty log', async () => {
    const first = await startTestEmulator(fixtureDir);
    let second: Awaited<ReturnType<typeof createEmulator>> | null = null;
    try {
      await first.emulator.stop();
      await writeFile(join(first.dataDir, 'deliveries.json'), '{"deliveries": [ broken');
      const logged: unknown[] = [];
      const original = console.error;
      console.error = (...args: unknown[]) => void logged.push(args);
      try {
        second = await createEmulator({ dataDir: first.dataDir, port: 0 });
      } finally {
        console.error = original;
      }
      expect(logged).toHaveLength(1);
      const running = await second.start();
      expect((await control<ListJson>('GET', '/deliveries', undefined, running.url)).body.data).toEqual([]);
      const files = await readdir(first.dataDir);
      expect(files.some((f) => f.startsWith('deliveries.json.broken-'))).toBe(true);
    } finally {
      await second?.stop();
      await rm(first.dataDir, { recursive: true, force: true });
    }
  });

  it('DELETE /__emulator/deliveries forgets every delivery', async () => {
    const fresh = await startTestEmulator(fixtureDir);
    try {
      await fresh.request('POST', '/posts/', { headerToken: fresh.tokens['acme']!.write, body: { title: 'Forget me', slug: 'forget-me' } });
      await settle(fresh);
      expect((await control<ListJson>('GET', '/deliveries', undefined, fresh.url)).body.data.length).toBeGreaterThan(0);
      const res = await control('DELETE', '/deliveries', undefined, fresh.url);
      expect(res.status).toBe(204);
      expect((await control<ListJson>('GET', '/deliveries', undefined, fresh.url)).body.data).toEqual([]);
    } finally {
      await fresh.close();
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Last: nothing ever reached the disabled webhook

describe('a disabled webhook', () => {
  it('was never called by any change of this file, and has no delivery', async () => {
    await settle();
    expect(receiver.everything.length).toBeGreaterThan(100);
    expect(receiver.everything.filter((r) => r.path === P.disabled)).toEqual([]);
    expect(await deliveries({ webhook: 'disabled', limit: '2000' })).toEqual([]);
  });

  it('every kind a webhook may subscribe to was delivered to the "specific" receiver at least once, except page.delete', () => {
    const seen = new Set(receiver.everything.filter((r) => r.path === P.specific).map((r) => envelope(r).webhook.event));
    expect(SPECIFIC_KINDS.filter((k) => !seen.has(k))).toEqual(['page.delete']);
  });
});
