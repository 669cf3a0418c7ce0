/**
 * API tests of pages (spec: Page resource and the rules for `fields`, States and transitions (page
 * rows), POST /pages/, GET /pages/{page_type}/, PATCH and PUT /pages/{page_type}/{page_slug}/,
 * Errors, Limits; real-service notes: single page read, `levels`, `order`). The fixture
 * `test/fixtures/pages` is small and written for these tests: every value expected below can be
 * read off it.
 *
 * Emulators: `reader` is never written to (reads must match the fixture exactly); `writer` takes
 * the POST tests, each with its own slugs; each PATCH/PUT block has its own; tests that need a
 * page in a state only the fixture has (a published page with a newer draft, a schedule) or that
 * change the whole organization (the page cap, strict mode) start a fresh emulator of their own.
 * Media URLs written by tests point at a local HTTP server that answers 404/410 for "missing"
 * images, so the 404 check of the spec runs for real.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../server/domain/messages.js';
import type { Organization, Page, StoreData } from '../../server/store/schema.js';
import { startTestEmulator, type ApiResponse, type TestEmulator } from '../helpers/emulator.js';

// ---------------------------------------------------------------------------------------------
// Shapes the API answers with
// ---------------------------------------------------------------------------------------------

interface PageJson {
  slug: string;
  name?: string;
  published: string | null;
  updated: string | null;
  page_type: string | null;
  fields: Record<string, unknown>;
  scheduled: string | null;
  status: 'published' | 'draft' | 'scheduled';
}

interface PageMeta {
  count: number;
  next_page: number | null;
  previous_page: number | null;
}

interface OffsetMeta {
  count: number;
  next_offset: number | null;
  previous_offset: number | null;
}

interface ListJson {
  meta: PageMeta | OffsetMeta;
  data: PageJson[];
}

interface SingleJson {
  data: PageJson;
}

interface DetailJson {
  detail: string;
}

type FieldErrorsJson = Record<string, string[]>;
type Body = Record<string, unknown>;
type Query = Record<string, string | number>;

// ---------------------------------------------------------------------------------------------
// Fixture, emulators and the local media server
// ---------------------------------------------------------------------------------------------

const FIXTURE = fileURLToPath(new URL('../fixtures/pages/', import.meta.url));
const CDN = 'https://cdn.acme.example';

let reader: TestEmulator;
let writer: TestEmulator;
/** API base path (`/v2`), as reference URIs carry it. */
let base: string;

let mediaServer: Server;
/** `http://127.0.0.1:<port>`: `/missing…` answers 404, `/gone…` 410, `/head-refused…` 405 to HEAD and 404 to GET, `/slow…` 200 after 300 ms, anything else 200. */
let mediaBase: string;
/** `METHOD /path` of every request the media server got. */
const mediaHits: string[] = [];
/** A URL on a port nothing listens on. */
let unreachable: string;

function startMediaServer(): Promise<Server> {
  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    mediaHits.push(`${req.method ?? ''} ${url}`);
    const answer = (code: number) => {
      res.statusCode = code;
      res.setHeader('content-type', 'image/jpeg');
      res.end();
    };
    if (url.startsWith('/missing')) answer(404);
    else if (url.startsWith('/gone')) answer(410);
    else if (url.startsWith('/head-refused')) answer(req.method === 'HEAD' ? 405 : 404);
    else if (url.startsWith('/slow')) setTimeout(() => answer(200), 300);
    else answer(200);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/image.jpg`;
}

beforeAll(async () => {
  mediaServer = await startMediaServer();
  mediaBase = `http://127.0.0.1:${(mediaServer.address() as AddressInfo).port}`;
  unreachable = await closedPortUrl();
  reader = await startTestEmulator(FIXTURE);
  writer = await startTestEmulator(FIXTURE);
  base = new URL(reader.apiUrl).pathname.replace(/\/$/, '');
});

afterAll(async () => {
  await reader?.close();
  await writer?.close();
  mediaServer?.closeAllConnections();
  await new Promise<void>((resolve) => (mediaServer ? mediaServer.close(() => resolve()) : resolve()));
});

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

function tokensOf(api: TestEmulator, org = 'acme'): { read: string; write: string } {
  const tokens = api.tokens[org];
  if (!tokens) throw new Error(`the pages fixture has no organization "${org}"`);
  return tokens;
}

function listPages(api: TestEmulator, type: string, query: Query = {}, org = 'acme'): Promise<ApiResponse<ListJson>> {
  return api.get<ListJson>(`/pages/${type}/`, { token: tokensOf(api, org).read, query });
}

function readPage(api: TestEmulator, type: string, slug: string, query: Query = {}, org = 'acme'): Promise<ApiResponse<SingleJson>> {
  return api.get<SingleJson>(`/pages/${type}/${slug}/`, { token: tokensOf(api, org).read, query });
}

function write<T = unknown>(
  api: TestEmulator,
  method: string,
  path: string,
  body: unknown,
  options: { query?: Query; org?: string } = {},
): Promise<ApiResponse<T>> {
  return api.request<T>(method, path, { headerToken: tokensOf(api, options.org).write, body, query: options.query ?? {} });
}

const createPage = <T = unknown>(api: TestEmulator, body: Body, options: { query?: Query; org?: string } = {}) =>
  write<T>(api, 'POST', '/pages/', body, options);

/** POST, expect 202 pending, and wait for the background job. */
async function created(api: TestEmulator, body: Body, options: { query?: Query; org?: string } = {}): Promise<void> {
  const res = await createPage(api, body, options);
  expect(res.status, res.text).toBe(202);
  expect(res.body).toEqual({ status: 'pending' });
  await api.idle();
}

const slugsOf = (res: ApiResponse<ListJson>): string[] => res.body.data.map((p) => p.slug);

function org(data: StoreData, slug: string): Organization {
  const found = data.organizations.find((o) => o.slug === slug);
  if (!found) throw new Error(`no organization "${slug}"`);
  return found;
}

async function storedPage(api: TestEmulator, slug: string, orgSlug = 'acme'): Promise<Page> {
  const page = org(await api.readDataFile(), orgSlug).pages.find((p) => p.slug === slug && p.deleted === null);
  if (!page) throw new Error(`no live page "${slug}" in the data file`);
  return page;
}

let counter = 0;
function uniqueSlug(base: string): string {
  counter += 1;
  return `${base}-${counter}`;
}

/** Every product field, empty as the spec sends unused optional fields (""), with overrides. */
function productFields(overrides: Body = {}): Body {
  return {
    headline: 'Untitled',
    summary: '',
    body: '',
    price: '',
    launch_date: '',
    in_stock: '',
    color: '',
    hero: '',
    brand: '',
    related: '',
    seo: '',
    gallery: '',
    ...overrides,
  };
}

/** How a product written with productFields() reads back (default levels, media as URLs). */
function emptyProductRead(overrides: Body = {}): Body {
  return {
    headline: 'Untitled',
    summary: '',
    body: '',
    price: null,
    launch_date: null,
    in_stock: null,
    color: '',
    hero: '',
    brand: null,
    related: [],
    seo: null,
    gallery: [],
    ...overrides,
  };
}

/**
 * A media URL a test wrote, as reads show it: the URL itself, or the emulator's CDN URL once the
 * background download (spec: "The service downloads the media and stores it in the media
 * library") has put the file into the library.
 */
function mediaUrl(written: string): unknown {
  const escaped = written.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return expect.stringMatching(new RegExp(`^(?:${escaped}|.+/cdn/[A-Za-z0-9]{20})$`));
}

const pageUri = (type: string, slug: string) => `${base}/pages/${type}/${slug}/`;
const itemUri = (key: string, id: number) => `${base}/content/?keys=${key}[_id=${id}]`;

/** Resolves once the wall clock is past `iso`, so two timestamps a test compares can differ. */
async function clockPast(iso: string | null): Promise<void> {
  const at = Date.parse(iso ?? '');
  while (Date.now() <= at) await new Promise((resolve) => setTimeout(resolve, 2));
}

async function withFreshEmulator(run: (api: TestEmulator) => Promise<void>, options: { strict?: boolean } = {}): Promise<void> {
  const api = await startTestEmulator(FIXTURE, options);
  try {
    await run(api);
  } finally {
    await api.close();
  }
}

// ---------------------------------------------------------------------------------------------
// Expected records of the fixture
// ---------------------------------------------------------------------------------------------

const brandAcme = { meta: { id: 1 }, name: 'Acme Gear', country: 'US' };
const brandTrailhead = { meta: { id: 2 }, name: 'Trailhead', country: 'CA' };

/** rain-jacket's live version as a reference of a page read at default levels (its own references are URIs). */
function rainJacketNested(): PageJson {
  return {
    slug: 'rain-jacket',
    name: 'Rain Jacket',
    published: '2026-01-05T10:00:00.000Z',
    updated: '2026-03-01T10:00:00.000Z',
    page_type: 'product',
    fields: {
      headline: 'Rain Jacket',
      summary: 'Stay dry.',
      body: '',
      price: 80,
      launch_date: null,
      in_stock: false,
      color: 'blue',
      hero: `${CDN}/jacket.jpg`,
      brand: itemUri('brands', 2),
      related: [],
      seo: { title: 'Jacket SEO', description: '', image: '' },
      gallery: [],
    },
    scheduled: null,
    status: 'published',
  };
}

/** trail-boots as a default read shows it (levels 2: one level of references expanded). */
function trailBoots(): PageJson {
  return {
    slug: 'trail-boots',
    name: 'Trail Boots',
    published: '2026-01-10T10:00:00.000Z',
    updated: '2026-01-12T10:00:00.000Z',
    page_type: 'product',
    fields: {
      headline: 'Trail Boots',
      summary: 'Waterproof boots for long days.',
      body: '<p>Built for the trail.</p>',
      price: 60,
      launch_date: '2026-02-01',
      in_stock: true,
      color: 'red',
      hero: `${CDN}/boots.jpg`,
      brand: brandAcme,
      related: [rainJacketNested()],
      seo: { title: 'Boots SEO', description: 'Best boots', image: `${CDN}/boots-seo.jpg` },
      gallery: [
        { image: `${CDN}/boots-1.jpg`, caption: 'Side' },
        { image: `${CDN}/boots-2.jpg`, caption: 'Sole' },
      ],
    },
    scheduled: null,
    status: 'published',
  };
}

// =============================================================================================
// GET /pages/{page_type}/
// =============================================================================================

