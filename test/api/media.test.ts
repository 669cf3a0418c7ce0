/**
 * The media library and the image CDN over real HTTP (spec: Page, rules for `fields` (media);
 * Blog post `featured_image`, POST /posts/ `upload_images_to_media_library`; Image
 * transformation; Limits (media alt 255, featured image alt 250); Errors (a media URL that
 * returns 404); choices in docs/spec-gaps.md, "Media library and image CDN").
 *
 * A local origin (node:http on port 0) serves images made with sharp, plus every way a download
 * can go wrong: 404, a too-slow answer, a body that stalls, bodies over the size cap (streamed,
 * declared, and one whose Content-Length lies), HTML, a redirect, a PDF, a cut-off transfer.
 * The emulator is started through the shared helper with small download limits
 * (DOWNLOAD_TIMEOUT_MS and MAX_BYTES below).
 *
 * Fixture test/fixtures/media: org `acme` (no locales) with page type `gallery` (media at the
 * top level, in the component `seo`, in the repeater `slides`), collection `brands` (media
 * `logo`), two library files shipped with the fixture (PHOTO: a 320×240 JPEG of four coloured
 * quadrants, red green / blue yellow; LOGO: a 64×48 PNG, left half opaque magenta, right half
 * transparent) and GHOST, a record whose file is missing; org `globo.intl` (locales en/es, media
 * folder `globo_intl`) with page type `poster` and collection `venues`. One emulator for the
 * file: every test writes its own records, with its own origin URLs.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp, { type Metadata } from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../server/domain/messages.js';
import type { JobRecord } from '../../server/jobs/queue.js';
import { storeSchema, type MediaRecord, type Organization, type Post, type StoreData } from '../../server/store/schema.js';
import { startTestEmulator, type ApiResponse, type TestEmulator } from '../helpers/emulator.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/media', import.meta.url));
const PHOTO = 'QuadPhotoJpeg0000001';
const LOGO = 'AlphaLogoPng00000002';
const GHOST = 'GhostMissingFile0003';
const UNKNOWN_ID = 'NoSuchMediaId0000000';

const DOWNLOAD_TIMEOUT_MS = 1000;
const MAX_BYTES = 256 * 1024;
/** The origin's slow path answers this late: well past the download timeout. */
const SLOW_MS = DOWNLOAD_TIMEOUT_MS * 3;
/** The origin's delayed path answers within the timeout, but late enough to act meanwhile. */
const DELAYED_MS = 300;
const MEDIA_ID = /^[A-Za-z0-9]{20}$/;
const KEEPS_REMOTE = 'The content keeps the remote URL.';

// ---------------------------------------------------------------------------------------------
// Shapes the API answers with
// ---------------------------------------------------------------------------------------------

interface PostJson {
  slug: string;
  featured_image: string | null;
  featured_image_alt: string;
  body?: string;
}

interface PageJson {
  slug: string;
  fields: Record<string, unknown>;
}

type ItemJson = { meta: { id: number } } & Record<string, unknown>;
type Body = Record<string, unknown>;
type FieldErrorsJson = Record<string, string[]>;

// ---------------------------------------------------------------------------------------------
// The image origin
// ---------------------------------------------------------------------------------------------

interface Served {
  bytes: Buffer;
  contentType: string;
  width: number | null;
  height: number | null;
}

const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
);
const HTML = Buffer.from('<!doctype html><title>Not an image</title><p>Hello</p>');

const generated = new Map<string, Promise<Served>>();

/** A small image whose size and colour follow from its name, so no two origin URLs share bytes. */
function imageFor(name: string, format: 'jpeg' | 'png'): Promise<Served> {
  const key = `${format}:${name}`;
  let image = generated.get(key);
  if (!image) {
    const h = createHash('sha256').update(key).digest();
    const width = 24 + (h[0]! % 40);
    const height = 16 + (h[1]! % 40);
    const base = sharp({ create: { width, height, channels: 3, background: { r: h[2]!, g: h[3]!, b: h[4]! } } });
    image = (format === 'jpeg' ? base.jpeg() : base.png())
      .toBuffer()
      .then((bytes) => ({ bytes, contentType: `image/${format}`, width, height }));
    generated.set(key, image);
  }
  return image;
}

interface Origin {
  /** `http://127.0.0.1:<port>` */
  base: string;
  /** `METHOD /path?query` of every request, in order. */
  hits: string[];
  close(): Promise<void>;
}

/** Writes `total` bytes in 64 KiB chunks, respecting back-pressure, until done or the client goes. */
function pump(res: ServerResponse, total: number): void {
  const chunk = Buffer.alloc(64 * 1024, 0xab);
  let sent = 0;
  const next = (): void => {
    while (sent < total && !res.destroyed) {
      sent += chunk.length;
      if (!res.write(chunk)) {
        res.once('drain', next);
        return;
      }
    }
    if (!res.destroyed) res.end();
  };
  next();
}

/**
 * Paths (`<name>` makes each URL unique):
 *   /jpg/<name>, /png/<name>   an image (see imageFor); /typed/<name> a PNG sent as `IMAGE/PNG; charset=binary`
 *   /pdf/<name>                a PDF;  /html/<name> an HTML page;  /fake/<name> HTML sent as image/jpeg
 *   /missing/<name>            404;    /redirect/<name> 302 to /jpg/<name>
 *   /slow/<name>               the JPEG of /jpg/<name> after SLOW_MS (past the timeout)
 *   /delayed/<name>            the JPEG of /jpg/<name> after DELAYED_MS (within the timeout)
 *   /stall/<name>              image/jpeg headers and 64 bytes, then nothing
 *   /huge/<name>               4 × MAX_BYTES, chunked, no Content-Length
 *   /huge-declared/<name>      4 × MAX_BYTES with an honest Content-Length
 *   /lie/<name>                Content-Length: 100, then 4 × MAX_BYTES
 *   /short/<name>              Content-Length: 5000, then 100 bytes and the connection is cut
 * HEAD answers at once with the GET's status and headers.
 */
function startOrigin(): Promise<Origin> {
  const hits: string[] = [];
  const timers = new Set<NodeJS.Timeout>();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://origin.invalid');
    hits.push(`${req.method ?? ''} ${url.pathname}${url.search}`);
    const [, kind = '', ...rest] = url.pathname.split('/');
    const name = rest.join('/');
    const head = req.method === 'HEAD';
    const send = (status: number, type: string, bytes: Buffer): void => {
      res.writeHead(status, { 'content-type': type, 'content-length': String(bytes.length) });
      res.end(head ? undefined : bytes);
    };
    switch (kind) {
      case 'jpg':
      case 'png': {
        const image = await imageFor(name, kind === 'jpg' ? 'jpeg' : 'png');
        return send(200, image.contentType, image.bytes);
      }
      case 'typed':
        return send(200, 'IMAGE/PNG; charset=binary', (await imageFor(name, 'png')).bytes);
      case 'pdf':
        return send(200, 'application/pdf', PDF);
      case 'html':
        return send(200, 'text/html; charset=utf-8', HTML);
      case 'fake':
        return send(200, 'image/jpeg', HTML);
      case 'missing':
        return send(404, 'text/plain', Buffer.from('Not found'));
      case 'redirect':
        res.writeHead(302, { location: `/jpg/${name}` });
        return void res.end();
      case 'slow': {
        const image = await imageFor(name, 'jpeg');
        if (head) return send(200, image.contentType, image.bytes);
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (!res.destroyed) send(200, image.contentType, image.bytes);
        }, SLOW_MS);
        timers.add(timer);
        return;
      }
      case 'delayed': {
        const image = await imageFor(name, 'jpeg');
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (!res.destroyed) send(200, image.contentType, image.bytes);
        }, DELAYED_MS);
        timers.add(timer);
        return;
      }
      case 'stall':
        res.writeHead(200, { 'content-type': 'image/jpeg' });
        if (head) return void res.end();
        res.write((await imageFor(name, 'jpeg')).bytes.subarray(0, 64));
        return;
      case 'huge':
        res.writeHead(200, { 'content-type': 'image/jpeg' });
        return head ? void res.end() : pump(res, 4 * MAX_BYTES);
      case 'huge-declared':
        res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': String(4 * MAX_BYTES) });
        return head ? void res.end() : pump(res, 4 * MAX_BYTES);
      case 'lie':
        res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': '100' });
        return head ? void res.end() : pump(res, 4 * MAX_BYTES);
      case 'short':
        res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': '5000' });
        if (head) return void res.end();
        res.write(Buffer.alloc(100, 0xff), () => res.destroy());
        return;
      default:
        return send(404, 'text/plain', Buffer.from('Not found'));
    }
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        base: `http://127.0.0.1:${port}`,
        hits,
        close: async () => {
          for (const timer of timers) clearTimeout(timer);
          server.closeAllConnections();
          await new Promise<void>((done) => server.close(() => done()));
        },
      });
    }),
  );
}

