/**
 * The data the benchmark runs on: the large generated store (bench/generate-store.ts) as a
 * fixture folder, plus one hero image in its media library (the CDN case), and the same posts,
 * landing pages and products exported for json-server exactly as the emulator's API serves them,
 * so both servers answer comparable queries with records of the same size.
 */
import { copyFile, cp, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateLargeStore, LARGE_ORG, prng, storeText } from '../generate-store.js';
import { resolveFixture } from '../../server/store/seed.js';
import type { Post, StoreData } from '../../server/store/schema.js';

/** A demo image: a 1600×900 JPEG of about 30 KB, the size of a typical hero image. */
const DEMO_IMAGE = { id: 'fRr2MN4EPnMi6AXeBVfQ', org: 'acme', width: 1600, height: 900, size: 29974 } as const;

export interface LargeFixture {
  /** Holds data.json and media/: what a reset goes back to; never written. */
  fixtureDir: string;
  /** The emulator's data folder: a copy of the fixture. */
  dataDir: string;
  dataBytes: number;
  generateMs: number;
  /** Media id of the image the CDN case transforms. */
  imageId: string;
  /** A published post in the middle of the list (it has both neighbours). */
  middleSlug: string;
  /** Distinct search queries drawn from the posts' own words (see searchQueries). */
  queries: string[];
  org: typeof LARGE_ORG;
}

export async function prepareLargeFixture(work: string): Promise<LargeFixture> {
  const started = performance.now();
  const data = generateLargeStore();
  const generateMs = Math.round(performance.now() - started);
  const org = data.organizations.find((o) => o.slug === LARGE_ORG.slug)!;

  const fixtureDir = join(work, 'fixture');
  const file = `media/${org.slug}/${DEMO_IMAGE.id}.jpg`;
  await mkdir(join(fixtureDir, 'media', org.slug), { recursive: true });
  await copyFile(join(resolveFixture('demo'), 'media', DEMO_IMAGE.org, `${DEMO_IMAGE.id}.jpg`), join(fixtureDir, file));
  org.media.push({
    id: DEMO_IMAGE.id,
    file,
    original_url: null,
    content_type: 'image/jpeg',
    size: DEMO_IMAGE.size,
    width: DEMO_IMAGE.width,
    height: DEMO_IMAGE.height,
    alt: 'Benchmark hero image',
    created: '2026-01-01T00:00:00.000Z',
  });
  const text = storeText(data);
  await writeFile(join(fixtureDir, 'data.json'), text);

  // Seeded beforehand, so the emulator's start measures loading the store and not copying it.
  const dataDir = join(work, 'data');
  await cp(fixtureDir, dataDir, { recursive: true });
  return {
    fixtureDir,
    dataDir,
    dataBytes: Buffer.byteLength(text),
    generateMs,
    imageId: DEMO_IMAGE.id,
    middleSlug: middlePublished(data),
    queries: searchQueries(data, 2000),
    org: LARGE_ORG,
  };
}

/**
 * What people type into a blog's search box: one to three words taken from post titles, the last
 * often cut short (it matches as a prefix) and now and then with a typo; each query distinct, so
 * a run measures the search itself and not an answer cached from the same query a moment ago.
 */
function searchQueries(data: StoreData, count: number): string[] {
  const next = prng(7);
  const words = [
    ...new Set(
      data.organizations
        .find((o) => o.slug === LARGE_ORG.slug)!
        .posts.flatMap((p) => p.title.toLowerCase().split(/[^\p{L}\p{N}]+/u))
        .filter((w) => w.length >= 3),
    ),
  ].sort();
  const pick = () => words[Math.floor(next() * words.length)]!;
  const queries = new Set<string>();
  for (let guard = 0; queries.size < count && guard < count * 20; guard++) {
    const terms = Array.from({ length: 1 + Math.floor(next() * 3) }, pick);
    const last = terms.length - 1;
    const roll = next();
    if (roll < 0.4) terms[last] = terms[last]!.slice(0, Math.max(3, terms[last]!.length - 1 - Math.floor(next() * 3)));
    else if (roll < 0.55 && terms[last]!.length >= 5) terms[last] = terms[last]!.slice(0, 2) + terms[last]!.slice(3); // a typo
    queries.add(terms.join(' '));
  }
  return [...queries];
}

function middlePublished(data: StoreData): string {
  const posts = data.organizations
    .find((o) => o.slug === LARGE_ORG.slug)!
    .posts.filter((p: Post) => p.status === 'published' && p.deleted === null)
    .sort((a, b) => (b.published ?? '').localeCompare(a.published ?? ''));
  return posts[Math.floor(posts.length / 2)]!.slug;
}

// ------------------------------------------------------------------------- json-server export

interface Envelope {
  meta: { next_page: number | null };
  data: unknown;
}

/** Every record of a paginated read, page by page (100 a page, the spec's maximum). */
async function readAll(url: (page: number) => string, pick: (data: unknown) => unknown[]): Promise<Record<string, unknown>[]> {
  const all: Record<string, unknown>[] = [];
  for (let page: number | null = 1; page !== null;) {
    const res = await fetch(url(page));
    if (res.status !== 200) throw new Error(`export for json-server: ${url(page)} answered ${res.status}`);
    const body = (await res.json()) as Envelope;
    all.push(...(pick(body.data) as Record<string, unknown>[]));
    page = body.meta.next_page;
  }
  return all;
}

/**
 * Writes json-server's db.json: `posts` (published, newest first, as GET /v2/posts/ serves
 * them), `landing_page` (as GET /v2/pages/landing_page/) and `products` (as GET
 * /v2/content/products/), each record with the `id` json-server needs.
 */
export async function exportForJsonServer(apiUrl: string, token: string, file: string): Promise<Record<string, number>> {
  const q = `auth_token=${token}&page_size=100`;
  const withIds = (records: Record<string, unknown>[]) => records.map((r, i) => ({ id: i + 1, ...r }));
  const db = {
    posts: withIds(
      await readAll(
        (page) => `${apiUrl}/posts/?${q}&page=${page}`,
        (data) => data as unknown[],
      ),
    ),
    landing_page: withIds(
      await readAll(
        (page) => `${apiUrl}/pages/landing_page/?${q}&page=${page}`,
        (data) => data as unknown[],
      ),
    ),
    products: withIds(
      await readAll(
        (page) => `${apiUrl}/content/products/?${q}&page=${page}`,
        (data) => (data as { products: unknown[] }).products,
      ),
    ),
  };
  await writeFile(file, JSON.stringify(db));
  return Object.fromEntries(Object.entries(db).map(([key, records]) => [key, records.length]));
}