describe('GET /pages/{page_type}/: versions and visibility', () => {
  it('lists only pages with a live version, showing that version with status "published"', async () => {
    const res = await listPages(reader, 'product');
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ count: 3, next_page: null, previous_page: null });
    expect(slugsOf(res)).toEqual(['trail-boots', 'rain-jacket', 'camp-stove']);
    expect(res.body.data[0]).toEqual(trailBoots());
    const [, rain, stove] = res.body.data;
    // A newer draft stays out of non-preview reads.
    expect(rain).toMatchObject({ status: 'published', scheduled: null, fields: { headline: 'Rain Jacket', price: 80 } });
    // A scheduled change too, and its schedule: it belongs to the draft (docs/spec-gaps.md).
    expect(stove).toMatchObject({
      status: 'published',
      scheduled: null,
      published: '2026-01-20T10:00:00.000Z',
      fields: { headline: 'Camp Stove', price: 45, brand: null },
    });
  });

  it('every record has exactly slug, name, published, updated, page_type, fields, scheduled, status', async () => {
    const res = await listPages(reader, 'product', { preview: 1 });
    for (const page of res.body.data) {
      expect(Object.keys(page).sort()).toEqual(['fields', 'name', 'page_type', 'published', 'scheduled', 'slug', 'status', 'updated']);
    }
  });

  it('preview=1 shows the latest version: draft, scheduled, or published when there is no draft', async () => {
    const res = await listPages(reader, 'product', { preview: 1 });
    expect(res.status).toBe(200);
    expect(slugsOf(res)).toEqual(['trail-boots', 'rain-jacket', 'camp-stove', 'tent-draft', 'lantern-scheduled']);
    const bySlug = new Map(res.body.data.map((p) => [p.slug, p]));
    expect(bySlug.get('trail-boots')).toMatchObject({ status: 'published', fields: { headline: 'Trail Boots' } });
    expect(bySlug.get('rain-jacket')).toMatchObject({
      status: 'draft',
      published: '2026-01-05T10:00:00.000Z',
      scheduled: null,
      fields: { headline: 'Rain Jacket v2', summary: 'Stay drier.', price: 85, hero: `${CDN}/jacket-v2.jpg` },
    });
    expect(bySlug.get('camp-stove')).toMatchObject({
      status: 'scheduled',
      scheduled: '2030-06-01T09:00:00Z',
      fields: { headline: 'Camp Stove (scheduled)', price: 49 },
    });
    expect(bySlug.get('tent-draft')).toEqual({
      slug: 'tent-draft',
      name: 'Tent',
      published: null,
      updated: null,
      page_type: 'product',
      fields: {
        headline: 'Tent',
        summary: '',
        body: '',
        price: 200,
        launch_date: null,
        in_stock: false,
        color: 'green',
        hero: '',
        brand: { ...brandAcme },
        related: [],
        seo: null,
        gallery: [],
      },
      scheduled: null,
      status: 'draft',
    });
    expect(bySlug.get('lantern-scheduled')).toMatchObject({ status: 'scheduled', scheduled: '2030-07-01T00:00:00Z', published: null });
  });

  it('accepts preview=true and preview=0', async () => {
    expect(slugsOf(await listPages(reader, 'product', { preview: 'true' }))).toHaveLength(5);
    expect(slugsOf(await listPages(reader, 'product', { preview: 0 }))).toHaveLength(3);
    const bad = await listPages(reader, 'product', { preview: 2 });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ detail: messages.flagParam('preview') });
  });

  it('never shows a deleted page, even with preview', async () => {
    for (const query of [{}, { preview: 1 }] as Query[]) {
      expect(slugsOf(await listPages(reader, 'product', query))).not.toContain('old-product');
    }
  });

  it('an unknown page type → 404 {detail: "Page type not found."}', async () => {
    const res = await listPages(reader, 'nope');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: messages.pageTypeNotFound });
  });

  it('filters matching nothing give an empty list (page 1 is never out of range)', async () => {
    const res = await listPages(reader, 'product', { 'fields.color': 'blue', 'fields.in_stock': 'true' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ meta: { count: 0, next_page: null, previous_page: null }, data: [] });
  });
});

describe('GET /pages/*/: Single Pages', () => {
  it('lists published Single Pages without `name`, with page_type null and their own field definitions', async () => {
    const res = await listPages(reader, '*');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      meta: { count: 1, next_page: null, previous_page: null },
      data: [
        {
          slug: 'about',
          published: '2026-01-01T09:00:00.000Z',
          updated: '2026-01-01T09:00:00.000Z',
          page_type: null,
          fields: { title: 'About Acme', text: '<p>Since 1990.</p>', photo: `${CDN}/team.jpg` },
          scheduled: null,
          status: 'published',
        },
      ],
    });
  });

  it('preview=1 adds draft Single Pages', async () => {
    const res = await listPages(reader, '*', { preview: 1 });
    expect(slugsOf(res)).toEqual(['about', 'contact']);
    expect(res.body.data[1]).toEqual({
      slug: 'contact',
      published: null,
      updated: null,
      page_type: null,
      fields: { title: 'Contact us', email: 'hello@acme.example' },
      scheduled: null,
      status: 'draft',
    });
  });

  it('order and fields.* filters are refused for "*" → 400 singlePageFilters', async () => {
    for (const query of [{ order: 'published' }, { order: '-updated' }, { 'fields.title': 'About Acme' }] as Query[]) {
      const res = await listPages(reader, '*', query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body).toEqual({ detail: messages.singlePageFilters });
    }
  });

  it('locale, alt_media_text and pagination apply to "*"', async () => {
    const res = await listPages(reader, '*', { locale: 'es', alt_media_text: 1, preview: 1, page_size: 1, page: 2 });
    expect(res.body.meta).toEqual({ count: 2, next_page: null, previous_page: 1 });
    expect(slugsOf(res)).toEqual(['contact']);
    const about = await listPages(reader, '*', { locale: 'es', alt_media_text: 1 });
    expect(about.body.data[0]?.fields).toEqual({ title: 'Sobre Acme', text: '<p>Desde 1990.</p>', photo: { url: `${CDN}/team.jpg` } });
  });
});

describe('GET /pages/{page_type}/: pagination', () => {
  it('page/page_size gives the page-based meta', async () => {
    const first = await listPages(reader, 'product', { preview: 1, page_size: 2 });
    expect(first.body.meta).toEqual({ count: 5, next_page: 2, previous_page: null });
    expect(slugsOf(first)).toEqual(['trail-boots', 'rain-jacket']);
    const second = await listPages(reader, 'product', { preview: 1, page_size: 2, page: 2 });
    expect(second.body.meta).toEqual({ count: 5, next_page: 3, previous_page: 1 });
    expect(slugsOf(second)).toEqual(['camp-stove', 'tent-draft']);
    const last = await listPages(reader, 'product', { preview: 1, page_size: 2, page: 3 });
    expect(last.body.meta).toEqual({ count: 5, next_page: null, previous_page: 2 });
    expect(slugsOf(last)).toEqual(['lantern-scheduled']);
  });

  it('a page past the last → 404 {detail: "Invalid page."}', async () => {
    const res = await listPages(reader, 'product', { preview: 1, page_size: 2, page: 4 });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: messages.invalidPage });
  });

  it('limit/offset gives the offset-based meta', async () => {
    const first = await listPages(reader, 'product', { preview: 1, limit: 2 });
    expect(first.body.meta).toEqual({ count: 5, next_offset: 2, previous_offset: null });
    expect(slugsOf(first)).toEqual(['trail-boots', 'rain-jacket']);
    const middle = await listPages(reader, 'product', { preview: 1, limit: 2, offset: 2 });
    expect(middle.body.meta).toEqual({ count: 5, next_offset: 4, previous_offset: 0 });
    expect(slugsOf(middle)).toEqual(['camp-stove', 'tent-draft']);
    const last = await listPages(reader, 'product', { preview: 1, limit: 2, offset: 4 });
    expect(last.body.meta).toEqual({ count: 5, next_offset: null, previous_offset: 2 });
    expect(slugsOf(last)).toEqual(['lantern-scheduled']);
  });

  it('both pairs at once → 400 paginationConflict; out-of-range sizes → 400', async () => {
    const both = await listPages(reader, 'product', { page: 1, limit: 2 });
    expect(both.status).toBe(400);
    expect(both.body).toEqual({ detail: messages.paginationConflict });
    const size = await listPages(reader, 'product', { page_size: 101 });
    expect(size.status).toBe(400);
    expect(size.body).toEqual({ detail: messages.intParam('page_size', 1, 100) });
  });
});

describe('GET /pages/{page_type}/: locale and alt_media_text', () => {
  it('locale=es reads the Spanish values, references included; fields the locale lacks read empty', async () => {
    const res = await listPages(reader, 'product', { locale: 'es' });
    expect(res.status).toBe(200);
    const [boots, rain] = res.body.data;
    expect(boots?.fields).toMatchObject({
      headline: 'Botas de montaña',
      summary: 'Botas impermeables.',
      brand: { meta: { id: 1 }, name: 'Acme Equipo', country: 'EE. UU.' },
      seo: { title: 'Botas SEO', description: 'Las mejores botas' },
      gallery: [],
    });
    expect(rain?.fields).toEqual({
      headline: 'Chaqueta impermeable',
      summary: '',
      body: '',
      price: 80,
      launch_date: null,
      in_stock: null,
      color: '',
      hero: '',
      brand: { meta: { id: 2 }, name: 'Sendero', country: 'Canadá' },
      related: [],
      seo: null,
      gallery: [],
    });
  });

  it('locale=en is the default', async () => {
    expect((await listPages(reader, 'product', { locale: 'en' })).body).toEqual((await listPages(reader, 'product')).body);
  });

  it('an unknown locale → 400; a locale on an organization without locales → 400', async () => {
    const unknown = await listPages(reader, 'product', { locale: 'fr' });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ detail: messages.unknownLocale('fr', 'en, es') });
    const flat = await listPages(reader, 'product', { locale: 'en' }, 'other');
    expect(flat.status).toBe(400);
    expect(flat.body).toEqual({ detail: messages.noLocalesRead });
  });

  it('alt_media_text=1: media are {url, alt}, or {url} when there is no alt, everywhere (components, repeaters)', async () => {
    const res = await listPages(reader, 'product', { alt_media_text: 1, levels: 1 });
    const [boots, rain, stove] = res.body.data;
    expect(boots?.fields['hero']).toEqual({ url: `${CDN}/boots.jpg`, alt: 'Boots on a rock' });
    expect(boots?.fields['seo']).toEqual({ title: 'Boots SEO', description: 'Best boots', image: { url: `${CDN}/boots-seo.jpg` } });
    expect(boots?.fields['gallery']).toEqual([
      { image: { url: `${CDN}/boots-1.jpg`, alt: 'Side view' }, caption: 'Side' },
      { image: { url: `${CDN}/boots-2.jpg` }, caption: 'Sole' },
    ]);
    expect(rain?.fields['hero']).toEqual({ url: `${CDN}/jacket.jpg` });
    // Other field types are unchanged.
    expect(boots?.fields).toMatchObject({ headline: 'Trail Boots', price: 60, in_stock: true, brand: itemUri('brands', 1) });
    // A media field with no value.
    expect(stove?.fields['hero']).toBeNull();
  });

  it('alt_media_text=0 (the default) gives URL strings; the alt follows the locale', async () => {
    const plain = await listPages(reader, 'product', { alt_media_text: 0 });
    expect(plain.body.data[0]?.fields['hero']).toBe(`${CDN}/boots.jpg`);
    const es = await listPages(reader, 'product', { alt_media_text: 1, locale: 'es' });
    expect(es.body.data[0]?.fields['hero']).toEqual({ url: `${CDN}/boots.jpg`, alt: 'Botas sobre una roca' });
  });

  it('alt_media_text applies inside expanded references too', async () => {
    const res = await readPage(reader, 'product', 'trail-boots', { alt_media_text: 1 });
    const related = res.body.data.fields['related'] as PageJson[];
    expect(related[0]?.fields['hero']).toEqual({ url: `${CDN}/jacket.jpg` });
    expect(related[0]?.fields['seo']).toEqual({ title: 'Jacket SEO', description: '', image: null });
  });

  it('alt_media_text=2 → 400', async () => {
    const res = await listPages(reader, 'product', { alt_media_text: 2 });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: messages.flagParam('alt_media_text') });
  });
});