async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/refused.jpg`;
}

// ---------------------------------------------------------------------------------------------
// The emulator (started here so the download limits can be set)
// ---------------------------------------------------------------------------------------------

type MediaEmulator = TestEmulator;

/** The shared helper, with download limits small enough to test the safety limits quickly. */
function startMediaEmulator(): Promise<MediaEmulator> {
  return startTestEmulator(FIXTURE, { downloadTimeoutMs: DOWNLOAD_TIMEOUT_MS, downloadMaxBytes: MAX_BYTES });
}

let api: MediaEmulator;
let origin: Origin;
let refusedUrl: string;

beforeAll(async () => {
  origin = await startOrigin();
  refusedUrl = await closedPortUrl();
  api = await startMediaEmulator();
});

afterAll(async () => {
  await origin?.close();
  await api?.close();
});

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

function tokensOf(org = 'acme'): { read: string; write: string } {
  const tokens = api.tokens[org];
  if (!tokens) throw new Error(`the media fixture has no organization "${org}"`);
  return tokens;
}

let counter = 0;
/** A name no other test uses: for slugs, titles and origin URLs. */
function unique(prefix: string): string {
  counter += 1;
  return `${prefix}-${counter}`;
}

const at = (path: string): string => `${origin.base}${path}`;

function write<T = unknown>(
  method: string,
  path: string,
  body: Body,
  org = 'acme',
  query?: Record<string, string>,
): Promise<ApiResponse<T>> {
  return api.request<T>(method, path, { headerToken: tokensOf(org).write, body, ...(query ? { query } : {}) });
}

function read<T = unknown>(path: string, query: Record<string, string | number> = {}, org = 'acme'): Promise<ApiResponse<T>> {
  return api.request<T>('GET', path, { token: tokensOf(org).read, query });
}

async function idle(): Promise<void> {
  await api.emulator.idle();
}

async function dataFile(): Promise<StoreData> {
  await idle();
  return storeSchema.parse(JSON.parse(await readFile(join(api.dataDir, 'data.json'), 'utf8')));
}

async function orgData(org = 'acme'): Promise<Organization> {
  const found = (await dataFile()).organizations.find((o) => o.slug === org);
  if (!found) throw new Error(`no organization "${org}" in the data file`);
  return found;
}

/** Index into the job list: jobs after it are the ones a test caused. */
const mark = (): number => api.emulator.jobs.list().length;

function mediaJobsSince(from: number): JobRecord[] {
  return api.emulator.jobs
    .list()
    .slice(from)
    .filter((j) => j.kind === 'media.import');
}

/** Statuses of the media.import jobs since `from`, in order (read after idle(): all finished). */
function mediaOutcomes(from: number): string[] {
  return mediaJobsSince(from).map((j) => j.status);
}

/** GET requests the origin got for `path` (the 404 check of page writes uses HEAD). */
const downloads = (path: string): number => origin.hits.filter((h) => h === `GET ${path}`).length;

function expectPending(res: ApiResponse): void {
  expect(res.status, res.text).toBe(202);
  expect(res.body).toEqual({ status: 'pending' });
}

const liveUrl = (id: string): string => `${api.cdnUrl}/${id}`;

/** `${cdnUrl}/<id>` → `<id>`, failing when the value is anything else. */
function cdnId(value: unknown): string {
  expect(typeof value).toBe('string');
  const prefix = `${api.cdnUrl}/`;
  expect(String(value).startsWith(prefix), `${String(value)} is not a URL of the emulator's CDN ${prefix}`).toBe(true);
  const id = String(value).slice(prefix.length);
  expect(id).toMatch(MEDIA_ID);
  return id;
}

interface CdnResponse {
  status: number;
  headers: Headers;
  bytes: Buffer;
  json: unknown;
}

/** A request to the CDN: `path` is what follows `{cdn_url}/`. */
async function cdn(path: string, init: RequestInit = {}): Promise<CdnResponse> {
  const res = await fetch(`${api.cdnUrl}/${path}`, init);
  const bytes = Buffer.from(await res.arrayBuffer());
  const isJson = (res.headers.get('content-type') ?? '').includes('json');
  return {
    status: res.status,
    headers: res.headers,
    bytes,
    json: isJson && bytes.length > 0 ? JSON.parse(bytes.toString('utf8')) : undefined,
  };
}

/**
 * GET with If-None-Match over node:http. Not fetch: fetch adds `Cache-Control: no-cache` to a
 * request carrying a conditional header, which (rightly) turns the 304 off.
 */
function conditionalGet(path: string, etag: string): Promise<{ status: number; length: number }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${api.cdnUrl}/${path}`, { headers: { 'if-none-match': etag } }, (res) => {
      let length = 0;
      res.on('data', (chunk: Buffer) => (length += chunk.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, length }));
    });
    req.on('error', reject);
    req.end();
  });
}

interface Expected {
  served: Served;
  /** Extension of the library file. */
  ext: string;
  alt?: string | null;
  org?: string;
}

const folderOf = (org: string): string => org.replace(/[^A-Za-z0-9_-]/g, '_');

/**
 * The one library record downloaded from `url`, checked field by field; its file holds the
 * origin's bytes and the CDN serves them with the right type.
 */
async function expectInLibrary(url: string, expected: Expected): Promise<MediaRecord> {
  const org = expected.org ?? 'acme';
  const records = (await orgData(org)).media.filter((m) => m.original_url === url);
  expect(records, `library records downloaded from ${url}`).toHaveLength(1);
  const record = records[0]!;
  expect(record).toEqual({
    id: expect.stringMatching(MEDIA_ID),
    file: `media/${folderOf(org)}/${record.id}.${expected.ext}`,
    original_url: url,
    content_type: expected.served.contentType,
    size: expected.served.bytes.length,
    width: expected.served.width,
    height: expected.served.height,
    alt: expected.alt ?? null,
    created: expect.any(String),
  });
  expect((await readFile(join(api.dataDir, record.file))).equals(expected.served.bytes)).toBe(true);
  const res = await cdn(record.id);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe(expected.served.contentType);
  expect(res.bytes.equals(expected.served.bytes)).toBe(true);
  return record;
}

/** The one failed import of `url` since `from`: its reason names the URL and the cause. */
function expectFailedImport(from: number, url: string, cause: RegExp): void {
  const jobs = mediaJobsSince(from).filter((j) => j.error?.includes(url) ?? false);
  expect(
    jobs.map((j) => j.status),
    `media.import jobs for ${url}: ${JSON.stringify(mediaJobsSince(from))}`,
  ).toEqual(['failed']);
  const error = jobs[0]!.error ?? '';
  expect(error).toMatch(cause);
  expect(error).toContain(KEEPS_REMOTE);
}

async function expectNotInLibrary(url: string, org = 'acme'): Promise<void> {
  expect((await orgData(org)).media.filter((m) => m.original_url === url)).toEqual([]);
}

/** Files in the organization's media folder. */
async function mediaFiles(org = 'acme'): Promise<string[]> {
  const dir = join(api.dataDir, 'media', folderOf(org));
  return existsSync(dir) ? (await readdir(dir)).sort() : [];
}

/** Pixel colour at (x, y), as the nearest of a few named colours. */
async function colourAt(bytes: Buffer, x: number, y: number): Promise<string> {
  const [r, g, b] = await rgbAt(bytes, x, y);
  const named: Record<string, [number, number, number]> = {
    red: [255, 0, 0],
    green: [0, 255, 0],
    blue: [0, 0, 255],
    yellow: [255, 255, 0],
    magenta: [255, 0, 255],
    white: [255, 255, 255],
    black: [0, 0, 0],
  };
  let best = '';
  let bestDistance = Infinity;
  for (const [name, [nr, ng, nb]] of Object.entries(named)) {
    const distance = (r - nr) ** 2 + (g - ng) ** 2 + (b - nb) ** 2;
    if (distance < bestDistance) [best, bestDistance] = [name, distance];
  }
  return best;
}

async function rgbAt(bytes: Buffer, x: number, y: number): Promise<[number, number, number, number]> {
  const { data, info } = await sharp(bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const i = (y * info.width + x) * info.channels;
  return [data[i]!, data[i + 1]!, data[i + 2]!, data[i + 3]!];
}

// Posts ---------------------------------------------------------------------------------------

async function createPost(body: Body): Promise<PostJson> {
  expectPending(await write('POST', '/posts/', body));
  await idle();
  return readPost(String(body['slug']));
}

async function patchPost(slug: string, body: Body): Promise<PostJson> {
  expectPending(await write('PATCH', `/posts/${slug}/`, body));
  await idle();
  return readPost(slug);
}

async function readPost(slug: string): Promise<PostJson> {
  const res = await read<{ data: PostJson }>(`/posts/${slug}/`);
  expect(res.status, res.text).toBe(200);
  return res.body.data;
}

async function storedPost(slug: string): Promise<Post> {
  const post = (await orgData()).posts.find((p) => p.slug === slug && p.deleted === null);
  if (!post) throw new Error(`no post "${slug}" in the data file`);
  return post;
}

// Pages ---------------------------------------------------------------------------------------

/** Every gallery field, empty unless given (spec: POST /pages/ rule 1). */
const gallery = (fields: Body = {}): Body => ({ title: 'Gallery', hero: '', attachment: '', seo: '', slides: [], ...fields });

async function createPage(slug: string, fields: Body, org = 'acme', pageType = 'gallery'): Promise<void> {
  expectPending(await write('POST', '/pages/', { title: slug, slug, page_type: pageType, status: 'published', fields }, org));
  await idle();
}

async function patchPage(slug: string, body: Body, org = 'acme', pageType = 'gallery', query?: Record<string, string>): Promise<void> {
  expectPending(await write('PATCH', `/pages/${pageType}/${slug}/`, body, org, query));
  await idle();
}

async function readPage(slug: string, query: Record<string, string | number> = {}, org = 'acme', pageType = 'gallery'): Promise<PageJson> {
  const res = await read<{ data: PageJson }>(`/pages/${pageType}/${slug}/`, query, org);
  expect(res.status, res.text).toBe(200);
  return res.body.data;
}

async function storedPageFields(slug: string, org = 'acme'): Promise<Record<string, unknown>> {
  const page = (await orgData(org)).pages.find((p) => p.slug === slug && p.deleted === null);
  if (!page) throw new Error(`no page "${slug}" in the data file`);
  return (page.draft_version ?? page.published_version)?.fields ?? {};
}

// Collection items ----------------------------------------------------------------------------

/** Creates a published item named `name` (flat, or in its `en` locale) and returns its id. */
async function createItem(key: string, fields: Body, name: string, org = 'acme'): Promise<number> {
  expectPending(await write('POST', '/content/', { key, status: 'published', fields }, org));
  await idle();
  const collection = (await orgData(org)).collections.find((c) => c.key === key);
  const item = collection?.items.find((i) => {
    const en = i.fields['en'];
    return i.fields['name'] === name || (typeof en === 'object' && en !== null && (en as Body)['name'] === name);
  });
  if (!item) throw new Error(`the item named ${name} was not created`);
  return item.id;
}

async function readItem(key: string, id: number, query: Record<string, string | number> = {}, org = 'acme'): Promise<ItemJson> {
  const res = await read<{ data: ItemJson }>(`/content/${key}/${id}/`, query, org);
  expect(res.status, res.text).toBe(200);
  return res.body.data;
}

async function storedItemFields(id: number, org = 'acme'): Promise<Record<string, unknown>> {
  for (const collection of (await orgData(org)).collections) {
    const item = collection.items.find((i) => i.id === id);
    if (item) return item.fields;
  }
  throw new Error(`no item ${id} in the data file`);
}

// ---------------------------------------------------------------------------------------------
// Posts: featured_image
// ---------------------------------------------------------------------------------------------

describe('post featured_image: downloaded into the media library', () => {
  it('POST: the read shows a CDN URL serving the same bytes; the data file holds media:<id> and the record', async () => {
    const slug = unique('featured-post');
    const path = `/jpg/${slug}`;
    const from = mark();
    const post = await createPost({
      title: slug,
      slug,
      status: 'published',
      featured_image: at(path),
      featured_image_alt: 'A featured alt',
    });
    expect(mediaOutcomes(from)).toEqual(['succeeded']);
    const id = cdnId(post.featured_image);
    expect(post.featured_image_alt).toBe('A featured alt');
    const record = await expectInLibrary(at(path), { served: await imageFor(slug, 'jpeg'), ext: 'jpg', alt: 'A featured alt' });
    expect(record.id).toBe(id);
    expect((await storedPost(slug)).featured_image).toBe(`media:${id}`);
    expect(downloads(path)).toBe(1);
  });

  it('PATCH: a new featured_image is downloaded too (PNG keeps its type and extension)', async () => {
    const slug = unique('featured-patch');
    await createPost({ title: slug, slug });
    const path = `/png/${slug}`;
    const from = mark();
    const post = await patchPost(slug, { featured_image: at(path) });
    expect(mediaOutcomes(from)).toEqual(['succeeded']);
    const record = await expectInLibrary(at(path), { served: await imageFor(slug, 'png'), ext: 'png' });
    expect(cdnId(post.featured_image)).toBe(record.id);
    expect((await storedPost(slug)).featured_image).toBe(`media:${record.id}`);
  });

  it('PATCH without featured_image queues no download', async () => {
    const slug = unique('featured-untouched');
    await createPost({ title: slug, slug, featured_image: at(`/jpg/${slug}`) });
    const from = mark();
    await patchPost(slug, { summary: 'Only the summary changes' });
    expect(mediaJobsSince(from)).toEqual([]);
  });

  it('a redirect to an image is followed; the record keeps the URL as written', async () => {
    const slug = unique('redirected');
    const url = at(`/redirect/${slug}`);
    const from = mark();
    const post = await createPost({ title: slug, slug, featured_image: url });
    expect(mediaOutcomes(from)).toEqual(['succeeded']);
    const record = await expectInLibrary(url, { served: await imageFor(slug, 'jpeg'), ext: 'jpg' });
    expect(cdnId(post.featured_image)).toBe(record.id);
    expect(downloads(`/jpg/${slug}`)).toBe(1);
  });

  it('the extension comes from the Content-Type (case and parameters ignored), not from the URL', async () => {
    const slug = unique('typed');
    const url = at(`/typed/${slug}.jpg`);
    await createPost({ title: slug, slug, featured_image: url });
    const png = await imageFor(`${slug}.jpg`, 'png');
    await expectInLibrary(url, { served: png, ext: 'png' });
  });

  describe('a failed download fails the media.import job with a reason naming the URL and the cause; the post keeps the remote URL', () => {
    it.each<[string, string, RegExp]>([
      ['404', '/missing', /the server answered 404/],
      ['text/html', '/html', /content type "text\/html" is not an image/],
      ['no answer within the timeout', '/slow', new RegExp(`no answer within ${DOWNLOAD_TIMEOUT_MS / 1000} s`)],
      ['a body that stalls past the timeout', '/stall', new RegExp(`no answer within ${DOWNLOAD_TIMEOUT_MS / 1000} s`)],
      ['a streamed body over the size cap', '/huge', new RegExp(`larger than the ${MAX_BYTES}-byte limit`)],
      [
        'a declared Content-Length over the size cap',
        '/huge-declared',
        new RegExp(`${4 * MAX_BYTES} bytes is over the ${MAX_BYTES}-byte limit`),
      ],
      ['a transfer cut short', '/short', /Could not download/],
    ])('%s', async (_why, prefix, cause) => {
      const slug = unique(`failing${prefix.replace('/', '-')}`);
      const url = at(`${prefix}/${slug}`);
      const filesBefore = await mediaFiles();
      const from = mark();
      const post = await createPost({ title: slug, slug, featured_image: url });
      expectFailedImport(from, url, cause);
      expect(post.featured_image).toBe(url);
      expect((await storedPost(slug)).featured_image).toBe(url);
      await expectNotInLibrary(url);
      // Nothing half-written is left behind.
      expect(await mediaFiles()).toEqual(filesBefore);
    });

    it('an unreachable host', async () => {
      const slug = unique('refused');
      const from = mark();
      const post = await createPost({ title: slug, slug, featured_image: refusedUrl });
      expectFailedImport(from, refusedUrl, /ECONNREFUSED/);
      expect(post.featured_image).toBe(refusedUrl);
    });
  });

  it('a Content-Length that lies (small, then far more bytes): never more than the cap is stored', async () => {
    const slug = unique('liar');
    const url = at(`/lie/${slug}`);
    const from = mark();
    await createPost({ title: slug, slug, featured_image: url });
    const [job] = mediaJobsSince(from);
    expect(job?.status === 'failed' || job?.status === 'succeeded').toBe(true);
    const records = (await orgData()).media.filter((m) => m.original_url === url);
    for (const record of records) {
      expect(record.size).toBeLessThanOrEqual(100);
      expect((await readFile(join(api.dataDir, record.file))).length).toBeLessThanOrEqual(100);
    }
    if (job?.status === 'failed') expect(job.error).toContain(url);
  });

  it('a post deleted while its image downloads: the job fails saying so; the file stays in the library', async () => {
    const slug = unique('deleted-meanwhile');
    const url = at(`/delayed/${slug}`);
    const started = new Promise<void>((resolve) => {
      const off = api.emulator.bus.subscribe((event) => {
        if (event.type === 'job.started' && event.job.kind === 'media.import') {
          off();
          resolve();
        }
      });
    });
    const from = mark();
    expectPending(await write('POST', '/posts/', { title: slug, slug, featured_image: url }));
    await started;
    expect((await api.request('DELETE', `/posts/${slug}/`, { headerToken: tokensOf().write })).status).toBe(204);
    await idle();
    const jobs = mediaJobsSince(from);
    expect(jobs.map((j) => j.status)).toEqual(['failed']);
    expect(jobs[0]!.error).toContain('deleted');
    await expectInLibrary(url, { served: await imageFor(slug, 'jpeg'), ext: 'jpg' });
  });

  it('featured_image_alt: 250 characters are accepted and kept on the record; 251 → 400', async () => {
    const slug = unique('alt-250');
    const alt = 'a'.repeat(250);
    await createPost({ title: slug, slug, featured_image: at(`/jpg/${slug}`), featured_image_alt: alt });
    const record = await expectInLibrary(at(`/jpg/${slug}`), { served: await imageFor(slug, 'jpeg'), ext: 'jpg', alt });
    expect(record.alt).toHaveLength(250);
    const res = await write<FieldErrorsJson>('POST', '/posts/', {
      title: 'Too long alt',
      featured_image: at('/jpg/alt-251'),
      featured_image_alt: 'a'.repeat(251),
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body)).toEqual(['featured_image_alt']);
  });
});

// ---------------------------------------------------------------------------------------------
// Posts: images of the body
// ---------------------------------------------------------------------------------------------

describe('post body images (upload_images_to_media_library)', () => {
  it('true: every remote <img src> is downloaded once and shown as a CDN URL; other markup is untouched', async () => {
    const slug = unique('body-upload');
    const jpg = at(`/jpg/${slug}-a`);
    const png = at(`/png/${slug}-b`);
    const body =
      `<p>Intro <a href="${at('/html/link')}">a link</a></p>` +
      `<img src="${jpg}" alt="first"><figure><img class="wide" src='${png}'></figure>` +
      `<img src="${jpg}" alt="again"><img src="/relative.jpg"><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">`;
    const from = mark();
    const post = await createPost({ title: slug, slug, status: 'published', body, upload_images_to_media_library: true });
    expect(mediaOutcomes(from)).toEqual(['succeeded', 'succeeded']);
    const first = await expectInLibrary(jpg, { served: await imageFor(`${slug}-a`, 'jpeg'), ext: 'jpg' });
    const second = await expectInLibrary(png, { served: await imageFor(`${slug}-b`, 'png'), ext: 'png' });
    const shown =
      `<p>Intro <a href="${at('/html/link')}">a link</a></p>` +
      `<img src="${liveUrl(first.id)}" alt="first"><figure><img class="wide" src='${liveUrl(second.id)}'></figure>` +
      `<img src="${liveUrl(first.id)}" alt="again"><img src="/relative.jpg"><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">`;
    expect(post.body).toBe(shown);
    expect((await storedPost(slug)).body).toBe(shown.replaceAll(`${api.cdnUrl}/`, 'media:'));
    expect(downloads(`/jpg/${slug}-a`)).toBe(1);
    expect(downloads('/html/link')).toBe(0);
  });

  it('true: `&amp;` in a src is the escaped `&` of the URL downloaded', async () => {
    const slug = unique('body-amp');
    const url = at(`/jpg/${slug}?a=1&b=2`);
    const post = await createPost({
      title: slug,
      slug,
      body: `<img src="${url.replace('&', '&amp;')}">`,
      upload_images_to_media_library: true,
    });
    const record = await expectInLibrary(url, { served: await imageFor(slug, 'jpeg'), ext: 'jpg' });
    expect(post.body).toBe(`<img src="${liveUrl(record.id)}">`);
  });

  it('true: an image that fails keeps its remote URL, the others are replaced', async () => {
    const slug = unique('body-partial');
    const good = at(`/jpg/${slug}`);
    const bad = at(`/missing/${slug}`);
    const from = mark();
    const post = await createPost({
      title: slug,
      slug,
      body: `<img src="${bad}"><img src="${good}">`,
      upload_images_to_media_library: true,
    });
    expectFailedImport(from, bad, /404/);
    const record = await expectInLibrary(good, { served: await imageFor(slug, 'jpeg'), ext: 'jpg' });
    expect(post.body).toBe(`<img src="${bad}"><img src="${liveUrl(record.id)}">`);
  });

  it.each<[string, Body]>([
    ['false', { upload_images_to_media_library: false }],
    ['omitted (default false)', {}],
  ])('%s: the body is left as written and nothing is downloaded', async (_name, flag) => {
    const slug = unique('body-kept');
    const body = `<p><img src="${at(`/jpg/${slug}`)}"></p>`;
    const from = mark();
    const post = await createPost({ title: slug, slug, body, ...flag });
    expect(mediaJobsSince(from)).toEqual([]);
    expect(post.body).toBe(body);
    expect((await storedPost(slug)).body).toBe(body);
    expect(downloads(`/jpg/${slug}`)).toBe(0);
  });

  it('PATCH with true downloads the images of the new body', async () => {
    const slug = unique('body-patch');
    await createPost({ title: slug, slug, body: '<p>No images yet</p>' });
    const url = at(`/png/${slug}`);
    const from = mark();
    const post = await patchPost(slug, { body: `<p><img src="${url}"></p>`, upload_images_to_media_library: true });
    expect(mediaOutcomes(from)).toEqual(['succeeded']);
    const record = await expectInLibrary(url, { served: await imageFor(slug, 'png'), ext: 'png' });
    expect(post.body).toBe(`<p><img src="${liveUrl(record.id)}"></p>`);
  });

  it('PATCH with false leaves new body images remote', async () => {
    const slug = unique('body-patch-false');
    await createPost({ title: slug, slug });
    const body = `<img src="${at(`/jpg/${slug}`)}">`;
    const from = mark();
    const post = await patchPost(slug, { body, upload_images_to_media_library: false });
    expect(mediaJobsSince(from)).toEqual([]);
    expect(post.body).toBe(body);
  });

  it('library images of a fixture post body are shown as CDN URLs', async () => {
    const post = await readPost('fixture-post');
    expect(post.body).toBe(`<p><img src="${liveUrl(LOGO)}" alt="logo"></p>`);
    expect(post.featured_image).toBe(liveUrl(PHOTO));
  });
});