describe('GET /pages/{page_type}/: levels', () => {
  it('levels=1: references are URIs (/v2/pages/<type>/<slug>/ and /v2/content/?keys=<key>[_id=<id>])', async () => {
    const res = await listPages(reader, 'product', { levels: 1 });
    expect(res.body.data[0]?.fields).toMatchObject({ brand: itemUri('brands', 1), related: [pageUri('product', 'rain-jacket')] });
    const landing = await listPages(reader, 'landing', { levels: 1 });
    expect(landing.body.data[0]?.fields).toEqual({
      heading: 'Welcome',
      featured: pageUri('product', 'trail-boots'),
      partners: [itemUri('brands', 1), itemUri('brands', 2)],
    });
    expect(itemUri('brands', 1)).toBe('/v2/content/?keys=brands[_id=1]');
  });

  it('the default (2) expands one level: the referenced records carry their own references as URIs', async () => {
    const byDefault = await listPages(reader, 'landing');
    expect(byDefault.body).toEqual((await listPages(reader, 'landing', { levels: 2 })).body);
    const home = byDefault.body.data[0];
    const featured = {
      ...trailBoots(),
      fields: { ...trailBoots().fields, brand: itemUri('brands', 1), related: [pageUri('product', 'rain-jacket')] },
    };
    expect(home).toEqual({
      slug: 'home',
      name: 'Home',
      published: '2026-01-03T10:00:00.000Z',
      updated: '2026-01-03T10:00:00.000Z',
      page_type: 'landing',
      fields: { heading: 'Welcome', featured, partners: [brandAcme, brandTrailhead] },
      scheduled: null,
      status: 'published',
    });
  });

  it('levels=3 expands two levels; 4 and 5 are accepted', async () => {
    const res = await listPages(reader, 'landing', { levels: 3 });
    expect(res.body.data[0]?.fields).toEqual({ heading: 'Welcome', featured: trailBoots(), partners: [brandAcme, brandTrailhead] });
    for (const levels of [4, 5]) {
      const deeper = await listPages(reader, 'landing', { levels });
      expect(deeper.status).toBe(200);
      // rain-jacket, at the third level, now shows its brand.
      const featured = deeper.body.data[0]?.fields['featured'] as PageJson;
      expect((featured.fields['related'] as PageJson[])[0]?.fields['brand']).toEqual(brandTrailhead);
    }
  });

  it.each(['0', '6', '-1', 'two', '1.5', ''])('levels=%j → 400 levelsParam', async (levels) => {
    const res = await listPages(reader, 'product', { levels });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: messages.levelsParam });
  });

  it('a reference to content the read cannot see is null (single) or left out (multiple); preview shows it', async () => {
    const live = await listPages(reader, 'landing');
    expect(live.body.data[1]).toMatchObject({ slug: 'spring-sale', fields: { featured: null, partners: [brandAcme] } });
    const preview = await listPages(reader, 'landing', { preview: 1 });
    const sale = preview.body.data[1];
    expect(sale?.fields['featured']).toMatchObject({ slug: 'tent-draft', status: 'draft', fields: { headline: 'Tent' } });
    expect(sale?.fields['partners']).toEqual([{ meta: { id: 3 }, name: 'Hidden Brand', country: 'MX' }, brandAcme]);
    // At level 1 too: no URI leaks a hidden target; preview shows the URIs.
    const uris = await listPages(reader, 'landing', { levels: 1 });
    expect(uris.body.data[1]?.fields).toEqual({ heading: 'Spring Sale', featured: null, partners: [itemUri('brands', 1)] });
    const previewUris = await listPages(reader, 'landing', { levels: 1, preview: 1 });
    expect(previewUris.body.data[1]?.fields).toEqual({
      heading: 'Spring Sale',
      featured: pageUri('product', 'tent-draft'),
      partners: [itemUri('brands', 3), itemUri('brands', 1)],
    });
  });
});

describe('GET /pages/{page_type}/: order', () => {
  it.each([
    ['published', ['rain-jacket', 'trail-boots', 'camp-stove']],
    ['-published', ['camp-stove', 'trail-boots', 'rain-jacket']],
    ['updated', ['trail-boots', 'camp-stove', 'rain-jacket']],
    ['-updated', ['rain-jacket', 'camp-stove', 'trail-boots']],
    ['price', ['camp-stove', 'trail-boots', 'rain-jacket']],
    ['-price', ['rain-jacket', 'trail-boots', 'camp-stove']],
    ['headline', ['camp-stove', 'rain-jacket', 'trail-boots']],
    ['-headline', ['trail-boots', 'rain-jacket', 'camp-stove']],
  ])('order=%s', async (order, expected) => {
    const res = await listPages(reader, 'product', { order });
    expect(res.status).toBe(200);
    expect(slugsOf(res)).toEqual(expected);
  });

  it('a field order uses the values of the read locale', async () => {
    // es headlines: Botas (trail-boots), Chaqueta (rain-jacket), Hornillo (camp-stove).
    expect(slugsOf(await listPages(reader, 'product', { order: 'headline', locale: 'es' }))).toEqual([
      'trail-boots',
      'rain-jacket',
      'camp-stove',
    ]);
  });

  it('a field order uses the version the read sees (preview: the drafts), empty values last in both directions', async () => {
    expect(slugsOf(await listPages(reader, 'product', { order: 'price', preview: 1 }))).toEqual([
      'lantern-scheduled',
      'camp-stove',
      'trail-boots',
      'rain-jacket',
      'tent-draft',
    ]);
    expect(slugsOf(await listPages(reader, 'product', { order: 'published', preview: 1 }))).toEqual([
      'rain-jacket',
      'trail-boots',
      'camp-stove',
      'tent-draft',
      'lantern-scheduled',
    ]);
    expect(slugsOf(await listPages(reader, 'product', { order: '-published', preview: 1 }))).toEqual([
      'camp-stove',
      'trail-boots',
      'rain-jacket',
      'tent-draft',
      'lantern-scheduled',
    ]);
  });

  it('order combines with filters and pagination', async () => {
    const res = await listPages(reader, 'product', { order: '-price', 'fields.in_stock': 'true', page_size: 1 });
    expect(res.body.meta).toEqual({ count: 2, next_page: 2, previous_page: null });
    expect(slugsOf(res)).toEqual(['trail-boots']);
  });

  it.each(['nope', '-nope', 'hero', 'brand', 'seo', 'name', '-'])('order=%s → 400 orderParam', async (order) => {
    const res = await listPages(reader, 'product', { order });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      detail: messages.orderParam('published, updated, headline, summary, body, price, launch_date, in_stock, color'),
    });
  });
});

describe('GET /pages/{page_type}/: fields.* filters', () => {
  it.each<[Query, string[]]>([
    [{ 'fields.color': 'red' }, ['trail-boots']],
    [{ 'fields.headline': 'Rain Jacket' }, ['rain-jacket']],
    [{ 'fields.price': '45' }, ['camp-stove']],
    [{ 'fields.in_stock': 'true' }, ['trail-boots', 'camp-stove']],
    [{ 'fields.in_stock': 'false' }, ['rain-jacket']],
    [{ 'fields.launch_date': '2026-02-01' }, ['trail-boots']],
    [{ 'fields.seo.title': 'Boots SEO' }, ['trail-boots']],
    [{ 'fields.brand': '2' }, ['rain-jacket']],
    [{ 'fields.brand.name': 'Trailhead' }, ['rain-jacket']],
    [{ 'fields.brand.country': 'US' }, ['trail-boots']],
    [{ 'fields.related': 'rain-jacket' }, ['trail-boots']],
    [{ 'fields.related.slug': 'rain-jacket' }, ['trail-boots']],
    [{ 'fields.related.headline': 'Rain Jacket' }, ['trail-boots']],
    [{ 'fields.gallery.caption': 'Sole' }, ['trail-boots']],
    [{ 'fields.hero': `${CDN}/jacket.jpg` }, ['rain-jacket']],
    [{ 'fields.hero.alt': 'Boots on a rock' }, ['trail-boots']],
    [{ 'fields.in_stock': 'true', 'fields.color': 'green' }, ['camp-stove']],
    [{ 'fields.in_stock': 'true', 'fields.brand.name': 'Acme Gear', 'fields.seo.title': 'Boots SEO' }, ['trail-boots']],
    [{ 'fields.in_stock': 'true', 'fields.color': 'blue' }, []],
    [{ 'fields.color': 'purple' }, []],
  ])('%j → %j', async (query, expected) => {
    const res = await listPages(reader, 'product', query);
    expect(res.status).toBe(200);
    expect(slugsOf(res)).toEqual(expected);
    expect(res.body.meta).toMatchObject({ count: expected.length });
  });

  it('filters follow references of landing pages (page and multiple collection references)', async () => {
    expect(slugsOf(await listPages(reader, 'landing', { 'fields.featured.headline': 'Trail Boots' }))).toEqual(['home']);
    expect(slugsOf(await listPages(reader, 'landing', { 'fields.featured.brand.name': 'Acme Gear' }))).toEqual(['home']);
    expect(slugsOf(await listPages(reader, 'landing', { 'fields.partners.name': 'Trailhead' }))).toEqual(['home']);
    expect(slugsOf(await listPages(reader, 'landing', { 'fields.partners.name': 'Acme Gear' }))).toEqual(['home', 'spring-sale']);
  });

  it('filters use the read locale and the version the read sees', async () => {
    expect(slugsOf(await listPages(reader, 'product', { 'fields.brand.name': 'Sendero', locale: 'es' }))).toEqual(['rain-jacket']);
    expect(slugsOf(await listPages(reader, 'product', { 'fields.brand.name': 'Sendero' }))).toEqual([]);
    expect(slugsOf(await listPages(reader, 'product', { 'fields.headline': 'Rain Jacket v2' }))).toEqual([]);
    expect(slugsOf(await listPages(reader, 'product', { 'fields.headline': 'Rain Jacket v2', preview: 1 }))).toEqual(['rain-jacket']);
    // A draft collection item is seen only with preview.
    expect(slugsOf(await listPages(reader, 'product', { 'fields.brand.name': 'Hidden Brand' }))).toEqual([]);
    expect(slugsOf(await listPages(reader, 'product', { 'fields.brand.name': 'Hidden Brand', preview: 1 }))).toEqual(['camp-stove']);
  });

  it.each(['fields.nope', 'fields.seo.nope', 'fields.brand.nope', 'fields.related.nope', 'fields.headline.x', 'fields.seo'])(
    'an unknown field path (%s) → 400 unknownFilter',
    async (param) => {
      const res = await listPages(reader, 'product', { [param]: 'x' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ detail: messages.unknownFilter(param, 'page type "product"') });
    },
  );

  it('a media filter matches the URL reads show, also once the file is in the media library', async () => {
    const slug = uniqueSlug('media-filter');
    await created(writer, {
      title: 'Media filter',
      slug,
      page_type: 'product',
      status: 'published',
      fields: productFields({ headline: 'Media filter', hero: { url: `${mediaBase}/filter-hero.jpg`, alt: 'Filter alt' } }),
    });
    const shown = (await readPage(writer, 'product', slug)).body.data.fields['hero'];
    expect(shown).toEqual(mediaUrl(`${mediaBase}/filter-hero.jpg`));
    for (const param of ['fields.hero', 'fields.hero.url']) {
      const res = await listPages(writer, 'product', { [param]: String(shown) });
      expect(slugsOf(res), `${param}=${String(shown)}`).toEqual([slug]);
    }
    expect(slugsOf(await listPages(writer, 'product', { 'fields.hero.alt': 'Filter alt' }))).toEqual([slug]);
  });

  it('a filter given twice → 400 repeatedParam', async () => {
    const res = await reader.get<DetailJson>('/pages/product/?fields.color=red&fields.color=blue', { token: tokensOf(reader).read });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: messages.repeatedParam('fields.color') });
  });

  it('a filter on an unknown page type is still 404 Page type not found', async () => {
    const res = await listPages(reader, 'nope', { 'fields.x': '1' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: messages.pageTypeNotFound });
  });
});

describe('methods the page paths do not have', () => {
  it.each([
    ['DELETE', '/pages/product/trail-boots/', 'GET, PATCH, PUT, HEAD'],
    ['POST', '/pages/product/', 'GET, HEAD'],
    ['GET', '/pages/', 'POST'],
  ])('%s %s → 405 with Allow', async (method, path, allow) => {
    const res = await reader.request<DetailJson>(method, path, { headerToken: tokensOf(reader).write });
    expect(res.status).toBe(405);
    expect(res.body).toEqual({ detail: messages.methodNotAllowed(method) });
    expect(res.headers.get('allow')).toBe(allow);
  });
});

describe('GET /pages/{page_type}/: authentication', () => {
  it('no token → 401; an unknown token → 401; the header form reads', async () => {
    const none = await reader.get<DetailJson>('/pages/product/');
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ detail: messages.noCredentials });
    const bad = await reader.get<DetailJson>('/pages/product/', { token: 'not-a-real-token' });
    expect(bad.status).toBe(401);
    expect(bad.body).toEqual({ detail: messages.invalidToken });
    const header = await reader.get<ListJson>('/pages/product/', { headerToken: tokensOf(reader).read });
    expect(header.status).toBe(200);
    expect(slugsOf(header)).toEqual(['trail-boots', 'rain-jacket', 'camp-stove']);
  });
});

// =============================================================================================
// GET /pages/{page_type}/{page_slug}/ (extension: the real service's single page read)
// =============================================================================================