// ---------------------------------------------------------------------------------------------
// Pages: media fields
// ---------------------------------------------------------------------------------------------

describe('page media fields', () => {
  it('POST /pages/: media at the top level, in a component and in a repeater are all downloaded', async () => {
    const slug = unique('page-all');
    const hero = at(`/jpg/${slug}-hero`);
    const seo = at(`/png/${slug}-seo`);
    const slide1 = at(`/jpg/${slug}-s1`);
    const slide2 = at(`/jpg/${slug}-s2`);
    const from = mark();
    await createPage(
      slug,
      gallery({
        hero: { url: hero, alt: 'Hero alt' },
        seo: { caption: 'SEO', image: seo },
        slides: [{ caption: 'One', image: { url: slide1, alt: 'Slide one' } }, { caption: 'Two', image: slide2 }, { caption: 'Three' }],
      }),
    );
    expect(mediaOutcomes(from)).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded']);
    const heroRecord = await expectInLibrary(hero, { served: await imageFor(`${slug}-hero`, 'jpeg'), ext: 'jpg', alt: 'Hero alt' });
    const seoRecord = await expectInLibrary(seo, { served: await imageFor(`${slug}-seo`, 'png'), ext: 'png' });
    const s1 = await expectInLibrary(slide1, { served: await imageFor(`${slug}-s1`, 'jpeg'), ext: 'jpg', alt: 'Slide one' });
    const s2 = await expectInLibrary(slide2, { served: await imageFor(`${slug}-s2`, 'jpeg'), ext: 'jpg' });

    expect((await readPage(slug)).fields).toEqual({
      title: 'Gallery',
      hero: liveUrl(heroRecord.id),
      attachment: '',
      seo: { caption: 'SEO', image: liveUrl(seoRecord.id) },
      slides: [
        { caption: 'One', image: liveUrl(s1.id) },
        { caption: 'Two', image: liveUrl(s2.id) },
        { caption: 'Three', image: '' },
      ],
    });
    expect((await readPage(slug, { alt_media_text: 1 })).fields).toEqual({
      title: 'Gallery',
      hero: { url: liveUrl(heroRecord.id), alt: 'Hero alt' },
      attachment: null,
      seo: { caption: 'SEO', image: { url: liveUrl(seoRecord.id) } },
      slides: [
        { caption: 'One', image: { url: liveUrl(s1.id), alt: 'Slide one' } },
        { caption: 'Two', image: { url: liveUrl(s2.id) } },
        { caption: 'Three', image: null },
      ],
    });
    const stored = await storedPageFields(slug);
    expect(stored['hero']).toEqual({ url: `media:${heroRecord.id}`, alt: 'Hero alt' });
    expect(stored['seo']).toEqual({ caption: 'SEO', image: { url: `media:${seoRecord.id}`, alt: null } });
    expect(stored['slides']).toEqual([
      { caption: 'One', image: { url: `media:${s1.id}`, alt: 'Slide one' } },
      { caption: 'Two', image: { url: `media:${s2.id}`, alt: null } },
      { caption: 'Three' },
    ]);
  });

  it('PATCH: new media at every level are downloaded; unlisted media keep their library file', async () => {
    const slug = unique('page-patch');
    const hero = at(`/jpg/${slug}-hero`);
    await createPage(slug, gallery({ hero }));
    const heroId = (await expectInLibrary(hero, { served: await imageFor(`${slug}-hero`, 'jpeg'), ext: 'jpg' })).id;
    const seo = at(`/jpg/${slug}-seo`);
    const slide = at(`/png/${slug}-slide`);
    const from = mark();
    await patchPage(slug, { fields: { seo: { image: { url: seo, alt: 'SEO alt' } }, slides: [{ caption: 'Only', image: slide }] } });
    expect(mediaOutcomes(from)).toEqual(['succeeded', 'succeeded']);
    const seoId = (await expectInLibrary(seo, { served: await imageFor(`${slug}-seo`, 'jpeg'), ext: 'jpg', alt: 'SEO alt' })).id;
    const slideId = (await expectInLibrary(slide, { served: await imageFor(`${slug}-slide`, 'png'), ext: 'png' })).id;
    expect((await readPage(slug, { alt_media_text: 1 })).fields).toMatchObject({
      hero: { url: liveUrl(heroId) },
      seo: { image: { url: liveUrl(seoId), alt: 'SEO alt' } },
      slides: [{ caption: 'Only', image: { url: liveUrl(slideId) } }],
    });
    const stored = await storedPageFields(slug);
    expect(stored['hero']).toEqual({ url: `media:${heroId}`, alt: null });
    expect(stored['seo']).toMatchObject({ image: { url: `media:${seoId}`, alt: 'SEO alt' } });
  });

  it('a draft page gets its media too (the draft version is updated)', async () => {
    const slug = unique('page-draft');
    const hero = at(`/jpg/${slug}`);
    expectPending(await write('POST', '/pages/', { title: slug, slug, page_type: 'gallery', fields: gallery({ hero }) }));
    await idle();
    const record = await expectInLibrary(hero, { served: await imageFor(slug, 'jpeg'), ext: 'jpg' });
    expect((await readPage(slug, { preview: 1 })).fields['hero']).toBe(liveUrl(record.id));
  });

  it('per locale: each locale gets its own file, in the organization folder (globo.intl → media/globo_intl/)', async () => {
    const slug = unique('poster');
    const en = at(`/jpg/${slug}-en`);
    const es = at(`/png/${slug}-es`);
    await createPage(
      slug,
      { en: { title: 'Poster', image: en }, es: { title: 'Cartel', image: { url: es, alt: 'Cartel alt' } } },
      'globo.intl',
      'poster',
    );
    const enRecord = await expectInLibrary(en, { served: await imageFor(`${slug}-en`, 'jpeg'), ext: 'jpg', org: 'globo.intl' });
    const esRecord = await expectInLibrary(es, {
      served: await imageFor(`${slug}-es`, 'png'),
      ext: 'png',
      org: 'globo.intl',
      alt: 'Cartel alt',
    });
    expect(enRecord.file).toBe(`media/globo_intl/${enRecord.id}.jpg`);
    expect((await readPage(slug, { locale: 'en' }, 'globo.intl', 'poster')).fields).toEqual({
      title: 'Poster',
      image: liveUrl(enRecord.id),
    });
    expect((await readPage(slug, { locale: 'es', alt_media_text: 1 }, 'globo.intl', 'poster')).fields).toEqual({
      title: 'Cartel',
      image: { url: liveUrl(esRecord.id), alt: 'Cartel alt' },
    });
    expect(await storedPageFields(slug, 'globo.intl')).toEqual({
      en: { title: 'Poster', image: { url: `media:${enRecord.id}`, alt: null } },
      es: { title: 'Cartel', image: { url: `media:${esRecord.id}`, alt: 'Cartel alt' } },
    });

    // PATCH one locale (single-locale form with ?locale=): the other keeps its file.
    const es2 = at(`/jpg/${slug}-es2`);
    await patchPage(slug, { fields: { image: es2 } }, 'globo.intl', 'poster', { locale: 'es' });
    const es2Record = await expectInLibrary(es2, { served: await imageFor(`${slug}-es2`, 'jpeg'), ext: 'jpg', org: 'globo.intl' });
    expect((await readPage(slug, { locale: 'es' }, 'globo.intl', 'poster')).fields['image']).toBe(liveUrl(es2Record.id));
    expect((await readPage(slug, { locale: 'en' }, 'globo.intl', 'poster')).fields['image']).toBe(liveUrl(enRecord.id));
  });

  it('a failed download on POST and on PATCH: the job fails, the page keeps the remote URL', async () => {
    const slug = unique('page-fail');
    const html = at(`/html/${slug}`);
    let from = mark();
    await createPage(slug, gallery({ hero: { url: html, alt: 'Kept alt' } }));
    expectFailedImport(from, html, /content type "text\/html"/);
    expect((await readPage(slug, { alt_media_text: 1 })).fields['hero']).toEqual({ url: html, alt: 'Kept alt' });
    expect((await storedPageFields(slug))['hero']).toEqual({ url: html, alt: 'Kept alt' });

    const huge = at(`/huge/${slug}`);
    from = mark();
    await patchPage(slug, { fields: { slides: [{ caption: 'Big', image: huge }] } });
    expectFailedImport(from, huge, /larger than the/);
    expect((await readPage(slug)).fields['slides']).toEqual([{ caption: 'Big', image: huge }]);
    await expectNotInLibrary(html);
    await expectNotInLibrary(huge);
  });

  it('an unreachable host is accepted on a page write (only 404 and 410 refuse it); the download job fails', async () => {
    const slug = unique('page-refused');
    const from = mark();
    await createPage(slug, gallery({ hero: refusedUrl }));
    expectFailedImport(from, refusedUrl, /ECONNREFUSED/);
    expect((await readPage(slug)).fields['hero']).toBe(refusedUrl);
  });

  it('a media URL that answers 404 → 400 on POST /pages/ (spec: Errors), nothing is downloaded', async () => {
    const slug = unique('page-404');
    const url = at(`/missing/${slug}`);
    const from = mark();
    const res = await write<FieldErrorsJson>('POST', '/pages/', {
      title: slug,
      slug,
      page_type: 'gallery',
      fields: gallery({ seo: { image: url } }),
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ 'fields.seo.image': [messages.mediaNotFound(url)] });
    await idle();
    expect(api.emulator.jobs.list().slice(from)).toEqual([]);
    expect(downloads(`/missing/${slug}`)).toBe(0);
  });

  it('a PDF in a media field is stored as a file of the library (no width, height)', async () => {
    const slug = unique('page-pdf');
    const url = at(`/pdf/${slug}.pdf`);
    await createPage(slug, gallery({ attachment: { url, alt: 'The brochure' } }));
    const record = await expectInLibrary(url, {
      served: { bytes: PDF, contentType: 'application/pdf', width: null, height: null },
      ext: 'pdf',
      alt: 'The brochure',
    });
    expect((await readPage(slug)).fields['attachment']).toBe(liveUrl(record.id));
  });

  it('the same URL twice in one write is downloaded once and used in both places', async () => {
    const slug = unique('page-twice');
    const url = at(`/jpg/${slug}`);
    const from = mark();
    await createPage(slug, gallery({ hero: url, slides: [{ caption: 'Same', image: { url, alt: 'Slide alt' } }] }));
    expect(mediaOutcomes(from)).toEqual(['succeeded']);
    const record = await expectInLibrary(url, { served: await imageFor(slug, 'jpeg'), ext: 'jpg' });
    const fields = (await readPage(slug, { alt_media_text: 1 })).fields;
    expect(fields['hero']).toEqual({ url: liveUrl(record.id) });
    expect(fields['slides']).toEqual([{ caption: 'Same', image: { url: liveUrl(record.id), alt: 'Slide alt' } }]);
    expect(downloads(`/jpg/${slug}`)).toBe(1);
  });

  it('fixture library media are read as CDN URLs', async () => {
    expect((await readPage('fixture-gallery', { alt_media_text: 1 })).fields).toMatchObject({
      hero: { url: liveUrl(PHOTO), alt: 'Four coloured quadrants' },
      attachment: { url: liveUrl(LOGO) },
    });
  });
});

describe('media alt text', () => {
  it('{url, alt} keeps the alt: URL string by default, {url, alt} with alt_media_text=1', async () => {
    const slug = unique('alt-kept');
    const url = at(`/jpg/${slug}`);
    await createPage(slug, gallery({ hero: { url, alt: 'Kept' } }));
    const id = (await expectInLibrary(url, { served: await imageFor(slug, 'jpeg'), ext: 'jpg', alt: 'Kept' })).id;
    expect((await readPage(slug)).fields['hero']).toBe(liveUrl(id));
    expect((await readPage(slug, { alt_media_text: 0 })).fields['hero']).toBe(liveUrl(id));
    expect((await readPage(slug, { alt_media_text: 1 })).fields['hero']).toEqual({ url: liveUrl(id), alt: 'Kept' });
  });

  it('a plain URL replaces existing alt: writing back the CDN URL a read returned leaves {url} only', async () => {
    const slug = unique('alt-replaced');
    const url = at(`/jpg/${slug}`);
    await createPage(slug, gallery({ hero: { url, alt: 'Old alt' } }));
    const shown = (await readPage(slug)).fields['hero'];
    const id = cdnId(shown);
    const from = mark();
    const mediaBefore = (await orgData()).media.length;
    await patchPage(slug, { fields: { hero: shown } });
    expect(mediaOutcomes(from)).toEqual(['succeeded']);
    expect((await readPage(slug, { alt_media_text: 1 })).fields['hero']).toEqual({ url: liveUrl(id) });
    expect((await storedPageFields(slug))['hero']).toEqual({ url: `media:${id}`, alt: null });
    expect((await orgData()).media).toHaveLength(mediaBefore);
    expect(downloads(`/jpg/${slug}`)).toBe(1);
  });

  it('a plain remote URL replaces existing alt too (same URL: no second download)', async () => {
    const slug = unique('alt-replaced-remote');
    const url = at(`/jpg/${slug}`);
    await createPage(slug, gallery({ hero: { url, alt: 'Old alt' } }));
    await patchPage(slug, { fields: { hero: url } });
    const record = await expectInLibrary(url, { served: await imageFor(slug, 'jpeg'), ext: 'jpg', alt: 'Old alt' });
    expect((await readPage(slug, { alt_media_text: 1 })).fields['hero']).toEqual({ url: liveUrl(record.id) });
    expect(downloads(`/jpg/${slug}`)).toBe(1);
  });

  it('{url, alt} with a new alt on the same file changes only the alt', async () => {
    const slug = unique('alt-changed');
    const url = at(`/jpg/${slug}`);
    await createPage(slug, gallery({ hero: url }));
    const id = cdnId((await readPage(slug)).fields['hero']);
    await patchPage(slug, { fields: { hero: { url: liveUrl(id), alt: 'New alt' } } });
    expect((await readPage(slug, { alt_media_text: 1 })).fields['hero']).toEqual({ url: liveUrl(id), alt: 'New alt' });
  });

  it('255 characters are accepted', async () => {
    const slug = unique('alt-255');
    const alt = 'x'.repeat(255);
    await createPage(slug, gallery({ hero: { url: at(`/jpg/${slug}`), alt } }));
    expect((await readPage(slug, { alt_media_text: 1 })).fields['hero']).toMatchObject({ alt });
  });

  it.each<[string, (alt: string) => Body, string]>([
    ['top level', (alt) => gallery({ hero: { url: at('/jpg/alt-256-a'), alt } }), 'fields.hero.alt'],
    ['in a component', (alt) => gallery({ seo: { image: { url: at('/jpg/alt-256-b'), alt } } }), 'fields.seo.image.alt'],
    ['in a repeater', (alt) => gallery({ slides: [{ image: { url: at('/jpg/alt-256-c'), alt } }] }), 'fields.slides[0].image.alt'],
  ])('256 characters → 400 on page creation (%s)', async (_where, fields, key) => {
    const slug = unique('alt-256');
    const from = mark();
    const res = await write<FieldErrorsJson>('POST', '/pages/', {
      title: slug,
      slug,
      page_type: 'gallery',
      fields: fields('x'.repeat(256)),
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ [key]: [messages.maxLength(255)] });
    await idle();
    expect(api.emulator.jobs.list().slice(from)).toEqual([]);
  });

  it.each<[string, () => unknown, string, string]>([
    ['an alt that is not a string', () => ({ url: at('/jpg/alt-number'), alt: 5 }), 'fields.hero.alt', messages.notString],
    ['an object without url', () => ({ alt: 'No URL' }), 'fields.hero.url', messages.invalidUrl],
    ['a URL that is not http(s)', () => 'ftp://files.example/hero.jpg', 'fields.hero', messages.invalidUrl],
    ['a bare path', () => '/images/hero.jpg', 'fields.hero', messages.invalidUrl],
  ])('%s → 400', async (_why, hero, key, message) => {
    const slug = unique('media-invalid');
    const res = await write<FieldErrorsJson>('POST', '/pages/', {
      title: slug,
      slug,
      page_type: 'gallery',
      fields: gallery({ hero: hero() }),
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ [key]: [message] });
  });

  it.each<[string, string, string]>([
    ['not in any library', UNKNOWN_ID, 'acme'],
    ["in another organization's library", PHOTO, 'globo.intl'],
  ])('a media:<id> value %s is refused, not stored as a dangling link', async (_why, id, org) => {
    const slug = unique('media-dangling');
    const body =
      org === 'acme'
        ? { title: slug, slug, page_type: 'gallery', fields: gallery({ hero: `media:${id}` }) }
        : { title: slug, slug, page_type: 'poster', fields: { en: { title: 'x', image: `media:${id}` } } };
    const res = await write<FieldErrorsJson>('POST', '/pages/', body, org);
    await idle();
    expect(res.status, res.text).toBe(400);
    const [key, errors] = Object.entries(res.body)[0] ?? [];
    expect(key).toMatch(/^fields\.(hero|en\.image)$/);
    expect(errors?.join(' ')).toContain(id);
  });

  it('a media:<id> value of its own library is accepted and read as the CDN URL', async () => {
    const slug = unique('media-ref');
    await createPage(slug, gallery({ hero: { url: `media:${PHOTO}`, alt: 'By reference' } }));
    expect((await readPage(slug, { alt_media_text: 1 })).fields['hero']).toEqual({ url: liveUrl(PHOTO), alt: 'By reference' });
  });

  it('256 characters → 400 in a locale, and on PATCH', async () => {
    const slug = unique('alt-256-locale');
    const res = await write<FieldErrorsJson>(
      'POST',
      '/pages/',
      {
        title: slug,
        slug,
        page_type: 'poster',
        fields: { es: { title: 'x', image: { url: at('/jpg/alt-256-d'), alt: 'x'.repeat(256) } } },
      },
      'globo.intl',
    );
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ 'fields.es.image.alt': [messages.maxLength(255)] });

    const patch = await write<FieldErrorsJson>('PATCH', '/pages/gallery/fixture-gallery/', {
      fields: { hero: { url: liveUrl(PHOTO), alt: 'x'.repeat(256) } },
    });
    expect(patch.status).toBe(400);
    expect(patch.body).toEqual({ 'fields.hero.alt': [messages.maxLength(255)] });
  });
});