describe('GET /pages/{page_type}/{page_slug}/ (extension)', () => {
  it('answers {data: page} without meta, the record of the list', async () => {
    const res = await readPage(reader, 'product', 'trail-boots');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: trailBoots() });
  });

  it('"*" matches a page of any type; a Single Page keeps its name and has page_type null', async () => {
    expect((await readPage(reader, '*', 'trail-boots')).body).toEqual({ data: trailBoots() });
    const about = await readPage(reader, '*', 'about');
    expect(about.status).toBe(200);
    expect(about.body.data).toEqual({
      slug: 'about',
      name: 'About us',
      published: '2026-01-01T09:00:00.000Z',
      updated: '2026-01-01T09:00:00.000Z',
      page_type: null,
      fields: { title: 'About Acme', text: '<p>Since 1990.</p>', photo: `${CDN}/team.jpg` },
      scheduled: null,
      status: 'published',
    });
  });

  it('shows the live version; preview=1 the latest (draft, scheduled)', async () => {
    expect((await readPage(reader, 'product', 'rain-jacket')).body.data).toMatchObject({ status: 'published', fields: { price: 80 } });
    expect((await readPage(reader, 'product', 'rain-jacket', { preview: 1 })).body.data).toMatchObject({
      status: 'draft',
      fields: { price: 85 },
    });
    expect((await readPage(reader, 'product', 'camp-stove', { preview: 1 })).body.data).toMatchObject({
      status: 'scheduled',
      scheduled: '2030-06-01T09:00:00Z',
    });
    expect((await readPage(reader, 'product', 'lantern-scheduled', { preview: 1 })).body.data).toMatchObject({
      status: 'scheduled',
      published: null,
    });
    expect((await readPage(reader, '*', 'contact', { preview: 1 })).body.data).toMatchObject({ status: 'draft', page_type: null });
  });

  it.each([
    ['product', 'tent-draft', 'a draft without preview'],
    ['product', 'lantern-scheduled', 'a scheduled first publication without preview'],
    ['*', 'contact', 'a draft Single Page without preview'],
    ['product', 'nope', 'an unknown slug'],
    ['product', 'old-product', 'a deleted page'],
    ['landing', 'trail-boots', 'a page of another type'],
    ['product', 'about', 'a Single Page under a page type'],
  ])('/pages/%s/%s/ (%s) → 404 Page not found.', async (type, slug) => {
    const res = await readPage(reader, type, slug);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: messages.pageNotFound });
  });

  it('a deleted page stays 404 with preview', async () => {
    const res = await readPage(reader, 'product', 'old-product', { preview: 1 });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: messages.pageNotFound });
  });

  it('an unknown page type → 404 Page type not found.', async () => {
    const res = await readPage(reader, 'nope', 'trail-boots');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: messages.pageTypeNotFound });
  });

  it('accepts locale, levels and alt_media_text', async () => {
    const res = await readPage(reader, 'landing', 'home', { locale: 'es', levels: 1 });
    expect(res.body.data.fields).toEqual({
      heading: 'Bienvenidos',
      featured: pageUri('product', 'trail-boots'),
      partners: [itemUri('brands', 2)],
    });
    const media = await readPage(reader, 'product', 'trail-boots', { alt_media_text: 1 });
    expect(media.body.data.fields['hero']).toEqual({ url: `${CDN}/boots.jpg`, alt: 'Boots on a rock' });
    const deep = await readPage(reader, 'landing', 'home', { levels: 3 });
    expect(deep.body.data.fields['featured']).toEqual(trailBoots());
    const bad = await readPage(reader, 'product', 'trail-boots', { levels: 9 });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ detail: messages.levelsParam });
    const locale = await readPage(reader, 'product', 'trail-boots', { locale: 'fr' });
    expect(locale.status).toBe(400);
  });

  it('with --strict the route answers 404', async () => {
    await withFreshEmulator(
      async (api) => {
        const single = await readPage(api, 'product', 'trail-boots');
        expect(single.status).toBe(404);
        expect(single.body).toEqual({ detail: messages.notFound });
      },
      { strict: true },
    );
  });

  it('with --strict the spec routes still work (list, POST, PATCH)', async () => {
    await withFreshEmulator(
      async (api) => {
        const list = await listPages(api, 'product');
        expect(list.status).toBe(200);
        expect(slugsOf(list)).toEqual(['trail-boots', 'rain-jacket', 'camp-stove']);
        const patch = await write(api, 'PATCH', '/pages/product/trail-boots/', { fields: { en: { summary: 'Strict' } } });
        expect(patch.status).toBe(202);
        const slug = uniqueSlug('strict');
        await created(api, {
          title: 'Strict',
          slug,
          page_type: 'landing',
          status: 'published',
          fields: { heading: 'S', featured: '', partners: '' },
        });
        expect(slugsOf(await listPages(api, 'landing'))).toContain(slug);
        expect((await listPages(api, 'product')).body.data[0]?.fields['summary']).toBe('Strict');
      },
      { strict: true },
    );
  });
});

// =============================================================================================
// POST /pages/
// =============================================================================================