// ---------------------------------------------------------------------------------------------
// Collection items: media fields
// ---------------------------------------------------------------------------------------------

describe('collection item media fields', () => {
  it('POST /content/: the logo is downloaded; {url, alt} keeps the alt', async () => {
    const name = unique('brand-post');
    const url = at(`/png/${name}`);
    const from = mark();
    const id = await createItem('brands', { name, logo: { url, alt: 'Brand alt' } }, name);
    expect(mediaOutcomes(from)).toEqual(['succeeded']);
    const record = await expectInLibrary(url, { served: await imageFor(name, 'png'), ext: 'png', alt: 'Brand alt' });
    expect((await readItem('brands', id))['logo']).toBe(liveUrl(record.id));
    expect((await readItem('brands', id, { alt_media_text: 1 }))['logo']).toEqual({ url: liveUrl(record.id), alt: 'Brand alt' });
    expect((await storedItemFields(id))['logo']).toEqual({ url: `media:${record.id}`, alt: 'Brand alt' });
  });

  it('PUT: the new logo is downloaded', async () => {
    const name = unique('brand-put');
    const id = await createItem('brands', { name, logo: '' }, name);
    const url = at(`/jpg/${name}`);
    const from = mark();
    expectPending(await write('PUT', `/content/brands/${id}/`, { fields: { name, logo: url } }));
    await idle();
    expect(mediaOutcomes(from)).toEqual(['succeeded']);
    const record = await expectInLibrary(url, { served: await imageFor(name, 'jpeg'), ext: 'jpg' });
    expect((await readItem('brands', id))['logo']).toBe(liveUrl(record.id));
    expect((await storedItemFields(id))['logo']).toEqual({ url: `media:${record.id}`, alt: null });
  });

  it('PATCH: the new logo is downloaded; a plain URL replaces the alt', async () => {
    const name = unique('brand-patch');
    const id = await createItem('brands', { name, logo: { url: liveUrl(LOGO), alt: 'Old alt' } }, name);
    const url = at(`/jpg/${name}`);
    const from = mark();
    expectPending(await write('PATCH', `/content/brands/${id}/`, { fields: { logo: url } }));
    await idle();
    expect(mediaOutcomes(from)).toEqual(['succeeded']);
    const record = await expectInLibrary(url, { served: await imageFor(name, 'jpeg'), ext: 'jpg' });
    expect((await readItem('brands', id, { alt_media_text: 1 }))['logo']).toEqual({ url: liveUrl(record.id) });
  });

  it('per locale: each locale of an item gets its file', async () => {
    const name = unique('venue');
    const en = at(`/jpg/${name}-en`);
    const es = at(`/jpg/${name}-es`);
    const id = await createItem(
      'venues',
      { en: { name, photo: en }, es: { name: `${name}-es`, photo: { url: es, alt: 'Sala' } } },
      name,
      'globo.intl',
    );
    const enRecord = await expectInLibrary(en, { served: await imageFor(`${name}-en`, 'jpeg'), ext: 'jpg', org: 'globo.intl' });
    const esRecord = await expectInLibrary(es, {
      served: await imageFor(`${name}-es`, 'jpeg'),
      ext: 'jpg',
      org: 'globo.intl',
      alt: 'Sala',
    });
    expect((await readItem('venues', id, { locale: 'en' }, 'globo.intl'))['photo']).toBe(liveUrl(enRecord.id));
    expect((await readItem('venues', id, { locale: 'es', alt_media_text: 1 }, 'globo.intl'))['photo']).toEqual({
      url: liveUrl(esRecord.id),
      alt: 'Sala',
    });
  });

  it('a failed download (404: items are not checked before the 202) fails the job; the item keeps the remote URL', async () => {
    const name = unique('brand-fail');
    const url = at(`/missing/${name}`);
    const from = mark();
    const id = await createItem('brands', { name, logo: url }, name);
    expectFailedImport(from, url, /the server answered 404/);
    expect((await readItem('brands', id))['logo']).toBe(url);
    expect((await storedItemFields(id))['logo']).toEqual({ url, alt: null });
  });

  it('alt of 256 characters fails the create job (collection values are checked in the background)', async () => {
    const name = unique('brand-alt');
    const from = mark();
    expectPending(
      await write('POST', '/content/', { key: 'brands', fields: { name, logo: { url: at(`/jpg/${name}`), alt: 'x'.repeat(256) } } }),
    );
    await idle();
    const jobs = api.emulator.jobs.list().slice(from);
    expect(jobs.map((j) => [j.kind, j.status])).toEqual([['item.create', 'failed']]);
    expect(jobs[0]!.error).toContain('fields.logo.alt');
    expect(downloads(`/jpg/${name}`)).toBe(0);
  });
});

// ---------------------------------------------------------------------------------------------
// Reuse of library files
// ---------------------------------------------------------------------------------------------

describe('library reuse', () => {
  it('the same URL written twice (a post, then a page) is downloaded once: one record, both use it', async () => {
    const slug = unique('reuse');
    const path = `/jpg/${slug}`;
    const post = await createPost({ title: slug, slug, featured_image: at(path) });
    const from = mark();
    await createPage(slug, gallery({ hero: at(path) }));
    expect(mediaOutcomes(from)).toEqual(['succeeded']);
    const record = await expectInLibrary(at(path), { served: await imageFor(slug, 'jpeg'), ext: 'jpg' });
    expect(cdnId(post.featured_image)).toBe(record.id);
    expect((await readPage(slug)).fields['hero']).toBe(liveUrl(record.id));
    expect(downloads(path)).toBe(1);
  });

  it("writing one of the emulator's own CDN URLs reuses its record (no download, no new record)", async () => {
    const slug = unique('own-cdn');
    const before = (await orgData()).media;
    const hitsBefore = origin.hits.length;
    const from = mark();
    const post = await createPost({ title: slug, slug, featured_image: liveUrl(PHOTO) });
    await createPage(slug, gallery({ hero: { url: liveUrl(LOGO), alt: 'Logo' } }));
    const item = await createItem('brands', { name: slug, logo: liveUrl(PHOTO) }, slug);
    expect(mediaOutcomes(from)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    expect(post.featured_image).toBe(liveUrl(PHOTO));
    expect((await storedPost(slug)).featured_image).toBe(`media:${PHOTO}`);
    expect((await storedPageFields(slug))['hero']).toEqual({ url: `media:${LOGO}`, alt: 'Logo' });
    expect((await storedItemFields(item))['logo']).toEqual({ url: `media:${PHOTO}`, alt: null });
    expect((await orgData()).media).toEqual(before);
    expect(origin.hits.length).toBe(hitsBefore);
  });

  it("another organization's CDN URL is copied into this organization's library (records are not shared)", async () => {
    const slug = unique('cross-org');
    const url = liveUrl(PHOTO);
    const from = mark();
    await createPage(slug, { en: { title: 'Cross', image: url } }, 'globo.intl', 'poster');
    expect(mediaOutcomes(from)).toEqual(['succeeded']);
    const fixtureFile = await readFile(join(FIXTURE, 'media', 'acme', `${PHOTO}.jpg`));
    const record = await expectInLibrary(url, {
      served: { bytes: fixtureFile, contentType: 'image/jpeg', width: 320, height: 240 },
      ext: 'jpg',
      org: 'globo.intl',
    });
    expect(record.id).not.toBe(PHOTO);
    expect((await readPage(slug, { locale: 'en' }, 'globo.intl', 'poster')).fields['image']).toBe(liveUrl(record.id));
  });

  it('a CDN URL of the emulator with a transformation keeps showing the transformed image', async () => {
    const slug = unique('own-cdn-transformed');
    const written = `${api.cdnUrl}/resize=width:40/${PHOTO}`;
    const post = await createPost({ title: slug, slug, featured_image: written });
    expect(post.featured_image).not.toBeNull();
    const shown = await fetch(String(post.featured_image));
    expect(shown.status).toBe(200);
    const meta = await sharp(Buffer.from(await shown.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([40, 30]);
  });
});

// ---------------------------------------------------------------------------------------------
// The CDN: originals
// ---------------------------------------------------------------------------------------------

describe('CDN: originals', () => {
  it('GET {cdn_url}/<id>: the file, its type, Content-Length, ETag and an immutable Cache-Control', async () => {
    const file = await readFile(join(FIXTURE, 'media', 'acme', `${PHOTO}.jpg`));
    const res = await cdn(PHOTO);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(res.headers.get('content-length')).toBe(String(file.length));
    expect(res.headers.get('etag')).toBeTruthy();
    expect(res.headers.get('cache-control')).toContain('immutable');
    expect(res.headers.get('cache-control')).toContain('max-age=31536000');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.bytes.equals(file)).toBe(true);
  });

  it('PNG originals keep their type', async () => {
    const res = await cdn(LOGO);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.bytes.equals(await readFile(join(FIXTURE, 'media', 'acme', `${LOGO}.png`)))).toBe(true);
  });

  it('If-None-Match with the ETag → 304 without a body', async () => {
    const etag = (await cdn(PHOTO)).headers.get('etag') ?? '';
    expect(etag).not.toBe('');
    expect(await conditionalGet(PHOTO, etag)).toEqual({ status: 304, length: 0 });
    expect(await conditionalGet(PHOTO, '"some-other-etag"')).toMatchObject({ status: 200 });
  });

  it('HEAD: the headers of GET, no body', async () => {
    const get = await cdn(PHOTO);
    const head = await cdn(PHOTO, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.bytes.length).toBe(0);
    for (const name of ['content-type', 'content-length', 'etag', 'cache-control'])
      expect(head.headers.get(name)).toBe(get.headers.get(name));
  });

  it('an unknown id → 404 JSON (also with a transformation, and for HEAD)', async () => {
    for (const path of [UNKNOWN_ID, `resize=width:10/${UNKNOWN_ID}`, 'tooShortForAnId', '']) {
      const res = await cdn(path);
      expect(res.status, path).toBe(404);
      expect(res.json, path).toEqual({ detail: messages.notFound });
    }
    expect((await cdn(UNKNOWN_ID, { method: 'HEAD' })).status).toBe(404);
  });

  it('no path outside the library is served', async () => {
    for (const path of ['..%2Fdata.json', '..%2F..%2Fdata.json', `..%2Fmedia%2Facme%2F${PHOTO}.jpg`, `media%2Facme%2F${PHOTO}.jpg`]) {
      const res = await cdn(path);
      expect(res.status, path).toBe(404);
      expect(res.bytes.toString('utf8')).not.toContain('format_version');
    }
  });

  it('a record whose file is missing → 404 JSON naming the file', async () => {
    const res = await cdn(GHOST);
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ detail: messages.mediaFileMissing(`media/acme/${GHOST}.jpg`) });
  });

  it('a non-image (PDF) is served as is; a transformation of it → 400', async () => {
    const slug = unique('cdn-pdf');
    const url = at(`/pdf/${slug}`);
    await createPage(slug, gallery({ attachment: url }));
    const record = await expectInLibrary(url, {
      served: { bytes: PDF, contentType: 'application/pdf', width: null, height: null },
      ext: 'pdf',
    });
    const original = await cdn(record.id);
    expect(original.headers.get('content-type')).toBe('application/pdf');
    const res = await cdn(`resize=width:10/${record.id}`);
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ detail: messages.notTransformable('application/pdf') });
  });

  it('a file sent as image/jpeg that is not an image: a transformation → 400, never a 5xx', async () => {
    const slug = unique('cdn-fake');
    const url = at(`/fake/${slug}`);
    const from = mark();
    await createPost({ title: slug, slug, featured_image: url });
    const record = (await orgData()).media.find((m) => m.original_url === url);
    if (!record) {
      // Refusing it at download is fine too, with a reason.
      expectFailedImport(from, url, /image/);
      return;
    }
    expect([record.width, record.height]).toEqual([null, null]);
    const res = await cdn(`resize=width:10/${record.id}`);
    expect(res.status).toBe(400);
    expect((res.json as { detail?: unknown }).detail).toEqual(expect.any(String));
  });

  it('every file carries a script-less, sandboxed CSP: a file opened directly runs nothing on our origin', async () => {
    const res = await cdn(PHOTO);
    expect(res.headers.get('content-security-policy')).toContain('sandbox');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    const transformed = await cdn(`resize=width:20/${PHOTO}`);
    expect(transformed.headers.get('content-security-policy')).toContain('sandbox');
  });

  it('a record hand-edited to a type that is not media (text/html) is served as a download, never as a page', async () => {
    const id = 'HandEditedHtml000001';
    const file = `media/acme/${id}.html`;
    await mkdir(join(api.dataDir, 'media', 'acme'), { recursive: true });
    await writeFile(join(api.dataDir, file), '<script>alert(1)</script>');
    api.emulator.store.mutate((data) => {
      data.organizations
        .find((o) => o.slug === 'acme')!
        .media.push({
          id,
          file,
          original_url: null,
          content_type: 'text/html',
          size: 25,
          width: null,
          height: null,
          alt: null,
          created: new Date().toISOString(),
        });
    });
    const res = await cdn(id);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(res.headers.get('content-disposition')).toBe('attachment');
  });

  it('methods other than GET and HEAD → 405 JSON with Allow', async () => {
    const res = await cdn(PHOTO, { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.json).toEqual({ detail: messages.methodNotAllowed('POST') });
    expect(res.headers.get('allow')).toBe('GET, HEAD');
  });
});

// ---------------------------------------------------------------------------------------------
// The CDN: transformations
// ---------------------------------------------------------------------------------------------

describe('CDN: transformations (PHOTO is 320×240, quadrants red green / blue yellow)', () => {
  async function transformed(steps: string, id = PHOTO): Promise<{ res: CdnResponse; meta: Metadata }> {
    const res = await cdn(`${steps}/${id}`);
    expect(res.status, `${steps}: ${res.bytes.toString('utf8').slice(0, 200)}`).toBe(200);
    return { res, meta: await sharp(res.bytes).metadata() };
  }

  it.each<[string, string, number, number, string]>([
    // resize: both sides with each fit
    ['resize=width:100,height:100', 'jpeg', 100, 75, 'image/jpeg'],
    ['resize=width:100,height:100,fit:clip', 'jpeg', 100, 75, 'image/jpeg'],
    ['resize=width:100,height:100,fit:crop', 'jpeg', 100, 100, 'image/jpeg'],
    ['resize=width:100,height:100,fit:scale', 'jpeg', 100, 100, 'image/jpeg'],
    ['resize=width:100,height:100,fit:max', 'jpeg', 100, 75, 'image/jpeg'],
    ['resize=width:1000,height:1000,fit:clip', 'jpeg', 1000, 750, 'image/jpeg'],
    ['resize=width:1000,height:1000,fit:max', 'jpeg', 320, 240, 'image/jpeg'],
    ['resize=width:500,height:100,fit:scale', 'jpeg', 500, 100, 'image/jpeg'],
    // one side
    ['resize=width:160', 'jpeg', 160, 120, 'image/jpeg'],
    ['resize=height:60', 'jpeg', 80, 60, 'image/jpeg'],
    ['resize=width:640', 'jpeg', 640, 480, 'image/jpeg'],
    ['resize=width:640,fit:max', 'jpeg', 320, 240, 'image/jpeg'],
    // crop
    ['crop=dim:[0,0,160,120]', 'jpeg', 160, 120, 'image/jpeg'],
    ['crop=dim:[300,200,100,100]', 'jpeg', 20, 40, 'image/jpeg'],
    // rotate, flip, flop, filters
    ['rotate=deg:90', 'jpeg', 240, 320, 'image/jpeg'],
    ['rotate=deg:180', 'jpeg', 320, 240, 'image/jpeg'],
    ['rotate=deg:exif', 'jpeg', 320, 240, 'image/jpeg'],
    ['flip', 'jpeg', 320, 240, 'image/jpeg'],
    ['flop', 'jpeg', 320, 240, 'image/jpeg'],
    ['monochrome', 'jpeg', 320, 240, 'image/jpeg'],
    ['blur=amount:5', 'jpeg', 320, 240, 'image/jpeg'],
    ['sharpen=amount:3', 'jpeg', 320, 240, 'image/jpeg'],
    // output formats and quality
    ['output=format:jpg,quality:70', 'jpeg', 320, 240, 'image/jpeg'],
    ['output=format:png', 'png', 320, 240, 'image/png'],
    ['output=format:webp,quality:50', 'webp', 320, 240, 'image/webp'],
    ['output=format:avif,quality:40', 'heif', 320, 240, 'image/avif'],
    ['quality=value:30', 'jpeg', 320, 240, 'image/jpeg'],
    // chains
    ['resize=width:160/output=format:png', 'png', 160, 120, 'image/png'],
    ['rotate=deg:90/resize=width:120/output=format:webp', 'webp', 120, 160, 'image/webp'],
  ])('%s → %s %i×%i', async (steps, format, width, height, type) => {
    const { res, meta } = await transformed(steps);
    expect(res.headers.get('content-type')).toBe(type);
    expect(res.headers.get('content-length')).toBe(String(res.bytes.length));
    expect(res.headers.get('cache-control')).toContain('immutable');
    expect([meta.format, meta.width, meta.height]).toEqual([format, width, height]);
    if (format === 'heif') expect(meta.compression).toBe('av1');
  });

  it('rotate=deg:45 grows the canvas and fills it with the background colour', async () => {
    const { res, meta } = await transformed('rotate=deg:45,background:ff00ff/output=format:png');
    expect(meta.width).toBeGreaterThan(320);
    expect(meta.height).toBeGreaterThan(240);
    expect(await colourAt(res.bytes, 1, 1)).toBe('magenta');
    const white = await transformed('rotate=deg:45/output=format:png');
    expect(await colourAt(white.res.bytes, 1, 1)).toBe('white');
  });

  it.each<[string, [number, number, string][]]>([
    [
      'output=format:png',
      [
        [80, 60, 'red'],
        [240, 60, 'green'],
        [80, 180, 'blue'],
        [240, 180, 'yellow'],
      ],
    ],
    [
      'flip/output=format:png',
      [
        [80, 60, 'blue'],
        [240, 60, 'yellow'],
        [80, 180, 'red'],
      ],
    ],
    [
      'flop/output=format:png',
      [
        [80, 60, 'green'],
        [240, 60, 'red'],
        [80, 180, 'yellow'],
      ],
    ],
    [
      'rotate=deg:90/output=format:png',
      [
        [60, 80, 'blue'],
        [180, 80, 'red'],
        [60, 240, 'yellow'],
        [180, 240, 'green'],
      ],
    ],
    [
      'crop=dim:[160,120,160,120]/output=format:png',
      [
        [10, 10, 'yellow'],
        [150, 110, 'yellow'],
      ],
    ],
    ['resize=width:100,height:240,fit:crop,align:left/output=format:png', [[50, 60, 'red']]],
    ['resize=width:100,height:240,fit:crop,align:right/output=format:png', [[50, 60, 'green']]],
    ['resize=width:320,height:100,fit:crop,align:top/output=format:png', [[80, 50, 'red']]],
    ['resize=width:320,height:100,fit:crop,align:bottom/output=format:png', [[80, 50, 'blue']]],
    // Chains apply in the order given.
    ['rotate=deg:90/crop=dim:[0,0,120,160]/output=format:png', [[60, 80, 'blue']]],
    ['crop=dim:[0,0,120,160]/rotate=deg:90/output=format:png', [[100, 60, 'red']]],
    ['flip/flop/output=format:png', [[80, 60, 'yellow']]],
  ])('%s: pixels land where expected', async (steps, samples) => {
    const { res } = await transformed(steps);
    for (const [x, y, colour] of samples) expect(await colourAt(res.bytes, x, y), `${steps} at ${x},${y}`).toBe(colour);
  });

  it('chains apply in order: the same steps in another order give other sizes', async () => {
    const a = await transformed('rotate=deg:90/crop=dim:[0,0,120,160]');
    const b = await transformed('crop=dim:[0,0,120,160]/rotate=deg:90');
    expect([a.meta.width, a.meta.height]).toEqual([120, 160]);
    expect([b.meta.width, b.meta.height]).toEqual([160, 120]);
    const c = await transformed('resize=width:100/crop=dim:[50,0,40,40]');
    expect([c.meta.width, c.meta.height]).toEqual([40, 40]);
  });

  it('monochrome: every pixel is grey', async () => {
    const { res } = await transformed('monochrome/output=format:png');
    for (const [x, y] of [
      [80, 60],
      [240, 60],
      [80, 180],
      [240, 180],
    ] as const) {
      const [r, g, b] = await rgbAt(res.bytes, x, y);
      expect(Math.abs(r - g) + Math.abs(g - b), `${x},${y}`).toBeLessThanOrEqual(4);
    }
  });

  it('blur mixes the colours across an edge; sharpen changes the image but not its size', async () => {
    const plain = await transformed('output=format:png');
    const blurred = await transformed('blur=amount:20/output=format:png');
    const [, gPlain] = await rgbAt(plain.res.bytes, 150, 60);
    const [, gBlurred] = await rgbAt(blurred.res.bytes, 150, 60);
    expect(gPlain).toBeLessThan(60);
    expect(gBlurred).toBeGreaterThan(gPlain + 30);
    const sharpened = await transformed('sharpen=amount:5/output=format:png');
    expect(sharpened.res.bytes.equals(plain.res.bytes)).toBe(false);
    expect([sharpened.meta.width, sharpened.meta.height]).toEqual([320, 240]);
  });

  it('quality: a lower quality gives a smaller file (output=…,quality: and quality=value:)', async () => {
    const low = await transformed('output=format:jpg,quality:5');
    const high = await transformed('output=format:jpg,quality:95');
    expect(low.res.bytes.length).toBeLessThan(high.res.bytes.length);
    const lowValue = await transformed('quality=value:5');
    const highValue = await transformed('quality=value:95');
    expect(lowValue.res.bytes.length).toBeLessThan(highValue.res.bytes.length);
    expect(lowValue.meta.format).toBe('jpeg');
    const webpLow = await transformed('output=format:webp,quality:5');
    const webpHigh = await transformed('output=format:webp,quality:95');
    expect(webpLow.res.bytes.length).toBeLessThan(webpHigh.res.bytes.length);
  });

  it('a PNG with transparency stays PNG with alpha; JPEG output flattens it on white', async () => {
    const png = await transformed('resize=width:32', LOGO);
    expect([png.meta.format, png.meta.width, png.meta.height, png.meta.hasAlpha]).toEqual(['png', 32, 24, true]);
    expect(png.res.headers.get('content-type')).toBe('image/png');
    const [, , , alpha] = await rgbAt(png.res.bytes, 28, 12);
    expect(alpha).toBe(0);
    const jpg = await transformed('output=format:jpg', LOGO);
    expect(jpg.meta.format).toBe('jpeg');
    expect(await colourAt(jpg.res.bytes, 10, 24)).toBe('magenta');
    expect(await colourAt(jpg.res.bytes, 54, 24)).toBe('white');
    const webp = await transformed('output=format:webp', LOGO);
    expect([webp.meta.format, webp.meta.hasAlpha]).toEqual(['webp', true]);
  });

  it('a downloaded image can be transformed like a fixture one', async () => {
    const slug = unique('cdn-downloaded');
    const post = await createPost({ title: slug, slug, featured_image: at(`/png/${slug}`) });
    const id = cdnId(post.featured_image);
    const { meta } = await transformed('resize=width:10,height:10,fit:scale/output=format:webp', id);
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 10, 10]);
  });

  it('the output stays within the documented bound of 4000 px a side, whatever the chain', async () => {
    const res = await cdn(`resize=width:4000/rotate=deg:45/${PHOTO}`);
    if (res.status === 400) {
      expect((res.json as { detail?: unknown }).detail).toEqual(expect.any(String));
      return;
    }
    expect(res.status).toBe(200);
    const meta = await sharp(res.bytes).metadata();
    expect(meta.width ?? 0).toBeLessThanOrEqual(4000);
    expect(meta.height ?? 0).toBeLessThanOrEqual(4000);
  });

  describe('malformed, unknown or out-of-range steps → 400 JSON with detail', () => {
    it.each<[string, string]>([
      ['nonsense', 'unknown step "nonsense"'],
      ['resize', 'give width, height or both'],
      ['resize=width:0', 'width must be a whole number from 1 to 4000'],
      ['resize=width:4001', 'width must be a whole number from 1 to 4000'],
      ['resize=height:4001', 'height must be a whole number from 1 to 4000'],
      ['resize=width:abc', 'width must be a whole number from 1 to 4000'],
      ['resize=width:10,fit:fill', 'fit must be one of clip, crop, scale, max'],
      ['resize=width:10,align:middle', 'align must be one of'],
      ['resize=width:10,colour:red', 'unknown option "colour"'],
      ['resize=width:10,width:20', '"width" is given twice'],
      ['resize=width', 'is not key:value'],
      ['crop=dim:[0,0,10]', 'dim must be [x,y,width,height]'],
      ['crop=dim:[0,0,0,10]', 'crop width and height must be from 1 to 4000'],
      ['crop=dim:[320,0,10,10]', 'the area starts outside the 320×240 image'],
      ['crop=dim:[0,240,10,10]', 'the area starts outside the 320×240 image'],
      ['resize=width:100/crop=dim:[150,0,10,10]', 'the area starts outside the 100×75 image'],
      ['rotate=deg:360', 'deg must be a whole number from 0 to 359'],
      ['rotate=deg:90,background:red', 'background must be a hex colour'],
      ['flip=axis:x', 'unknown option "axis"'],
      ['blur=amount:0.1', 'amount must be a number from 0.3 to 100'],
      ['sharpen=amount:101', 'amount must be a number from 0.3 to 100'],
      ['output', 'give format, quality or both'],
      ['output=format:gif', 'format must be one of jpg, png, webp, avif'],
      ['output=quality:0', 'quality must be a whole number from 1 to 100'],
      ['output=format:jpg,quality:101', 'quality must be a whole number from 1 to 100'],
      ['quality=value:0', 'value must be a whole number from 1 to 100'],
      ['quality=value:101', 'value must be a whole number from 1 to 100'],
      [Array.from({ length: 11 }, () => 'flip').join('/'), 'At most 10 transformation steps may be chained.'],
      ['resize=width:10/nonsense/flip', 'Invalid transformation "nonsense"'],
      ['%E0%A4%A', 'alformed percent-encoding'],
    ])('%s', async (steps, detail) => {
      const res = await cdn(`${steps}/${PHOTO}`);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toContain('application/json');
      expect(res.json).toEqual({ detail: expect.stringContaining(detail) });
    });
  });

  describe('caching', () => {
    async function cacheFiles(): Promise<string[]> {
      const dir = join(api.dataDir, 'cache');
      return existsSync(dir) ? (await readdir(dir)).sort() : [];
    }

    it('the first request writes <dataDir>/cache; the next ones are served from that file with the same ETag', async () => {
      const steps = 'resize=width:123/output=format:png';
      const before = await cacheFiles();
      const first = await transformed(steps);
      const after = await cacheFiles();
      const added = after.filter((f) => !before.includes(f));
      expect(added).toHaveLength(1);
      expect(added[0]).toMatch(/\.png$/);
      const file = join(api.dataDir, 'cache', added[0]!);
      expect((await readFile(file)).equals(first.res.bytes)).toBe(true);

      const second = await transformed(steps);
      expect(second.res.headers.get('etag')).toBe(first.res.headers.get('etag'));
      expect(second.res.bytes.equals(first.res.bytes)).toBe(true);
      expect(await cacheFiles()).toEqual(after);

      // Proof that the file is what is served: change it, and the next answer is the change.
      const marker = Buffer.from('served from the cache');
      await writeFile(file, marker);
      expect((await cdn(`${steps}/${PHOTO}`)).bytes.equals(marker)).toBe(true);
    });

    it('If-None-Match on a transformed image → 304; HEAD works', async () => {
      const steps = 'resize=width:77';
      const first = await transformed(steps);
      const etag = first.res.headers.get('etag') ?? '';
      expect(etag).not.toBe('');
      expect(await conditionalGet(`${steps}/${PHOTO}`, etag)).toEqual({ status: 304, length: 0 });
      const head = await cdn(`${steps}/${PHOTO}`, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.bytes.length).toBe(0);
      expect(head.headers.get('content-length')).toBe(String(first.res.bytes.length));
      expect(head.headers.get('content-type')).toBe('image/jpeg');
    });

    it('HEAD of a transformation not yet cached answers with its headers', async () => {
      const head = await cdn(`resize=width:55/output=format:webp/${PHOTO}`, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-type')).toBe('image/webp');
      expect(Number(head.headers.get('content-length'))).toBeGreaterThan(0);
      expect(head.bytes.length).toBe(0);
    });

    it('a burst of identical requests gives one cache file and the same bytes to all', async () => {
      const steps = 'resize=width:99,height:99,fit:crop/output=format:webp';
      const before = await cacheFiles();
      const all = await Promise.all(Array.from({ length: 6 }, () => cdn(`${steps}/${PHOTO}`)));
      for (const res of all) {
        expect(res.status).toBe(200);
        expect(res.bytes.equals(all[0]!.bytes)).toBe(true);
      }
      const added = (await cacheFiles()).filter((f) => !before.includes(f));
      expect(added).toHaveLength(1);
      expect(added[0]).toMatch(/\.webp$/);
    });

    it('an invalid transformation writes nothing to the cache', async () => {
      const before = await cacheFiles();
      expect((await cdn(`resize=width:4001/${PHOTO}`)).status).toBe(400);
      expect((await cdn(`crop=dim:[999,0,10,10]/${PHOTO}`)).status).toBe(400);
      expect(await cacheFiles()).toEqual(before);
    });
  });
});