describe('POST /pages/', () => {
  it('answers 202 pending; the page is a draft by default, seen only with preview once the job ran', async () => {
    const slug = uniqueSlug('new-draft');
    const res = await createPage(writer, {
      title: 'New Draft',
      slug,
      page_type: 'product',
      fields: productFields({ headline: 'Fresh', price: 12, color: 'green', in_stock: true, seo: { title: 'T' } }),
    });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ status: 'pending' });
    await writer.idle();
    expect(
      writer.emulator.jobs
        .list()
        .filter((j) => j.kind === 'page.create')
        .at(-1),
    ).toMatchObject({ status: 'succeeded' });
    expect(slugsOf(await listPages(writer, 'product'))).not.toContain(slug);
    expect((await readPage(writer, 'product', slug)).status).toBe(404);
    const read = await readPage(writer, 'product', slug, { preview: 1 });
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual({
      slug,
      name: 'New Draft',
      published: null,
      updated: null,
      page_type: 'product',
      fields: emptyProductRead({
        headline: 'Fresh',
        price: 12,
        color: 'green',
        in_stock: true,
        seo: { title: 'T', description: '', image: '' },
      }),
      scheduled: null,
      status: 'draft',
    });
    expect(slugsOf(await listPages(writer, 'product', { preview: 1 }))).toContain(slug);
    // The version records who saved it: the organization owner (docs/spec-gaps.md, editor of API writes).
    expect((await storedPage(writer, slug)).draft_version).toMatchObject({ editor: 'Ana Ruiz' });
  });

  it('status "draft" given explicitly gives a draft too', async () => {
    const slug = uniqueSlug('explicit-draft');
    await created(writer, { title: 'Explicit', slug, page_type: 'product', status: 'draft', fields: productFields() });
    expect((await readPage(writer, 'product', slug, { preview: 1 })).body.data).toMatchObject({ status: 'draft', published: null });
  });

  it('status "published" publishes at once: listed without preview, published = updated = now', async () => {
    const slug = uniqueSlug('new-live');
    const before = Date.now();
    await created(writer, { title: 'Live', slug, page_type: 'product', status: 'published', fields: productFields({ headline: 'Live' }) });
    const list = await listPages(writer, 'product');
    const page = list.body.data.find((p) => p.slug === slug);
    expect(page).toMatchObject({ status: 'published', scheduled: null, name: 'Live', fields: { headline: 'Live' } });
    expect(Date.parse(page?.published ?? '')).toBeGreaterThanOrEqual(before - 5);
    expect(page?.updated).toBe(page?.published);
    const stored = await storedPage(writer, slug);
    expect(stored.draft_version).toBeNull();
    expect(stored.published_version).not.toBeNull();
  });

  it('accepts the older spelling `page-type`', async () => {
    const slug = uniqueSlug('dash-type');
    await created(writer, {
      title: 'Dash',
      slug,
      'page-type': 'landing',
      status: 'published',
      fields: { heading: 'Dash', featured: '', partners: '' },
    });
    expect((await readPage(writer, 'landing', slug)).body.data).toMatchObject({ page_type: 'landing', fields: { heading: 'Dash' } });
  });

  it('writes references, components, repeaters and media; coerces "12.5" and "2"', async () => {
    const slug = uniqueSlug('full');
    await created(writer, {
      title: 'Full',
      slug,
      page_type: 'product',
      status: 'published',
      fields: productFields({
        headline: 'Full',
        summary: 'Long text',
        body: '<p>HTML</p>',
        price: '12.5',
        launch_date: '2026-05-01T09:00:00Z',
        in_stock: false,
        color: 'blue',
        hero: { url: `${mediaBase}/full-hero.jpg`, alt: 'Hero alt' },
        brand: '2',
        related: ['trail-boots', 'tent-draft'],
        seo: { title: 'SEO', image: `${mediaBase}/full-seo.jpg` },
        gallery: [{ image: `${mediaBase}/full-g1.jpg`, caption: 'One' }, { caption: 'Two' }],
      }),
    });
    // preview: the reference to the draft tent-draft shows only to a read that may see drafts.
    const read = await readPage(writer, 'product', slug, { levels: 1, alt_media_text: 1, preview: 1 });
    expect(read.body.data.fields).toEqual({
      headline: 'Full',
      summary: 'Long text',
      body: '<p>HTML</p>',
      price: 12.5,
      launch_date: '2026-05-01T09:00:00Z',
      in_stock: false,
      color: 'blue',
      hero: { url: mediaUrl(`${mediaBase}/full-hero.jpg`), alt: 'Hero alt' },
      brand: itemUri('brands', 2),
      related: [pageUri('product', 'trail-boots'), pageUri('product', 'tent-draft')],
      seo: { title: 'SEO', description: '', image: { url: mediaUrl(`${mediaBase}/full-seo.jpg`) } },
      gallery: [
        { image: { url: mediaUrl(`${mediaBase}/full-g1.jpg`) }, caption: 'One' },
        { image: null, caption: 'Two' },
      ],
    });
    // The media URLs were checked with HEAD.
    expect(mediaHits).toContain('HEAD /full-hero.jpg');
    expect(mediaHits).toContain('HEAD /full-g1.jpg');
  });

  describe('locales', () => {
    it('a single-locale body without `locale` writes the default locale (en) only', async () => {
      const slug = uniqueSlug('default-locale');
      await created(writer, {
        title: 'Default',
        slug,
        page_type: 'landing',
        status: 'published',
        fields: { heading: 'Hello', featured: '', partners: '' },
      });
      expect((await readPage(writer, 'landing', slug)).body.data.fields['heading']).toBe('Hello');
      expect((await readPage(writer, 'landing', slug, { locale: 'es' })).body.data.fields['heading']).toBe('');
      expect(Object.keys((await storedPage(writer, slug)).published_version?.fields ?? {})).toEqual(['en']);
    });

    it('a single-locale body with ?locale=es writes es only', async () => {
      const slug = uniqueSlug('es-locale');
      await created(
        writer,
        {
          title: 'Spanish',
          slug,
          page_type: 'landing',
          status: 'published',
          fields: { heading: 'Hola', featured: 'trail-boots', partners: [2] },
        },
        { query: { locale: 'es' } },
      );
      expect((await readPage(writer, 'landing', slug, { locale: 'es', levels: 1 })).body.data.fields).toEqual({
        heading: 'Hola',
        featured: pageUri('product', 'trail-boots'),
        partners: [itemUri('brands', 2)],
      });
      expect((await readPage(writer, 'landing', slug)).body.data.fields).toEqual({ heading: '', featured: null, partners: [] });
      expect(Object.keys((await storedPage(writer, slug)).published_version?.fields ?? {})).toEqual(['es']);
    });

    it('a multi-locale body writes each locale given', async () => {
      const slug = uniqueSlug('both-locales');
      await created(writer, {
        title: 'Both',
        slug,
        page_type: 'landing',
        status: 'published',
        fields: { en: { heading: 'Hi', featured: '', partners: [1] }, es: { heading: 'Hola', featured: '', partners: [2] } },
      });
      expect((await readPage(writer, 'landing', slug, { levels: 1 })).body.data.fields).toMatchObject({
        heading: 'Hi',
        partners: [itemUri('brands', 1)],
      });
      expect((await readPage(writer, 'landing', slug, { levels: 1, locale: 'es' })).body.data.fields).toMatchObject({
        heading: 'Hola',
        partners: [itemUri('brands', 2)],
      });
    });

    it('a multi-locale body may give a subset of the locales (es only); `locale` does not apply to it', async () => {
      const slug = uniqueSlug('es-only');
      await created(
        writer,
        { title: 'Solo', slug, page_type: 'landing', status: 'published', fields: { es: { heading: 'Solo', featured: '', partners: '' } } },
        { query: { locale: 'en' } },
      );
      expect((await readPage(writer, 'landing', slug, { locale: 'es' })).body.data.fields['heading']).toBe('Solo');
      expect((await readPage(writer, 'landing', slug)).body.data.fields['heading']).toBe('');
      expect(Object.keys((await storedPage(writer, slug)).published_version?.fields ?? {})).toEqual(['es']);
    });

    it('every locale of a multi-locale body needs every key: errors at fields.<locale>.<key>', async () => {
      const res = await createPage<FieldErrorsJson>(writer, {
        title: 'Partial',
        slug: uniqueSlug('partial-locale'),
        page_type: 'landing',
        fields: { en: { heading: 'Hi', featured: '', partners: '' }, es: { heading: 'Hola' } },
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ 'fields.es.featured': [messages.required], 'fields.es.partners': [messages.required] });
    });

    it('locale keys none of which is configured → 400 {fields: [noConfiguredLocale]}', async () => {
      const res = await createPage<FieldErrorsJson>(writer, {
        title: 'French',
        slug: uniqueSlug('french'),
        page_type: 'landing',
        fields: { fr: { heading: 'Bonjour', featured: '', partners: '' } },
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ fields: [messages.noConfiguredLocale(['fr'], 'en, es')] });
    });

    it('a configured locale beside an unknown one → 400 {fields: [unknownLocaleKeys]}', async () => {
      const res = await createPage<FieldErrorsJson>(writer, {
        title: 'Mixed',
        slug: uniqueSlug('mixed'),
        page_type: 'landing',
        fields: { en: { heading: 'Hi', featured: '', partners: '' }, fr: { heading: 'Salut', featured: '', partners: '' } },
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ fields: [messages.unknownLocaleKeys(['fr'], 'en, es')] });
    });

    it('?locale= naming an unknown locale → 400 {locale: [unknownLocale]}', async () => {
      const res = await createPage<FieldErrorsJson>(
        writer,
        { title: 'X', slug: uniqueSlug('bad-locale'), page_type: 'landing', fields: { heading: 'X', featured: '', partners: '' } },
        { query: { locale: 'fr' } },
      );
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ locale: [messages.unknownLocale('fr', 'en, es')] });
    });

    it('an organization without locales takes flat fields; ?locale= → 400 {locale: [noLocales]}', async () => {
      const slug = uniqueSlug('flat');
      await created(
        writer,
        { title: 'Flat', slug, page_type: 'product', status: 'published', fields: { title: 'Flat', price: 3 } },
        { org: 'other' },
      );
      expect((await readPage(writer, 'product', slug, {}, 'other')).body.data.fields).toEqual({ title: 'Flat', price: 3 });
      const res = await createPage<FieldErrorsJson>(
        writer,
        { title: 'Flat', slug: uniqueSlug('flat'), page_type: 'product', fields: { title: 'Flat', price: 3 } },
        { query: { locale: 'en' }, org: 'other' },
      );
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ locale: [messages.noLocales] });
    });
  });

  describe('400 table of the spec', () => {
    const landing = (overrides: Body = {}): Body => ({
      title: 'Landing',
      slug: uniqueSlug('table'),
      page_type: 'landing',
      fields: { heading: 'H', featured: '', partners: '' },
      ...overrides,
    });

    async function refused(body: Body): Promise<FieldErrorsJson> {
      const res = await createPage<FieldErrorsJson>(writer, body);
      expect(res.status, res.text).toBe(400);
      return res.body;
    }

    it('page_type missing → {page_type: [required]}', async () => {
      const body = landing();
      delete body['page_type'];
      expect(await refused(body)).toEqual({ page_type: [messages.required] });
      expect(await refused(landing({ page_type: '' }))).toEqual({ page_type: [messages.required] });
      expect(await refused(landing({ page_type: null }))).toEqual({ page_type: [messages.required] });
    });

    it('page_type "*" → {page_type: [singlePagesRefused]} (Single Pages cannot be created), also as `page-type`', async () => {
      expect(await refused(landing({ page_type: '*' }))).toEqual({ page_type: [messages.singlePagesRefused] });
      const dashed = landing({ 'page-type': '*' });
      delete dashed['page_type'];
      expect(await refused(dashed)).toEqual({ page_type: [messages.singlePagesRefused] });
    });

    it('an unknown page type or a non-string → page_type error', async () => {
      expect(await refused(landing({ page_type: 'nope' }))).toEqual({ page_type: [messages.pageTypeUnknown('nope')] });
      expect(await refused(landing({ page_type: 5 }))).toEqual({ page_type: [messages.notString] });
    });

    it('title missing, null, blank or not a string → title error', async () => {
      const body = landing();
      delete body['title'];
      expect(await refused(body)).toEqual({ title: [messages.required] });
      expect(await refused(landing({ title: null }))).toEqual({ title: [messages.notNull] });
      expect(await refused(landing({ title: '  ' }))).toEqual({ title: [messages.blank] });
      expect(await refused(landing({ title: 7 }))).toEqual({ title: [messages.notString] });
    });

    it('slug missing or blank → slug error', async () => {
      const body = landing();
      delete body['slug'];
      expect(await refused(body)).toEqual({ slug: [messages.required] });
      expect(await refused(landing({ slug: '' }))).toEqual({ slug: [messages.blank] });
    });

    it.each(['has space', 'a/b', 'what?', 'x#y', 'dot.ted', 'a'.repeat(201)])('slug %j → {slug: [pageSlugFormat]}', async (slug) => {
      expect(await refused(landing({ slug }))).toEqual({ slug: [messages.pageSlugFormat] });
    });

    it('slugs of letters (any script), digits, "_" and "-" up to 200 characters are accepted', async () => {
      const slugs = [uniqueSlug('ñandú_Über'), uniqueSlug('山の日'), uniqueSlug('x').padEnd(200, 'a')];
      for (const slug of slugs) {
        const res = await createPage(writer, landing({ slug }));
        expect(res.status, slug).toBe(202);
      }
      await writer.idle();
      for (const slug of slugs) {
        const read = await readPage(writer, 'landing', encodeURIComponent(slug), { preview: 1 });
        expect(read.status, slug).toBe(200);
        expect(read.body.data.slug).toBe(slug);
      }
    });

    it.each(['trail-boots', 'rain-jacket', 'camp-stove', 'tent-draft', 'lantern-scheduled', 'home', 'about', 'contact'])(
      'slug of the live page %s (any state, any type) → {slug: [pageSlugTaken]}',
      async (slug) => {
        expect(await refused(landing({ slug }))).toEqual({ slug: [messages.pageSlugTaken] });
      },
    );

    it('the slug of a deleted page is free again', async () => {
      await withFreshEmulator(async (api) => {
        await created(api, { ...landing({ slug: 'old-product' }), status: 'published' });
        expect((await readPage(api, 'landing', 'old-product')).status).toBe(200);
      });
    });

    it('a slug is refused while an earlier create with it is still pending', async () => {
      const slug = uniqueSlug('twice');
      const first = await createPage(writer, landing({ slug }));
      const second = await createPage<FieldErrorsJson>(writer, landing({ slug }));
      expect(first.status).toBe(202);
      expect(second.status).toBe(400);
      expect(second.body).toEqual({ slug: [messages.pageSlugTaken] });
      await writer.idle();
    });

    it('several concurrent creates with one slug: exactly one is accepted', async () => {
      const slug = uniqueSlug('race');
      const from = writer.emulator.jobs.list().length;
      const results = await Promise.all(
        [1, 2, 3, 4].map((n) => createPage<FieldErrorsJson>(writer, landing({ slug, title: `Race ${n}` }))),
      );
      expect(results.filter((r) => r.status === 202)).toHaveLength(1);
      for (const r of results.filter((x) => x.status !== 202)) expect(r.body).toEqual({ slug: [messages.pageSlugTaken] });
      await writer.idle();
      expect(
        writer.emulator.jobs
          .list()
          .slice(from)
          .map((j) => j.status),
      ).toEqual(['succeeded']);
    });

    it('concurrent creates with one slug while media are being checked: exactly one is accepted', async () => {
      const slug = uniqueSlug('media-race');
      const from = writer.emulator.jobs.list().length;
      const body = {
        title: 'Media race',
        slug,
        page_type: 'product',
        fields: productFields({ hero: `${mediaBase}/slow-race.jpg` }),
      };
      const results = await Promise.all([1, 2].map(() => createPage<FieldErrorsJson>(writer, body)));
      await writer.idle();
      const jobs = writer.emulator.jobs
        .list()
        .slice(from)
        .filter((j) => j.kind === 'page.create');
      expect(results.map((r) => r.status).sort((a, b) => a - b)).toEqual([202, 400]);
      expect(results.find((r) => r.status === 400)?.body).toEqual({ slug: [messages.pageSlugTaken] });
      expect(jobs.map((j) => j.status)).toEqual(['succeeded']);
    });

    it.each(['scheduled', 'archived', 'Published', ''])('status %j → {status: [pageStatusChoice]}', async (status) => {
      expect(await refused(landing({ status }))).toEqual({ status: [messages.pageStatusChoice(status)] });
    });

    it('a `scheduled` field → {scheduled: [pageSchedulingOnCreate]}', async () => {
      expect(await refused(landing({ scheduled: '2030-01-01T00:00:00Z' }))).toEqual({ scheduled: [messages.pageSchedulingOnCreate] });
      expect(await refused(landing({ status: 'published', scheduled: null }))).toEqual({ scheduled: [messages.pageSchedulingOnCreate] });
    });

    it('fields missing, null or not an object → fields error', async () => {
      const body = landing();
      delete body['fields'];
      expect(await refused(body)).toEqual({ fields: [messages.required] });
      expect(await refused(landing({ fields: null }))).toEqual({ fields: [messages.notNull] });
      expect(await refused(landing({ fields: [] }))).toEqual({ fields: [messages.notObject('list')] });
      expect(await refused(landing({ fields: 'x' }))).toEqual({ fields: [messages.notObject('str')] });
    });

    it('reports every problem at once', async () => {
      expect(await refused({})).toEqual({
        page_type: [messages.required],
        title: [messages.required],
        slug: [messages.required],
        fields: [messages.required],
      });
      expect(
        await refused({
          title: '',
          slug: 'trail-boots',
          page_type: 'landing',
          status: 'scheduled',
          scheduled: 'x',
          fields: { heading: 'H' },
        }),
      ).toEqual({
        title: [messages.blank],
        slug: [messages.pageSlugTaken],
        status: [messages.pageStatusChoice('scheduled')],
        scheduled: [messages.pageSchedulingOnCreate],
        'fields.featured': [messages.required],
        'fields.partners': [messages.required],
      });
    });

    it('nothing refused is written', async () => {
      const data = await writer.readDataFile();
      for (const slug of ['has space', 'a/b']) expect(org(data, 'acme').pages.some((p) => p.slug === slug)).toBe(false);
      expect(org(data, 'acme').pages.filter((p) => p.slug === 'trail-boots')).toHaveLength(1);
    });
  });

  describe('field values', () => {
    async function fieldErrors(fields: Body, pageType = 'product'): Promise<FieldErrorsJson> {
      const res = await createPage<FieldErrorsJson>(writer, { title: 'Fields', slug: uniqueSlug('fields'), page_type: pageType, fields });
      expect(res.status, res.text).toBe(400);
      return res.body;
    }

    it('every key of the page type must be present, optional ones too → fields.<key>: required', async () => {
      const fields = productFields();
      delete fields['gallery'];
      delete fields['summary'];
      expect(await fieldErrors(fields)).toEqual({ 'fields.summary': [messages.required], 'fields.gallery': [messages.required] });
    });

    it('an empty fields object lists every key', async () => {
      expect(await fieldErrors({}, 'landing')).toEqual({
        'fields.heading': [messages.required],
        'fields.featured': [messages.required],
        'fields.partners': [messages.required],
      });
    });

    it('a required field blank or null → fields.<key>: blank', async () => {
      expect(await fieldErrors(productFields({ headline: '' }))).toEqual({ 'fields.headline': [messages.blank] });
      expect(await fieldErrors(productFields({ headline: null }))).toEqual({ 'fields.headline': [messages.blank] });
    });

    it('an unknown key → fields.<key>: unknownField', async () => {
      expect(await fieldErrors(productFields({ extra: 'x' }))).toEqual({ 'fields.extra': [messages.unknownField] });
    });

    it.each<[string, unknown, string, string]>([
      ['headline', 5, 'fields.headline', messages.notString],
      ['summary', ['x'], 'fields.summary', messages.notString],
      ['body', true, 'fields.body', messages.notString],
      ['price', 'cheap', 'fields.price', messages.notNumber],
      ['price', true, 'fields.price', messages.notNumber],
      ['launch_date', 'yesterday', 'fields.launch_date', messages.notDate],
      ['launch_date', '2026-13-45', 'fields.launch_date', messages.notDate],
      ['launch_date', 20260501, 'fields.launch_date', messages.notDate],
      ['in_stock', 'yes', 'fields.in_stock', messages.notBoolean],
      ['in_stock', 1, 'fields.in_stock', messages.notBoolean],
      ['color', 'purple', 'fields.color', messages.invalidChoice('purple')],
      ['color', 'RED', 'fields.color', messages.invalidChoice('RED')],
      ['hero', 'not a url', 'fields.hero', messages.invalidUrl],
      ['hero', 'ftp://files.example/x.jpg', 'fields.hero', messages.invalidUrl],
      ['hero', 42, 'fields.hero', messages.invalidUrl],
      ['hero', { alt: 'no url' }, 'fields.hero.url', messages.invalidUrl],
      ['hero', { url: 'https://x.example/a.jpg', alt: 5 }, 'fields.hero.alt', messages.notString],
      ['hero', { url: 'https://x.example/a.jpg', alt: 'a'.repeat(256) }, 'fields.hero.alt', messages.maxLength(255)],
      ['brand', 'acme', 'fields.brand', messages.itemReferenceType],
      ['brand', -1, 'fields.brand', messages.itemReferenceType],
      ['brand', [1], 'fields.brand', messages.singleReference],
      ['related', [5], 'fields.related[0]', messages.pageReferenceType],
      ['seo', 'x', 'fields.seo', messages.notObject('str')],
      ['seo', ['x'], 'fields.seo', messages.notObject('list')],
      ['seo', { nope: 'x' }, 'fields.seo.nope', messages.unknownField],
      ['seo', { title: 5 }, 'fields.seo.title', messages.notString],
      ['seo', { image: 'bad' }, 'fields.seo.image', messages.invalidUrl],
      ['gallery', { image: 'x' }, 'fields.gallery', messages.notList('dict')],
      ['gallery', 'x', 'fields.gallery', messages.notList('str')],
      ['gallery', ['x'], 'fields.gallery[0]', messages.notObject('str')],
      ['gallery', [{ caption: 'ok' }, { caption: 1 }], 'fields.gallery[1].caption', messages.notString],
      ['gallery', [{ image: 'bad' }], 'fields.gallery[0].image', messages.invalidUrl],
      ['gallery', [{ nope: 1 }], 'fields.gallery[0].nope', messages.unknownField],
    ])('%s = %j → 400 at %s', async (key, value, path, message) => {
      expect(await fieldErrors(productFields({ [key]: value }))).toEqual({ [path]: [message] });
    });

    it('nested locale form: errors carry the locale (fields.es.<key>)', async () => {
      expect(await fieldErrors({ en: productFields(), es: productFields({ price: 'x', seo: { title: 1 } }) })).toEqual({
        'fields.es.price': [messages.notNumber],
        'fields.es.seo.title': [messages.notString],
      });
    });

    it('an alt of exactly 255 characters is accepted', async () => {
      const slug = uniqueSlug('alt-255');
      const alt = 'a'.repeat(255);
      await created(writer, {
        title: 'Alt',
        slug,
        page_type: 'product',
        fields: productFields({ hero: { url: `${mediaBase}/alt.jpg`, alt } }),
      });
      expect((await readPage(writer, 'product', slug, { preview: 1, alt_media_text: 1 })).body.data.fields['hero']).toEqual({
        url: mediaUrl(`${mediaBase}/alt.jpg`),
        alt,
      });
    });

    it.each<[string, Body, string, string]>([
      ['a missing collection item', { brand: 99 }, 'fields.brand', messages.itemReferenceMissing('brands', 99)],
      ['a missing page', { related: ['trail-boots', 'nope'] }, 'fields.related[1]', messages.pageReferenceMissing('product', 'nope')],
      ['a page of another type', { related: ['home'] }, 'fields.related[0]', messages.pageReferenceMissing('product', 'home')],
      ['a deleted page', { related: ['old-product'] }, 'fields.related[0]', messages.pageReferenceMissing('product', 'old-product')],
      ['a Single Page', { related: 'about' }, 'fields.related', messages.pageReferenceMissing('product', 'about')],
    ])('a reference to %s → 400 at its path', async (_what, overrides, path, message) => {
      expect(await fieldErrors(productFields(overrides))).toEqual({ [path]: [message] });
    });

    it('landing references: a missing page at fields.featured, a missing item at fields.partners[i]', async () => {
      expect(await fieldErrors({ heading: 'H', featured: 'nope', partners: [1, 42] }, 'landing')).toEqual({
        'fields.featured': [messages.pageReferenceMissing('product', 'nope')],
        'fields.partners[1]': [messages.itemReferenceMissing('brands', 42)],
      });
    });

    it('references to a draft page and a draft item are accepted', async () => {
      const slug = uniqueSlug('draft-refs');
      await created(writer, {
        title: 'Refs',
        slug,
        page_type: 'landing',
        status: 'published',
        fields: { heading: 'R', featured: 'tent-draft', partners: [3] },
      });
      const preview = await readPage(writer, 'landing', slug, { preview: 1 });
      expect(preview.body.data.fields).toMatchObject({ featured: { slug: 'tent-draft' }, partners: [{ meta: { id: 3 } }] });
    });
  });

  describe('media URLs', () => {
    async function mediaErrors(fields: Body): Promise<ApiResponse<FieldErrorsJson>> {
      return createPage<FieldErrorsJson>(writer, { title: 'Media', slug: uniqueSlug('media'), page_type: 'product', fields });
    }

    it('a media URL answering 404 → 400 at its path, after a HEAD request', async () => {
      const url = `${mediaBase}/missing.jpg`;
      const res = await mediaErrors(productFields({ hero: url }));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ 'fields.hero': [messages.mediaNotFound(url)] });
      expect(mediaHits).toContain('HEAD /missing.jpg');
    });

    it('the object form, components, repeaters and locales report at the media field path', async () => {
      const url = `${mediaBase}/missing-deep.jpg`;
      const res = await mediaErrors({
        en: productFields({
          hero: { url, alt: 'Gone' },
          seo: { image: url },
          gallery: [{ image: `${mediaBase}/ok-deep.jpg` }, { image: url }],
        }),
        es: productFields({ hero: url }),
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        'fields.en.hero': [messages.mediaNotFound(url)],
        'fields.en.seo.image': [messages.mediaNotFound(url)],
        'fields.en.gallery[1].image': [messages.mediaNotFound(url)],
        'fields.es.hero': [messages.mediaNotFound(url)],
      });
    });

    it('410 Gone is refused like 404; a server refusing HEAD is asked with GET', async () => {
      const gone = `${mediaBase}/gone.jpg`;
      expect((await mediaErrors(productFields({ hero: gone }))).body).toEqual({ 'fields.hero': [messages.mediaNotFound(gone)] });
      const headRefused = `${mediaBase}/head-refused.jpg`;
      expect((await mediaErrors(productFields({ hero: headRefused }))).body).toEqual({
        'fields.hero': [messages.mediaNotFound(headRefused)],
      });
      expect(mediaHits).toContain('GET /head-refused.jpg');
    });

    it('a media URL answering 200 is accepted', async () => {
      const res = await mediaErrors(productFields({ hero: `${mediaBase}/ok.jpg` }));
      expect(res.status).toBe(202);
      await writer.idle();
    });

    it('an unreachable host is accepted (the background download finds out) and the URL is stored', async () => {
      const slug = uniqueSlug('unreachable');
      await created(writer, { title: 'Unreachable', slug, page_type: 'product', fields: productFields({ hero: unreachable }) });
      expect((await readPage(writer, 'product', slug, { preview: 1 })).body.data.fields['hero']).toBe(unreachable);
    });

    it('an invalid body is refused without probing its media', async () => {
      const before = mediaHits.length;
      const res = await mediaErrors(productFields({ headline: '', hero: `${mediaBase}/missing-not-probed.jpg` }));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ 'fields.headline': [messages.blank] });
      expect(mediaHits.slice(before).filter((hit) => hit.endsWith('/missing-not-probed.jpg'))).toEqual([]);
    });
  });

  describe('page cap (403 {error})', () => {
    it('creates beyond page_limit are refused with 403 {error}; accepted creates count before they finish', async () => {
      await withFreshEmulator(async (api) => {
        const acme = org(await api.readDataFile(), 'acme');
        const limit = acme.page_limit;
        if (limit === null) throw new Error('the pages fixture must give acme a page_limit');
        const existing = acme.pages.filter((p) => p.deleted === null).length;
        const room = limit - existing;
        expect(room).toBeGreaterThan(0);
        const body = (n: number) => ({
          title: `Cap ${n}`,
          slug: `cap-${n}`,
          page_type: 'landing',
          fields: { heading: 'Cap', featured: '', partners: '' },
        });
        const results = await Promise.all(Array.from({ length: room + 2 }, (_, n) => createPage<{ error: string }>(api, body(n))));
        expect(results.filter((r) => r.status === 202)).toHaveLength(room);
        const refusedAll = results.filter((r) => r.status !== 202);
        expect(refusedAll.map((r) => r.status)).toEqual([403, 403]);
        for (const r of refusedAll) expect(r.body).toEqual({ error: messages.pageLimitReached(limit) });
        await api.idle();
        expect(org(await api.readDataFile(), 'acme').pages.filter((p) => p.deleted === null)).toHaveLength(limit);
        const more = await createPage<{ error: string }>(api, body(1000));
        expect(more.status).toBe(403);
        expect(more.body).toEqual({ error: messages.pageLimitReached(limit) });
        // Another organization has its own (no) cap.
        await created(
          api,
          { title: 'Other', slug: 'other-after-cap', page_type: 'product', fields: { title: 'T', price: '' } },
          { org: 'other' },
        );
        // Updates are not creations.
        expect((await write(api, 'PATCH', '/pages/landing/home/', { fields: { en: { heading: 'Still editable' } } })).status).toBe(202);
      });
    });
  });

  describe('authentication', () => {
    it('the read token cannot create → 401; no token → 401; nothing is written', async () => {
      const slug = uniqueSlug('auth');
      const body = { title: 'Auth', slug, page_type: 'landing', fields: { heading: 'A', featured: '', partners: '' } };
      const read = await writer.request<DetailJson>('POST', '/pages/', { headerToken: tokensOf(writer).read, body });
      expect(read.status).toBe(401);
      expect(read.body).toEqual({ detail: messages.readTokenCannotWrite });
      const none = await writer.request<DetailJson>('POST', '/pages/', { body });
      expect(none.status).toBe(401);
      expect(none.body).toEqual({ detail: messages.noCredentials });
      await writer.idle();
      expect((await readPage(writer, 'landing', slug, { preview: 1 })).status).toBe(404);
    });
  });
});

// =============================================================================================
// PATCH and PUT /pages/{page_type}/{page_slug}/
// =============================================================================================

describe.each(['PATCH', 'PUT'])('%s /pages/{page_type}/{page_slug}/', (method) => {
  let api: TestEmulator;

  beforeAll(async () => {
    api = await startTestEmulator(FIXTURE);
  });

  afterAll(async () => {
    await api?.close();
  });

  const update = <T = unknown>(target: TestEmulator, path: string, body: Body, options: { query?: Query; org?: string } = {}) =>
    write<T>(target, method, path, body, options);

  /** Sends the update, expects 202 pending, waits for the job. */
  async function updated(target: TestEmulator, path: string, body: Body, query: Query = {}): Promise<void> {
    const res = await update(target, path, body, { query });
    expect(res.status, res.text).toBe(202);
    expect(res.body).toEqual({ status: 'pending' });
    await target.idle();
    expect(
      target.emulator.jobs
        .list()
        .filter((j) => j.kind === 'page.update')
        .at(-1),
    ).toMatchObject({ status: 'succeeded' });
  }

  /** A product created through the API, in both locales. */
  async function product(status: 'draft' | 'published', en: Body = {}, es: Body = {}): Promise<{ slug: string; path: string }> {
    const slug = uniqueSlug(`${method.toLowerCase()}-${status}`);
    await created(api, {
      title: `Product ${slug}`,
      slug,
      page_type: 'product',
      status,
      fields: {
        en: productFields({ headline: 'English', summary: 'Summary EN', ...en }),
        es: productFields({ headline: 'Español', summary: 'Resumen ES', ...es }),
      },
    });
    return { slug, path: `/pages/product/${slug}/` };
  }

  describe('without status: the changes go to the latest version, which keeps its state', () => {
    it('a live page stays live: the change is seen without preview, `published` is kept', async () => {
      const { slug, path } = await product('published');
      const before = (await readPage(api, 'product', slug)).body.data;
      await updated(api, path, { fields: { en: { headline: 'Changed live' } } });
      const after = (await readPage(api, 'product', slug)).body.data;
      expect(after).toMatchObject({ status: 'published', published: before.published, scheduled: null });
      expect(after.fields).toMatchObject({ headline: 'Changed live', summary: 'Summary EN' });
      expect((await readPage(api, 'product', slug, { preview: 1 })).body.data).toMatchObject({
        status: 'published',
        fields: { headline: 'Changed live' },
      });
      expect((await storedPage(api, slug)).draft_version).toBeNull();
    });

    it('a draft stays a draft: seen only with preview, still unpublished', async () => {
      const { slug, path } = await product('draft');
      await updated(api, path, { fields: { en: { headline: 'Changed draft' } } });
      expect((await readPage(api, 'product', slug)).status).toBe(404);
      expect((await readPage(api, 'product', slug, { preview: 1 })).body.data).toMatchObject({
        status: 'draft',
        published: null,
        updated: null,
        fields: { headline: 'Changed draft', summary: 'Summary EN' },
      });
      const stored = await storedPage(api, slug);
      expect(stored.published_version).toBeNull();
      expect(stored.published).toBeNull();
    });

    it('a published page with a newer draft: the draft changes, the live version does not', async () => {
      await withFreshEmulator(async (fresh) => {
        await updated(fresh, '/pages/product/rain-jacket/', { fields: { en: { summary: 'Patched draft' } } });
        expect((await readPage(fresh, 'product', 'rain-jacket')).body.data).toMatchObject({
          status: 'published',
          published: '2026-01-05T10:00:00.000Z',
          updated: '2026-03-01T10:00:00.000Z',
          fields: { headline: 'Rain Jacket', summary: 'Stay dry.', price: 80 },
        });
        expect((await readPage(fresh, 'product', 'rain-jacket', { preview: 1 })).body.data).toMatchObject({
          status: 'draft',
          fields: { headline: 'Rain Jacket v2', summary: 'Patched draft', price: 85 },
        });
      });
    });

    it('a scheduled change stays scheduled: the draft changes, the schedule and the live version do not; `scheduled` in the body is ignored', async () => {
      await withFreshEmulator(async (fresh) => {
        await updated(fresh, '/pages/product/camp-stove/', { scheduled: '2031-01-01T00:00:00Z', fields: { en: { summary: 'Tweaked' } } });
        expect((await readPage(fresh, 'product', 'camp-stove', { preview: 1 })).body.data).toMatchObject({
          status: 'scheduled',
          scheduled: '2030-06-01T09:00:00Z',
          fields: { headline: 'Camp Stove (scheduled)', summary: 'Tweaked' },
        });
        expect((await readPage(fresh, 'product', 'camp-stove')).body.data).toMatchObject({
          status: 'published',
          scheduled: null,
          updated: '2026-02-01T10:00:00.000Z',
          fields: { headline: 'Camp Stove', summary: 'Cook anywhere.' },
        });
      });
    });

    it('a scheduled first publication stays scheduled and unpublished', async () => {
      await withFreshEmulator(async (fresh) => {
        await updated(fresh, '/pages/product/lantern-scheduled/', { fields: { en: { price: 30 } } });
        expect((await readPage(fresh, 'product', 'lantern-scheduled')).status).toBe(404);
        expect((await readPage(fresh, 'product', 'lantern-scheduled', { preview: 1 })).body.data).toMatchObject({
          status: 'scheduled',
          scheduled: '2030-07-01T00:00:00Z',
          published: null,
          fields: { headline: 'Lantern', price: 30 },
        });
      });
    });

    it('`scheduled` in the body of a page without a schedule is ignored: nothing gets scheduled', async () => {
      const { slug, path } = await product('published');
      await updated(api, path, { scheduled: '2031-01-01T00:00:00Z', fields: { en: { summary: 'Not scheduled' } } });
      expect((await readPage(api, 'product', slug, { preview: 1 })).body.data).toMatchObject({
        status: 'published',
        scheduled: null,
        fields: { summary: 'Not scheduled' },
      });
    });
  });

  describe('status "published": the latest content plus the changes goes live', () => {
    it('a draft goes live: published = updated = now, no draft left', async () => {
      const { slug, path } = await product('draft');
      const before = Date.now();
      await updated(api, path, { status: 'published', fields: { en: { headline: 'Now live' } } });
      const live = (await readPage(api, 'product', slug)).body.data;
      expect(live).toMatchObject({ status: 'published', scheduled: null, fields: { headline: 'Now live', summary: 'Summary EN' } });
      expect(Date.parse(live.published ?? '')).toBeGreaterThanOrEqual(before - 5);
      expect(Date.parse(live.updated ?? '')).toBeGreaterThanOrEqual(before - 5);
      expect((await storedPage(api, slug)).draft_version).toBeNull();
    });

    it('a live page keeps its first publication time; `updated` is now', async () => {
      const { slug, path } = await product('published');
      const first = (await readPage(api, 'product', slug)).body.data.published;
      await clockPast(first);
      await updated(api, path, { status: 'published', fields: { en: { summary: 'Republished' } } });
      const live = (await readPage(api, 'product', slug)).body.data;
      expect(live.published).toBe(first);
      expect(Date.parse(live.updated ?? '')).toBeGreaterThan(Date.parse(first ?? ''));
      expect(live.fields['summary']).toBe('Republished');
    });

    it('a published page with a newer draft: the draft plus the changes go live, `published` kept, the draft is gone', async () => {
      await withFreshEmulator(async (fresh) => {
        const before = Date.now();
        await updated(fresh, '/pages/product/rain-jacket/', { status: 'published', fields: { es: { headline: 'Chaqueta final' } } });
        const live = (await readPage(fresh, 'product', 'rain-jacket')).body.data;
        expect(live).toMatchObject({
          status: 'published',
          published: '2026-01-05T10:00:00.000Z',
          scheduled: null,
          fields: { headline: 'Rain Jacket v2', summary: 'Stay drier.', price: 85 },
        });
        expect(Date.parse(live.updated ?? '')).toBeGreaterThanOrEqual(before - 5);
        expect((await readPage(fresh, 'product', 'rain-jacket', { locale: 'es' })).body.data.fields).toMatchObject({
          headline: 'Chaqueta final',
          price: 85,
        });
        expect((await readPage(fresh, 'product', 'rain-jacket', { preview: 1 })).body.data).toMatchObject({ status: 'published' });
        const stored = await storedPage(fresh, 'rain-jacket');
        expect(stored.draft_version).toBeNull();
      });
    });

    it('a scheduled change goes live at once and the schedule ends', async () => {
      await withFreshEmulator(async (fresh) => {
        await updated(fresh, '/pages/product/camp-stove/', { status: 'published' });
        for (const query of [{}, { preview: 1 }] as Query[]) {
          expect((await readPage(fresh, 'product', 'camp-stove', query)).body.data).toMatchObject({
            status: 'published',
            scheduled: null,
            published: '2026-01-20T10:00:00.000Z',
            fields: { headline: 'Camp Stove (scheduled)', price: 49 },
          });
        }
        const stored = await storedPage(fresh, 'camp-stove');
        expect(stored.scheduled).toBeNull();
        expect(stored.draft_version).toBeNull();
      });
    });

    it('a scheduled first publication goes live now', async () => {
      await withFreshEmulator(async (fresh) => {
        const before = Date.now();
        await updated(fresh, '/pages/product/lantern-scheduled/', { status: 'published' });
        const live = (await readPage(fresh, 'product', 'lantern-scheduled')).body.data;
        expect(live).toMatchObject({ status: 'published', scheduled: null, fields: { headline: 'Lantern' } });
        expect(Date.parse(live.published ?? '')).toBeGreaterThanOrEqual(before - 5);
        expect(slugsOf(await listPages(fresh, 'product'))).toContain('lantern-scheduled');
      });
    });
  });

  describe('status "draft": the page is unpublished', () => {
    it('a live page leaves non-preview reads; its content becomes the draft; `published` is null', async () => {
      const { slug, path } = await product('published');
      await updated(api, path, { status: 'draft' });
      expect((await readPage(api, 'product', slug)).status).toBe(404);
      expect(slugsOf(await listPages(api, 'product'))).not.toContain(slug);
      expect((await readPage(api, 'product', slug, { preview: 1 })).body.data).toMatchObject({
        status: 'draft',
        published: null,
        scheduled: null,
        fields: { headline: 'English', summary: 'Summary EN' },
      });
      const stored = await storedPage(api, slug);
      expect(stored.published_version).toBeNull();
      expect(stored.published).toBeNull();
    });

    it('published again later gets a new first publication time', async () => {
      const { slug, path } = await product('published');
      const first = (await readPage(api, 'product', slug)).body.data.published;
      await updated(api, path, { status: 'draft' });
      await clockPast(first);
      await updated(api, path, { status: 'published' });
      const live = (await readPage(api, 'product', slug)).body.data;
      expect(live.status).toBe('published');
      expect(Date.parse(live.published ?? '')).toBeGreaterThan(Date.parse(first ?? ''));
    });

    it('a published page with a newer draft: the latest content (the draft, plus the changes) stays as the only version', async () => {
      await withFreshEmulator(async (fresh) => {
        await updated(fresh, '/pages/product/rain-jacket/', { status: 'draft', fields: { en: { summary: 'Pulled' } } });
        expect((await readPage(fresh, 'product', 'rain-jacket')).status).toBe(404);
        expect((await readPage(fresh, 'product', 'rain-jacket', { preview: 1 })).body.data).toMatchObject({
          status: 'draft',
          published: null,
          fields: { headline: 'Rain Jacket v2', summary: 'Pulled', price: 85 },
        });
        expect((await storedPage(fresh, 'rain-jacket')).published_version).toBeNull();
      });
    });

    it('a draft stays a draft and unpublished', async () => {
      const { slug, path } = await product('draft');
      await updated(api, path, { status: 'draft', fields: { en: { summary: 'Still a draft' } } });
      expect((await readPage(api, 'product', slug)).status).toBe(404);
      expect((await readPage(api, 'product', slug, { preview: 1 })).body.data).toMatchObject({
        status: 'draft',
        published: null,
        fields: { summary: 'Still a draft' },
      });
    });

    it('a scheduled page becomes a plain draft', async () => {
      await withFreshEmulator(async (fresh) => {
        await updated(fresh, '/pages/product/camp-stove/', { status: 'draft' });
        expect(slugsOf(await listPages(fresh, 'product'))).not.toContain('camp-stove');
        expect((await readPage(fresh, 'product', 'camp-stove', { preview: 1 })).body.data).toMatchObject({
          status: 'draft',
          scheduled: null,
          published: null,
          fields: { headline: 'Camp Stove (scheduled)' },
        });
      });
    });
  });

  describe('what changes', () => {
    it('unlisted fields and unlisted locales keep their values (nested form)', async () => {
      const { slug, path } = await product('published', { color: 'red', price: 10 }, { color: 'blue', price: 11 });
      const enBefore = (await readPage(api, 'product', slug)).body.data.fields;
      await updated(api, path, { fields: { es: { summary: 'Nuevo resumen' } } });
      expect((await readPage(api, 'product', slug)).body.data.fields).toEqual(enBefore);
      expect((await readPage(api, 'product', slug, { locale: 'es' })).body.data.fields).toMatchObject({
        headline: 'Español',
        summary: 'Nuevo resumen',
        color: 'blue',
        price: 11,
      });
    });

    it('the single-locale form with ?locale=es changes es only', async () => {
      const { slug, path } = await product('published');
      await updated(api, path, { fields: { headline: 'Solo ES' } }, { locale: 'es' });
      expect((await readPage(api, 'product', slug, { locale: 'es' })).body.data.fields).toMatchObject({
        headline: 'Solo ES',
        summary: 'Resumen ES',
      });
      expect((await readPage(api, 'product', slug)).body.data.fields).toMatchObject({ headline: 'English' });
    });

    it('the single-locale form without locale on a localized organization → 400 {locale: [localeNeeded]}', async () => {
      const res = await update<FieldErrorsJson>(api, '/pages/product/trail-boots/', { fields: { headline: 'No locale' } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ locale: [messages.localeNeeded] });
    });

    it('an unknown locale → 400 (query: {locale}; nested: {fields})', async () => {
      const query = await update<FieldErrorsJson>(
        api,
        '/pages/product/trail-boots/',
        { fields: { headline: 'X' } },
        { query: { locale: 'fr' } },
      );
      expect(query.status).toBe(400);
      expect(query.body).toEqual({ locale: [messages.unknownLocale('fr', 'en, es')] });
      const nested = await update<FieldErrorsJson>(api, '/pages/product/trail-boots/', { fields: { fr: { headline: 'X' } } });
      expect(nested.status).toBe(400);
      expect(nested.body).toEqual({ fields: [messages.noConfiguredLocale(['fr'], 'en, es')] });
    });

    it('a repeater is replaced whole; a component merges (unlisted subfields kept)', async () => {
      const { slug, path } = await product('published', {
        seo: { title: 'Old title', description: 'Kept description', image: `${mediaBase}/seo-kept.jpg` },
        gallery: [
          { image: `${mediaBase}/g1.jpg`, caption: 'One' },
          { image: `${mediaBase}/g2.jpg`, caption: 'Two' },
        ],
      });
      await updated(api, path, { fields: { en: { seo: { title: 'New title' }, gallery: [{ caption: 'Only' }] } } });
      expect((await readPage(api, 'product', slug)).body.data.fields).toMatchObject({
        seo: { title: 'New title', description: 'Kept description', image: mediaUrl(`${mediaBase}/seo-kept.jpg`) },
        gallery: [{ image: '', caption: 'Only' }],
      });
    });

    it('a plain URL string replaces the alt text; {url, alt} sets it', async () => {
      const { slug, path } = await product('published', { hero: { url: `${mediaBase}/alt-1.jpg`, alt: 'First alt' } });
      expect((await readPage(api, 'product', slug, { alt_media_text: 1 })).body.data.fields['hero']).toEqual({
        url: mediaUrl(`${mediaBase}/alt-1.jpg`),
        alt: 'First alt',
      });
      await updated(api, path, { fields: { en: { hero: `${mediaBase}/alt-2.jpg` } } });
      expect((await readPage(api, 'product', slug, { alt_media_text: 1 })).body.data.fields['hero']).toEqual({
        url: mediaUrl(`${mediaBase}/alt-2.jpg`),
      });
      await updated(api, path, { fields: { en: { hero: { url: `${mediaBase}/alt-3.jpg`, alt: 'Third alt' } } } });
      expect((await readPage(api, 'product', slug, { alt_media_text: 1 })).body.data.fields['hero']).toEqual({
        url: mediaUrl(`${mediaBase}/alt-3.jpg`),
        alt: 'Third alt',
      });
    });

    it('references, media and components are cleared with "", [] or null', async () => {
      const { slug, path } = await product('published', {
        brand: 1,
        related: ['trail-boots'],
        hero: `${mediaBase}/clear.jpg`,
        seo: { title: 'S' },
      });
      await updated(api, path, { fields: { en: { brand: '', related: [], hero: null, seo: null } } });
      expect((await readPage(api, 'product', slug)).body.data.fields).toMatchObject({ brand: null, related: [], hero: '', seo: null });
    });

    it('an empty body or empty fields changes nothing but is accepted', async () => {
      const { slug, path } = await product('published');
      const before = (await readPage(api, 'product', slug)).body.data.fields;
      await updated(api, path, {});
      await updated(api, path, { fields: {} });
      expect((await readPage(api, 'product', slug)).body.data.fields).toEqual(before);
    });

    it('a Single Page is updated through "*"', async () => {
      await withFreshEmulator(async (fresh) => {
        await updated(fresh, '/pages/*/about/', { fields: { en: { title: 'About Acme, updated' } } });
        expect((await readPage(fresh, '*', 'about')).body.data.fields).toMatchObject({
          title: 'About Acme, updated',
          text: '<p>Since 1990.</p>',
        });
        const wrong = await update<FieldErrorsJson>(fresh, '/pages/*/about/', { fields: { en: { headline: 'x' } } });
        expect(wrong.status).toBe(400);
        expect(wrong.body).toEqual({ 'fields.en.headline': [messages.unknownField] });
      });
    });

    it('"*" matches a page of any type', async () => {
      const { slug } = await product('published');
      await updated(api, `/pages/*/${slug}/`, { fields: { en: { summary: 'Via star' } } });
      expect((await readPage(api, 'product', slug)).body.data.fields['summary']).toBe('Via star');
    });

    it('an organization without locales takes flat fields', async () => {
      await withFreshEmulator(async (fresh) => {
        const res = await write(fresh, method, '/pages/product/widget/', { fields: { price: 7 } }, { org: 'other' });
        expect(res.status).toBe(202);
        await fresh.idle();
        expect((await readPage(fresh, 'product', 'widget', {}, 'other')).body.data.fields).toEqual({ title: 'Widget', price: 7 });
      });
    });
  });

  describe('refused updates (400)', () => {
    it('a different title → {title: [pageTitleImmutable]}; a different slug → {slug: [pageSlugImmutable]}', async () => {
      const res = await update<FieldErrorsJson>(api, '/pages/product/trail-boots/', { title: 'Renamed', slug: 'renamed' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ title: [messages.pageTitleImmutable], slug: [messages.pageSlugImmutable] });
      expect((await readPage(api, 'product', 'renamed')).status).toBe(404);
    });

    it('the current title and slug are harmless', async () => {
      const { slug, path } = await product('published');
      await updated(api, path, { title: `Product ${slug}`, slug, fields: { en: { summary: 'Same names' } } });
      expect((await readPage(api, 'product', slug)).body.data).toMatchObject({
        name: `Product ${slug}`,
        fields: { summary: 'Same names' },
      });
    });

    it.each(['archived', 'Published', ''])('status %j → {status: [pageStatusChoice]}', async (status) => {
      const res = await update<FieldErrorsJson>(api, '/pages/product/trail-boots/', { status });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ status: [messages.pageStatusChoice(status)] });
    });

    it('wrong values are reported at their path (with the locale in the nested form); only given keys are checked', async () => {
      const flat = await update<FieldErrorsJson>(
        api,
        '/pages/product/trail-boots/',
        { fields: { price: 'x', nope: 1 } },
        { query: { locale: 'es' } },
      );
      expect(flat.status).toBe(400);
      expect(flat.body).toEqual({ 'fields.price': [messages.notNumber], 'fields.nope': [messages.unknownField] });
      const nested = await update<FieldErrorsJson>(api, '/pages/product/trail-boots/', {
        fields: { es: { headline: '', color: 'purple', gallery: [{ caption: 3 }] } },
      });
      expect(nested.status).toBe(400);
      expect(nested.body).toEqual({
        'fields.es.headline': [messages.blank],
        'fields.es.color': [messages.invalidChoice('purple')],
        'fields.es.gallery[0].caption': [messages.notString],
      });
      const notObject = await update<FieldErrorsJson>(api, '/pages/product/trail-boots/', { fields: ['x'] });
      expect(notObject.status).toBe(400);
      expect(notObject.body).toEqual({ fields: [messages.notObject('list')] });
    });

    it('references to missing pages or items → 400 at their path', async () => {
      const res = await update<FieldErrorsJson>(api, '/pages/product/trail-boots/', { fields: { en: { brand: 99, related: ['nope'] } } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        'fields.en.brand': [messages.itemReferenceMissing('brands', 99)],
        'fields.en.related[0]': [messages.pageReferenceMissing('product', 'nope')],
      });
    });

    it('a media URL answering 404 → 400 at its path', async () => {
      const url = `${mediaBase}/missing-on-update.jpg`;
      const res = await update<FieldErrorsJson>(api, '/pages/product/trail-boots/', { fields: { es: { seo: { image: url } } } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ 'fields.es.seo.image': [messages.mediaNotFound(url)] });
    });

    it('nothing refused was written', async () => {
      await api.idle();
      expect((await readPage(api, 'product', 'trail-boots')).body.data).toEqual(trailBoots());
    });
  });

  describe('404s and authentication', () => {
    it('an unknown page type → 404 Page type not found.', async () => {
      const res = await update<DetailJson>(api, '/pages/nope/trail-boots/', { fields: { en: { headline: 'x' } } });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: messages.pageTypeNotFound });
    });

    it.each([
      ['product', 'nope'],
      ['product', 'old-product'],
      ['landing', 'trail-boots'],
      ['product', 'about'],
    ])('/pages/%s/%s/ → 404 Page not found.', async (type, slug) => {
      const res = await update<DetailJson>(api, `/pages/${type}/${slug}/`, { fields: {} });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: messages.pageNotFound });
    });

    it('the read token cannot update → 401; nothing changes', async () => {
      const res = await api.request<DetailJson>(method, '/pages/product/trail-boots/', {
        headerToken: tokensOf(api).read,
        body: { fields: { en: { headline: 'Hijack' } } },
      });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ detail: messages.readTokenCannotWrite });
      await api.idle();
      expect((await readPage(api, 'product', 'trail-boots')).body.data.fields['headline']).toBe('Trail Boots');
    });
  });
});

// =============================================================================================
// Isolation between organizations
// =============================================================================================

describe('isolation between organizations', () => {
  it("another organization's token lists its own pages only", async () => {
    const res = await listPages(reader, 'product', {}, 'other');
    expect(res.status).toBe(200);
    expect(slugsOf(res)).toEqual(['widget']);
    expect(res.body.data[0]).toEqual({
      slug: 'widget',
      name: 'Widget',
      published: '2026-01-01T09:00:00.000Z',
      updated: '2026-01-01T09:00:00.000Z',
      page_type: 'product',
      fields: { title: 'Widget', price: 5 },
      scheduled: null,
      status: 'published',
    });
  });

  it("another organization's page types and pages are 404 to it", async () => {
    const type = await listPages(reader, 'landing', {}, 'other');
    expect(type.status).toBe(404);
    expect(type.body).toEqual({ detail: messages.pageTypeNotFound });
    for (const [t, slug] of [
      ['product', 'trail-boots'],
      ['*', 'trail-boots'],
      ['*', 'about'],
    ] as const) {
      const res = await readPage(reader, t, slug, { preview: 1 }, 'other');
      expect(res.status, `${t}/${slug}`).toBe(404);
      expect(res.body).toEqual({ detail: messages.pageNotFound });
    }
    expect(slugsOf(await listPages(reader, '*', { preview: 1 }, 'other'))).toEqual([]);
    expect((await readPage(reader, 'product', 'widget', {}, 'acme')).status).toBe(404);
  });

  it("another organization's write token cannot update its pages (404), and may use the same slugs for its own", async () => {
    const patch = await write<DetailJson>(
      writer,
      'PATCH',
      '/pages/product/trail-boots/',
      { fields: { title: 'Hijack' } },
      { org: 'other' },
    );
    expect(patch.status).toBe(404);
    expect(patch.body).toEqual({ detail: messages.pageNotFound });
    const star = await write<DetailJson>(writer, 'PUT', '/pages/*/about/', { fields: { title: 'Hijack' } }, { org: 'other' });
    expect(star.status).toBe(404);
    const landing = await write<DetailJson>(writer, 'PATCH', '/pages/landing/home/', { fields: { heading: 'Hijack' } }, { org: 'other' });
    expect(landing.status).toBe(404);
    expect(landing.body).toEqual({ detail: messages.pageTypeNotFound });
    await created(
      writer,
      { title: 'Their boots', slug: 'trail-boots', page_type: 'product', status: 'published', fields: { title: 'Theirs', price: 1 } },
      { org: 'other' },
    );
    expect((await readPage(writer, 'product', 'trail-boots', {}, 'other')).body.data.fields).toEqual({ title: 'Theirs', price: 1 });
    expect((await readPage(writer, 'product', 'trail-boots')).body.data.fields['headline']).toBe('Trail Boots');
  });
});
