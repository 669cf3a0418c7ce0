/**
 * Post writes over real HTTP (spec: POST /posts/, PATCH /posts/{slug}/, DELETE /posts/{slug}/,
 * States and transitions, Limits, Errors, Authentication; choices in docs/spec-gaps.md).
 * One emulator for the file; every test writes its own posts (unique titles and slugs), and
 * everything taken from the demo fixture is derived from it, never hard-coded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../server/domain/messages.js';
import type { Organization, Post, StoreData } from '../../server/index.js';
import { loadFixture, startTestEmulator, type ApiResponse, type TestEmulator } from '../helpers/emulator.js';

interface TermJson {
  name: string;
  slug: string;
}

interface AuthorJson {
  slug: string;
  first_name: string;
  last_name: string;
  email: string;
  recent_posts?: PostJson[];
}

interface PostJson {
  url: string;
  created: string;
  published: string | null;
  updated?: string;
  deleted?: null;
  author: AuthorJson;
  categories: TermJson[];
  tags: TermJson[];
  featured_image: string | null;
  featured_image_alt: string;
  slug: string;
  title: string;
  body?: string;
  summary: string;
  seo_title: string;
  meta_description: string;
  status: string;
}

interface SingleJson {
  meta: { next_post: unknown; previous_post: unknown };
  data: PostJson;
}

interface ListJson {
  meta: { count: number };
  data: PostJson[];
}

interface DetailJson {
  detail: string;
}

type FieldErrorsJson = Record<string, string[]>;
type Body = Record<string, unknown>;

let api: TestEmulator;
let fixture: StoreData;
let acme: Organization;
let northwind: Organization;

function org(data: StoreData, slug: string): Organization {
  const found = data.organizations.find((o) => o.slug === slug);
  if (!found) throw new Error(`the demo fixture has no organization "${slug}"`);
  return found;
}

function tokensOf(slug: string): { read: string; write: string } {
  const tokens = api.tokens[slug];
  if (!tokens) throw new Error(`no tokens for organization "${slug}"`);
  return tokens;
}

function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`the demo fixture has no ${what}`);
  return value;
}

let counter = 0;
/** A word no fixture title contains, so titles, generated slugs and searches stay unique. */
function uniqueWord(): string {
  counter += 1;
  return `pwx${counter}`;
}

/** The generated slug of a title made only of ASCII letters, digits and spaces. */
function asciiSlug(title: string): string {
  return title.trim().toLowerCase().split(/\s+/).join('-');
}

function liveSlugs(o: Organization): Set<string> {
  return new Set(o.posts.filter((p) => p.deleted === null).map((p) => p.slug));
}

/** `base`, else `base-2`, `base-3`…: the first not in `taken` (spec-gaps: generated slug already taken). */
function firstFree(base: string, taken: Set<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n += 1) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

const path = (slug: string): string => `/posts/${encodeURIComponent(slug)}/`;

function send<T = unknown>(method: string, url: string, body?: unknown, token = tokensOf('acme').write): Promise<ApiResponse<T>> {
  return api.request<T>(method, url, body === undefined ? { headerToken: token } : { headerToken: token, body });
}

const createPost = <T = unknown>(body: Body, token?: string) => send<T>('POST', '/posts/', body, token);
const patchPost = <T = unknown>(slug: string, body: Body, token?: string) => send<T>('PATCH', path(slug), body, token);
const deletePost = <T = unknown>(slug: string, token?: string) => send<T>('DELETE', path(slug), undefined, token);
const readPost = (slug: string, token = tokensOf('acme').read) => api.get<SingleJson>(path(slug), { token });

/** POST, expect the 202, wait for the background job, and read the post back. */
async function created(body: Body & { slug: string }, token?: string, readToken?: string): Promise<PostJson> {
  const res = await createPost(body, token);
  expect(res.status).toBe(202);
  expect(res.body).toEqual({ status: 'pending' });
  await api.idle();
  const read = await readPost(body.slug, readToken);
  expect(read.status).toBe(200);
  return read.body.data;
}

async function patched(slug: string, body: Body): Promise<PostJson> {
  const res = await patchPost(slug, body);
  expect(res.status).toBe(202);
  await api.idle();
  const read = await readPost(typeof body['slug'] === 'string' ? body['slug'] : slug);
  expect(read.status).toBe(200);
  return read.body.data;
}

/** Jobs recorded since `from` (an index into the job list taken before the request). */
function jobsSince(from: number) {
  return api.emulator.jobs.list().slice(from);
}

/** Resolves once the wall clock is past `iso`, so two timestamps the test compares can differ. */
async function clockPast(iso: string): Promise<void> {
  while (Date.now() <= Date.parse(iso)) await new Promise((resolve) => setTimeout(resolve, 2));
}

async function dataPosts(orgSlug: string): Promise<Post[]> {
  return org(await api.readDataFile(), orgSlug).posts;
}

beforeAll(async () => {
  fixture = await loadFixture();
  acme = org(fixture, 'acme');
  northwind = org(fixture, 'northwind');
  api = await startTestEmulator();
});

afterAll(async () => {
  await api?.close();
});

describe('POST /posts/', () => {
  it('answers 202 pending, then the post is readable with every field written (draft, owner author by default)', async () => {
    const word = uniqueWord();
    const slug = `${word}-every-field`;
    const body = {
      title: `Every field ${word}`,
      slug,
      body: '<p>Hello <strong>trail</strong> &amp; friends</p>',
      summary: `A summary for ${word}`,
      seo_title: `SEO ${word}`,
      meta_description: `Meta description of ${word}`,
      featured_image: `https://images.example.com/${word}/hero.jpg`,
      featured_image_alt: `Alt text of ${word}`,
    };
    const res = await createPost(body);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ status: 'pending' });

    await api.idle();
    const read = await readPost(slug);
    expect(read.status).toBe(200);
    const post = read.body.data;
    const owner = required(
      acme.authors.find((a) => a.slug === acme.owner),
      'acme owner author',
    );
    expect(post).toMatchObject({
      ...body,
      status: 'draft',
      published: null,
      deleted: null,
      url: `${acme.blog.url.replace(/\/+$/, '')}/${slug}`,
      categories: [],
      tags: [],
      author: { slug: owner.slug, email: owner.email, first_name: owner.first_name, last_name: owner.last_name },
    });
    expect(Number.isNaN(Date.parse(post.created))).toBe(false);
    // A draft is readable by slug but is not in the published list.
    const list = await api.get<ListJson>('/posts/', { token: tokensOf('acme').read, query: { page_size: 100 } });
    expect(list.body.data.some((p) => p.slug === slug)).toBe(false);
  });

  it('status "published" publishes at once: `published` is set and the post is listed', async () => {
    const word = uniqueWord();
    const before = Date.now();
    const post = await created({ title: `Published at once ${word}`, slug: `${word}-published`, status: 'published' });
    expect(post.status).toBe('published');
    expect(post.published).not.toBeNull();
    expect(Date.parse(post.published ?? '')).toBeGreaterThanOrEqual(before - 1000);
    const list = await api.get<ListJson>('/posts/', { token: tokensOf('acme').read, query: { page_size: 100 } });
    expect(list.body.data.some((p) => p.slug === post.slug)).toBe(true);
  });

  it('status "draft" given explicitly gives a draft with no publication time', async () => {
    const word = uniqueWord();
    const post = await created({ title: `Explicit draft ${word}`, slug: `${word}-draft`, status: 'draft' });
    expect(post.status).toBe('draft');
    expect(post.published).toBeNull();
  });

  describe('slugs', () => {
    it('generates the slug from an ASCII title', async () => {
      const title = `Plain Title For ${uniqueWord()}`;
      const res = await createPost({ title });
      expect(res.status).toBe(202);
      await api.idle();
      const read = await readPost(asciiSlug(title));
      expect(read.status).toBe(200);
      expect(read.body.data.title).toBe(title);
    });

    it('transliterates accented letters to ASCII', async () => {
      const word = uniqueWord();
      const res = await createPost({ title: `Crème Brûlée à la Façade ${word}` });
      expect(res.status).toBe(202);
      await api.idle();
      const read = await readPost(`creme-brulee-a-la-facade-${word}`);
      expect(read.status).toBe(200);
      expect(read.body.data.title).toBe(`Crème Brûlée à la Façade ${word}`);
    });

    it('keeps Japanese in its own script', async () => {
      const word = uniqueWord();
      const slug = `秋の山歩き-${word}`;
      const res = await createPost({ title: `秋の山歩き ${word}` });
      expect(res.status).toBe(202);
      await api.idle();
      const read = await readPost(slug);
      expect(read.status).toBe(200);
      expect(read.body.data.slug).toBe(slug);
      expect(read.body.data.url).toBe(`${acme.blog.url.replace(/\/+$/, '')}/${encodeURIComponent(slug)}`);
    });

    it('gives an emoji-only title the slug "post", then "post-2"…', async () => {
      const taken = liveSlugs(acme);
      const first = firstFree('post', taken);
      const second = firstFree('post', new Set([...taken, first]));
      expect((await createPost({ title: '🎉🏔️🚀' })).status).toBe(202);
      expect((await createPost({ title: '🌲 🌲' })).status).toBe(202);
      await api.idle();
      const a = await readPost(first);
      const b = await readPost(second);
      expect(a.status).toBe(200);
      expect(a.body.data.title).toBe('🎉🏔️🚀');
      expect(b.status).toBe(200);
      expect(b.body.data.title).toBe('🌲 🌲');
    });

    it('dedupes a generated slug that a fixture post already has with -2', async () => {
      const taken = liveSlugs(acme);
      const existing = required(
        acme.posts.find((p) => p.deleted === null && /^[a-z0-9]+(-[a-z0-9]+)*$/.test(p.slug) && p.slug.length <= 90),
        'live ASCII-slug post in acme',
      );
      const title = existing.slug.split('-').join(' ');
      const expected = firstFree(existing.slug, taken);
      expect(expected).not.toBe(existing.slug);
      expect((await createPost({ title })).status).toBe(202);
      await api.idle();
      const copy = await readPost(expected);
      expect(copy.status).toBe(200);
      expect(copy.body.data.title).toBe(title);
      // The original is untouched.
      const original = await readPost(existing.slug);
      expect(original.body.data.title).toBe(existing.title);
    });

    it('dedupes generated slugs of two quick POSTs with the same title (-2 before the first finished)', async () => {
      const title = `Same Title Twice ${uniqueWord()}`;
      const base = asciiSlug(title);
      expect((await createPost({ title, summary: 'first' })).status).toBe(202);
      expect((await createPost({ title, summary: 'second' })).status).toBe(202);
      await api.idle();
      const first = await readPost(base);
      const second = await readPost(`${base}-2`);
      expect(first.status).toBe(200);
      expect(first.body.data.summary).toBe('first');
      expect(second.status).toBe(200);
      expect(second.body.data.summary).toBe('second');
    });

    it('slugifies an explicit slug', async () => {
      const word = uniqueWord();
      const res = await createPost({ title: `Explicit ${word}`, slug: `My Explicit Slug ${word}` });
      expect(res.status).toBe(202);
      await api.idle();
      expect((await readPost(`my-explicit-slug-${word}`)).status).toBe(200);
    });

    it('refuses an explicit slug a live post has: 400 {slug: [postSlugTaken]}', async () => {
      const live = required(
        acme.posts.find((p) => p.deleted === null),
        'live acme post',
      );
      const res = await createPost<FieldErrorsJson>({ title: `Taken slug ${uniqueWord()}`, slug: live.slug });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ slug: [messages.postSlugTaken] });
      await api.idle();
      expect((await readPost(live.slug)).body.data.title).toBe(live.title);
    });

    it('refuses the explicit slug of a live draft or scheduled post too', async () => {
      for (const status of ['draft', 'scheduled'] as const) {
        const unpublished = required(
          acme.posts.find((p) => p.deleted === null && p.status === status),
          `live ${status} acme post`,
        );
        const res = await createPost<FieldErrorsJson>({ title: `Taken ${status} ${uniqueWord()}`, slug: unpublished.slug });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ slug: [messages.postSlugTaken] });
      }
    });

    it('refuses the second of two quick POSTs with the same explicit slug, even before the first finished', async () => {
      const word = uniqueWord();
      const slug = `${word}-twice`;
      const first = await createPost({ title: `First ${word}`, slug });
      const second = await createPost<FieldErrorsJson>({ title: `Second ${word}`, slug });
      expect(first.status).toBe(202);
      expect(second.status).toBe(400);
      expect(second.body).toEqual({ slug: [messages.postSlugTaken] });
      await api.idle();
      expect((await readPost(slug)).body.data.title).toBe(`First ${word}`);
      expect((await dataPosts('acme')).filter((p) => p.slug === slug)).toHaveLength(1);
    });

    it('accepts exactly one of several concurrent POSTs with the same explicit slug', async () => {
      const word = uniqueWord();
      const slug = `${word}-race`;
      const from = api.emulator.jobs.list().length;
      const results = await Promise.all([1, 2, 3, 4, 5].map((n) => createPost<FieldErrorsJson>({ title: `Race ${n} ${word}`, slug })));
      expect(results.filter((r) => r.status === 202)).toHaveLength(1);
      const refused = results.filter((r) => r.status === 400);
      expect(refused).toHaveLength(4);
      for (const r of refused) expect(r.body).toEqual({ slug: [messages.postSlugTaken] });
      await api.idle();
      expect(jobsSince(from).map((j) => j.status)).toEqual(['succeeded']);
      expect((await dataPosts('acme')).filter((p) => p.slug === slug && p.deleted === null)).toHaveLength(1);
    });

    it('gives concurrent POSTs with the same title distinct generated slugs, and every one is written', async () => {
      const title = `Concurrent Title ${uniqueWord()}`;
      const base = asciiSlug(title);
      const from = api.emulator.jobs.list().length;
      const results = await Promise.all([1, 2, 3, 4].map((n) => createPost({ title, summary: `copy ${n}` })));
      expect(results.map((r) => r.status)).toEqual([202, 202, 202, 202]);
      await api.idle();
      expect(jobsSince(from).map((j) => j.status)).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded']);
      const slugs = (await dataPosts('acme')).filter((p) => p.title === title).map((p) => p.slug);
      expect(slugs.sort()).toEqual([base, `${base}-2`, `${base}-3`, `${base}-4`]);
    });

    it('refuses the explicit slug "search" (it names an endpoint)', async () => {
      const res = await createPost<FieldErrorsJson>({ title: `Search slug ${uniqueWord()}`, slug: 'search' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ slug: [messages.postSlugReserved('search')] });
    });

    it('skips "search" when generating a slug from the title "Search"', async () => {
      const expected = firstFree('search', new Set([...liveSlugs(acme), 'search']));
      const res = await createPost({ title: 'Search', summary: 'generated-search' });
      expect(res.status).toBe(202);
      await api.idle();
      const read = await readPost(expected);
      expect(read.status).toBe(200);
      expect(read.body.data.summary).toBe('generated-search');
    });

    it('lets a new post take the slug of a soft-deleted post', async () => {
      const live = liveSlugs(acme);
      const deleted = required(
        acme.posts.find((p) => p.deleted !== null && !live.has(p.slug)),
        'soft-deleted acme post with a free slug',
      );
      expect((await readPost(deleted.slug)).status).toBe(404);
      const title = `Reuses a deleted slug ${uniqueWord()}`;
      const post = await created({ title, slug: deleted.slug });
      expect(post.title).toBe(title);
      expect(post.slug).toBe(deleted.slug);
    });
  });

  describe('limits and required fields (400 {field: [message]})', () => {
    const pad = (prefix: string, length: number): string => prefix + 'a'.repeat(length - prefix.length);

    it.each([
      ['title', 200],
      ['summary', 2000],
      ['seo_title', 100],
      ['featured_image_alt', 250],
    ])('%s: %i characters are accepted, one more is refused', async (field, max) => {
      const word = uniqueWord();
      const slug = `${word}-limit-${field.replaceAll('_', '-')}`;
      const title = `Limit ${word}`;
      const atBound = await createPost({ title, slug, [field]: pad(`${word} `, max) });
      expect(atBound.status).toBe(202);
      const past = await createPost<FieldErrorsJson>({ title, slug: `${slug}-past`, [field]: pad(`${word} `, max + 1) });
      expect(past.status).toBe(400);
      expect(past.body).toEqual({ [field]: [messages.maxLength(max)] });
      await api.idle();
      const read = await readPost(slug);
      expect(read.status).toBe(200);
      expect(read.body.data[field as keyof PostJson]).toBe(pad(`${word} `, max));
      expect((await readPost(`${slug}-past`)).status).toBe(404);
    });

    it('slug: 100 characters are accepted, 101 are refused', async () => {
      const word = uniqueWord();
      const slug = pad(`${word}-`, 100);
      const atBound = await createPost({ title: `Slug limit ${word}`, slug });
      expect(atBound.status).toBe(202);
      const past = await createPost<FieldErrorsJson>({ title: `Slug limit ${word}`, slug: pad(`${word}-b`, 101) });
      expect(past.status).toBe(400);
      expect(past.body).toEqual({ slug: [messages.maxLength(100)] });
      await api.idle();
      expect((await readPost(slug)).status).toBe(200);
    });

    it('title missing → required', async () => {
      const res = await createPost<FieldErrorsJson>({ summary: 'no title' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ title: [messages.required] });
    });

    it.each([[''], ['   ']])('title %j → blank', async (title) => {
      const res = await createPost<FieldErrorsJson>({ title });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ title: [messages.blank] });
    });

    it('an empty JSON object → title required', async () => {
      const res = await createPost<FieldErrorsJson>({});
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ title: [messages.required] });
    });

    it.each([['not a url'], ['ftp://images.example.com/a.jpg'], ['javascript:alert(1)']])(
      'featured_image %j → invalid URL',
      async (featured_image) => {
        const res = await createPost<FieldErrorsJson>({ title: `Image ${uniqueWord()}`, featured_image });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ featured_image: [messages.invalidUrl] });
      },
    );

    it('counts characters, not UTF-16 units: a title of 200 emoji is accepted, 201 are refused', async () => {
      const word = uniqueWord();
      const atBound = await createPost({ title: '😀'.repeat(200), slug: `${word}-emoji-title` });
      expect(atBound.status).toBe(202);
      const past = await createPost<FieldErrorsJson>({ title: '😀'.repeat(201), slug: `${word}-emoji-title-past` });
      expect(past.status).toBe(400);
      expect(past.body).toEqual({ title: [messages.maxLength(200)] });
      await api.idle();
      expect((await readPost(`${word}-emoji-title`)).body.data.title).toBe('😀'.repeat(200));
    });

    it.each([
      ['summary', null, messages.notNull],
      ['body', 5, messages.notString],
      ['upload_images_to_media_library', 'yes', messages.notBoolean],
    ])('%s = %j → 400 field error', async (field, value, message) => {
      const res = await createPost<FieldErrorsJson>({ title: `Types ${uniqueWord()}`, [field]: value });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ [field]: [message] });
    });

    it('an explicit slug with no letters or digits → 400 postSlugEmpty', async () => {
      const res = await createPost<FieldErrorsJson>({ title: `Bangs ${uniqueWord()}`, slug: '!!! ???' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ slug: [messages.postSlugEmpty] });
    });

    it('reports every invalid field at once', async () => {
      const res = await createPost<FieldErrorsJson>({ title: 'x'.repeat(201), seo_title: 'y'.repeat(101), status: 'archived' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        title: [messages.maxLength(200)],
        seo_title: [messages.maxLength(100)],
        status: [messages.postStatusChoice('archived')],
      });
    });
  });

  describe('status and scheduling', () => {
    it.each([['scheduled'], ['archived']])('status %j → 400 {status: [...]}', async (status) => {
      const word = uniqueWord();
      const res = await createPost<FieldErrorsJson>({ title: `Status ${word}`, slug: `${word}-status`, status });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ status: [messages.postStatusChoice(status)] });
      await api.idle();
      expect((await readPost(`${word}-status`)).status).toBe(404);
    });

    it('a `scheduled` field → 400 {scheduled: [postSchedulingOnCreate]}', async () => {
      const word = uniqueWord();
      const res = await createPost<FieldErrorsJson>({
        title: `Scheduled ${word}`,
        slug: `${word}-sched`,
        scheduled: '2030-01-01T09:00:00Z',
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ scheduled: [messages.postSchedulingOnCreate] });
      await api.idle();
      expect((await readPost(`${word}-sched`)).status).toBe(404);
    });
  });

  describe('categories and tags by name', () => {
    it('reuses an existing term whatever the case of its name', async () => {
      const category = required(acme.categories[0], 'acme category');
      const tag = required(acme.tags[0], 'acme tag');
      const word = uniqueWord();
      const post = await created({
        title: `Existing terms ${word}`,
        slug: `${word}-existing-terms`,
        categories: [category.name.toUpperCase()],
        tags: [tag.name.toLowerCase()],
      });
      expect(post.categories).toEqual([{ name: category.name, slug: category.slug }]);
      expect(post.tags).toEqual([{ name: tag.name, slug: tag.slug }]);
      const data = org(await api.readDataFile(), 'acme');
      expect(data.categories.filter((c) => c.name.toLowerCase() === category.name.toLowerCase())).toHaveLength(1);
      expect(data.tags.filter((t) => t.name.toLowerCase() === tag.name.toLowerCase())).toHaveLength(1);
    });

    it('creates missing terms with slugs, readable through GET /categories/{slug}/ and /tags/{slug}/', async () => {
      const word = uniqueWord();
      const categoryName = `Winter Camping ${word}`;
      const tagName = `Snow Caves ${word}`;
      const post = await created({
        title: `New terms ${word}`,
        slug: `${word}-new-terms`,
        status: 'published',
        categories: [categoryName],
        tags: [tagName],
      });
      const categorySlug = asciiSlug(categoryName);
      const tagSlug = asciiSlug(tagName);
      expect(post.categories).toEqual([{ name: categoryName, slug: categorySlug }]);
      expect(post.tags).toEqual([{ name: tagName, slug: tagSlug }]);

      const token = tokensOf('acme').read;
      const category = await api.get<{ data: TermJson & { recent_posts: PostJson[] } }>(`/categories/${categorySlug}/`, {
        token,
        query: { include: 'recent_posts' },
      });
      expect(category.status).toBe(200);
      expect(category.body.data).toMatchObject({ name: categoryName, slug: categorySlug });
      expect(category.body.data.recent_posts.map((p) => p.slug)).toEqual([post.slug]);
      const tag = await api.get<{ data: TermJson }>(`/tags/${tagSlug}/`, { token });
      expect(tag.status).toBe(200);
      expect(tag.body.data).toEqual({ name: tagName, slug: tagSlug });
    });

    it('gives a new term whose slug is taken a de-duplicated slug, and merges names repeated in one request', async () => {
      const word = uniqueWord();
      const existing = required(
        acme.categories.find((c) => /^[A-Za-z0-9 ]+$/.test(c.name) && asciiSlug(c.name) === c.slug),
        'acme category whose slug is its slugified name',
      );
      const before = org(await api.readDataFile(), 'acme');
      const newName = `${existing.name}!`;
      const expectedSlug = firstFree(existing.slug, new Set(before.categories.map((c) => c.slug)));
      const post = await created({
        title: `Colliding terms ${word}`,
        slug: `${word}-colliding-terms`,
        categories: [newName, existing.name.toLowerCase(), existing.name.toUpperCase()],
        tags: [`Zed ${word}`, `ZED ${word}`, `zed ${word}`],
      });
      expect(post.categories).toEqual([
        { name: newName, slug: expectedSlug },
        { name: existing.name, slug: existing.slug },
      ]);
      expect(post.tags).toEqual([{ name: `Zed ${word}`, slug: `zed-${word}` }]);
      const after = org(await api.readDataFile(), 'acme');
      expect(after.categories).toHaveLength(before.categories.length + 1);
      expect(after.tags).toHaveLength(before.tags.length + 1);
    });

    it.each([
      ['categories as a string', { categories: 'Gear' }, 'categories', messages.notList('str')],
      ['tags as an object', { tags: { name: 'x' } }, 'tags', messages.notList('dict')],
      ['author as a string', { author: 'someone@example.com' }, 'author', messages.notObject('str')],
    ])('%s → 400 field error', async (_label, extra, field, message) => {
      const res = await createPost<FieldErrorsJson>({ title: `Wrong type ${uniqueWord()}`, ...extra });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ [field]: [message] });
    });

    it('tags with numbers → 400 with a "Not a valid string." error on tags', async () => {
      const res = await createPost<FieldErrorsJson>({ title: `Numeric tags ${uniqueWord()}`, tags: ['fine', 42] });
      expect(res.status).toBe(400);
      const keys = Object.keys(res.body);
      expect(keys).toHaveLength(1);
      expect(keys[0]).toMatch(/^tags(\.1)?$/);
      expect(res.body[keys[0]!]).toEqual([messages.notString]);
    });

    it('author without email or slug → 400 author error', async () => {
      const res = await createPost<FieldErrorsJson>({ title: `Empty author ${uniqueWord()}`, author: {} });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ author: [messages.authorShape] });
    });
  });

  describe('author', () => {
    const nonOwner = () =>
      required(
        acme.authors.find((a) => a.slug !== acme.owner && a.email !== ''),
        'non-owner acme author with an email',
      );

    it('{email} of an existing author', async () => {
      const author = nonOwner();
      const word = uniqueWord();
      const post = await created({ title: `By email ${word}`, slug: `${word}-by-email`, author: { email: author.email } });
      expect(post.author).toMatchObject({ slug: author.slug, email: author.email });
    });

    it('{slug} of an existing author', async () => {
      const author = required(acme.authors.filter((a) => a.slug !== acme.owner).at(-1), 'second non-owner acme author');
      const word = uniqueWord();
      const post = await created({ title: `By slug ${word}`, slug: `${word}-by-slug`, author: { slug: author.slug } });
      expect(post.author).toMatchObject({ slug: author.slug, email: author.email });
    });

    it('{email, slug} naming two different authors: the slug wins', async () => {
      const [first, second] = acme.authors.filter((a) => a.email !== '');
      const a = required(first, 'acme author with an email');
      const b = required(second, 'second acme author with an email');
      const word = uniqueWord();
      const post = await created({ title: `Both keys ${word}`, slug: `${word}-both-keys`, author: { email: a.email, slug: b.slug } });
      expect(post.author.slug).toBe(b.slug);
    });

    it.each([
      ['slug', () => ({ slug: `nobody-${uniqueWord()}` })],
      ['email', () => ({ email: `nobody-${uniqueWord()}@example.invalid` })],
    ])('unknown author by %s → 202, then the job fails naming the author and nothing is written', async (by, makeRef) => {
      const ref = makeRef();
      const word = uniqueWord();
      const slug = `${word}-unknown-author`;
      const before = await dataPosts('acme');
      const from = api.emulator.jobs.list().length;
      const res = await createPost({ title: `Unknown author ${word}`, slug, author: ref });
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ status: 'pending' });
      await api.idle();

      const jobs = jobsSince(from);
      expect(jobs).toHaveLength(1);
      expect(jobs[0]).toMatchObject({ kind: 'post.create', organization: 'acme', status: 'failed' });
      const value = Object.values(ref)[0] ?? '';
      expect(jobs[0]?.error).toBe(messages.jobAuthorNotFound(by, value));
      expect(jobs[0]?.error).toMatch(/author/i);

      expect((await readPost(slug)).status).toBe(404);
      const after = await dataPosts('acme');
      expect(after).toHaveLength(before.length);
      expect(after.some((p) => p.slug === slug)).toBe(false);
    });
  });

  describe('body problems (never a 5xx)', () => {
    it('malformed JSON → 400 "JSON parse error - …"', async () => {
      const res = await api.request<DetailJson>('POST', '/posts/', { headerToken: tokensOf('acme').write, body: '{"title": "half' });
      expect(res.status).toBe(400);
      expect(res.body.detail.startsWith('JSON parse error')).toBe(true);
      expect(res.body.detail.startsWith(messages.jsonParse(''))).toBe(true);
    });

    it('a JSON array → 400 notAnObject("list")', async () => {
      const res = await api.request<DetailJson>('POST', '/posts/', { headerToken: tokensOf('acme').write, body: [{ title: 'in a list' }] });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ detail: messages.notAnObject('list') });
    });

    it('a JSON string → 400 notAnObject("str")', async () => {
      const res = await api.request<DetailJson>('POST', '/posts/', { headerToken: tokensOf('acme').write, body: '"just a title"' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ detail: messages.notAnObject('str') });
    });

    it('a text/plain body → 415', async () => {
      const res = await api.request<DetailJson>('POST', '/posts/', {
        headerToken: tokensOf('acme').write,
        headers: { 'content-type': 'text/plain' },
        body: JSON.stringify({ title: `Plain text ${uniqueWord()}` }),
      });
      expect(res.status).toBe(415);
      expect(res.body).toEqual({ detail: messages.unsupportedMediaType('text/plain') });
    });

    it('a body over 5 MB → 413 with a JSON detail', async () => {
      const big = JSON.stringify({ title: `Huge ${uniqueWord()}`, body: 'a'.repeat(5 * 1024 * 1024 + 1024) });
      const res = await api.request<DetailJson>('POST', '/posts/', { headerToken: tokensOf('acme').write, body: big });
      expect(res.status).toBe(413);
      expect(res.headers.get('content-type') ?? '').toContain('application/json');
      expect(res.body).toEqual({ detail: messages.bodyTooLarge('5 MB') });
    });

    it('a body just under 5 MB is accepted', async () => {
      const word = uniqueWord();
      const text = 'b'.repeat(5 * 1024 * 1024 - 4096);
      const res = await createPost({ title: `Large ${word}`, slug: `${word}-large`, body: text });
      expect(res.status).toBe(202);
      await api.idle();
      const read = await readPost(`${word}-large`);
      expect(read.status).toBe(200);
      expect(read.body.data.body).toHaveLength(text.length);
    });

    it('unknown body fields are ignored', async () => {
      const word = uniqueWord();
      const post = await created({ title: `Extra ${word}`, slug: `${word}-extra`, colour: 'green', id: 999999 });
      expect(post.title).toBe(`Extra ${word}`);
      const stored = (await dataPosts('acme')).find((p) => p.slug === `${word}-extra`);
      expect(stored?.id).not.toBe(999999);
    });
  });

  it('persists the new post in the data file with id = previous max + 1', async () => {
    const before = await dataPosts('acme');
    const maxId = Math.max(...before.map((p) => p.id));
    const word = uniqueWord();
    const slug = `${word}-persisted`;
    const category = required(acme.categories[0], 'acme category');
    const res = await createPost({
      title: `Persisted ${word}`,
      slug,
      status: 'published',
      summary: 'on disk',
      categories: [category.name],
      tags: [`Fresh Tag ${word}`],
    });
    expect(res.status).toBe(202);
    const data = org(await api.readDataFile(), 'acme');
    const stored = data.posts.find((p) => p.slug === slug);
    expect(stored).toMatchObject({
      id: maxId + 1,
      title: `Persisted ${word}`,
      status: 'published',
      author: acme.owner,
      summary: 'on disk',
      categories: [category.slug],
      tags: [`fresh-tag-${word}`],
      deleted: null,
      scheduled: null,
    });
    expect(stored?.published).not.toBeNull();
    expect(data.tags.some((t) => t.slug === `fresh-tag-${word}` && t.name === `Fresh Tag ${word}`)).toBe(true);
  });
});

describe('PATCH /posts/{slug}/', () => {
  const full = (word: string): Body & { slug: string } => ({
    title: `Patch base ${word}`,
    slug: `${word}-patch`,
    body: '<p>original body</p>',
    summary: 'original summary',
    seo_title: 'original seo',
    meta_description: 'original meta',
    featured_image: `https://images.example.com/${word}.jpg`,
    featured_image_alt: 'original alt',
    categories: [required(acme.categories[0], 'acme category').name],
    tags: [required(acme.tags[0], 'acme tag').name],
  });

  it('changes only the given fields', async () => {
    const word = uniqueWord();
    const before = await created(full(word));
    const res = await patchPost(before.slug, { summary: 'new summary', seo_title: 'new seo' });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ status: 'pending' });
    await api.idle();
    const after = (await readPost(before.slug)).body.data;
    expect(after.summary).toBe('new summary');
    expect(after.seo_title).toBe('new seo');
    const { summary: _s1, seo_title: _t1, updated: _u1, ...restBefore } = before;
    const { summary: _s2, seo_title: _t2, updated: _u2, ...restAfter } = after;
    expect(restAfter).toEqual(restBefore);
  });

  it('clears featured_image with null', async () => {
    const word = uniqueWord();
    const before = await created(full(word));
    expect(before.featured_image).not.toBeNull();
    const after = await patched(before.slug, { featured_image: null });
    expect(after.featured_image).toBeNull();
    expect(after.featured_image_alt).toBe('original alt');
  });

  it('moves the post to a new (slugified) slug: old slug 404, new 200', async () => {
    const word = uniqueWord();
    const before = await created(full(word));
    const res = await patchPost(before.slug, { slug: `Moved Here ${word}` });
    expect(res.status).toBe(202);
    await api.idle();
    expect((await readPost(before.slug)).status).toBe(404);
    const moved = await readPost(`moved-here-${word}`);
    expect(moved.status).toBe(200);
    expect(moved.body.data.title).toBe(before.title);
    expect(moved.body.data.url.endsWith(`/moved-here-${word}`)).toBe(true);
  });

  it('after a move, the new slug is taken and the old one is free for a new post', async () => {
    const word = uniqueWord();
    const before = await created({ title: `Mover ${word}`, slug: `${word}-old` });
    expect((await patchPost(before.slug, { slug: `${word}-new` })).status).toBe(202);
    await api.idle();
    const taken = await createPost<FieldErrorsJson>({ title: `Other ${word}`, slug: `${word}-new` });
    expect(taken.status).toBe(400);
    expect(taken.body).toEqual({ slug: [messages.postSlugTaken] });
    expect((await createPost({ title: `Other ${word}`, slug: `${word}-old` })).status).toBe(202);
    await api.idle();
    expect((await readPost(`${word}-old`)).body.data.title).toBe(`Other ${word}`);
  });

  it("refuses another live post's slug: 400 {slug: [postSlugTaken]}", async () => {
    const word = uniqueWord();
    const mine = await created({ title: `Mine ${word}`, slug: `${word}-mine` });
    const theirs = await created({ title: `Theirs ${word}`, slug: `${word}-theirs` });
    const res = await patchPost<FieldErrorsJson>(mine.slug, { slug: theirs.slug });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ slug: [messages.postSlugTaken] });
    await api.idle();
    expect((await readPost(mine.slug)).body.data.title).toBe(`Mine ${word}`);
    expect((await readPost(theirs.slug)).body.data.title).toBe(`Theirs ${word}`);
  });

  it('accepts its own slug unchanged', async () => {
    const word = uniqueWord();
    const post = await created({ title: `Same slug ${word}`, slug: `${word}-same` });
    const res = await patchPost(post.slug, { slug: post.slug, summary: 'kept slug' });
    expect(res.status).toBe(202);
    await api.idle();
    expect((await readPost(post.slug)).body.data.summary).toBe('kept slug');
  });

  it('status "scheduled" → 202 with status_warning; the status is unchanged, other fields apply', async () => {
    const word = uniqueWord();
    const post = await created({ title: `Sched status ${word}`, slug: `${word}-sched-status` });
    const res = await patchPost<Record<string, unknown>>(post.slug, { status: 'scheduled', summary: 'applied anyway' });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ status: 'pending', status_warning: messages.scheduledStatusIgnored });
    expect(typeof res.body['status_warning']).toBe('string');
    await api.idle();
    const after = (await readPost(post.slug)).body.data;
    expect(after.status).toBe('draft');
    expect(after.published).toBeNull();
    expect(after.summary).toBe('applied anyway');
  });

  it('a `scheduled` field → 202 with scheduled_warning; nothing gets scheduled', async () => {
    const word = uniqueWord();
    const post = await created({ title: `Sched field ${word}`, slug: `${word}-sched-field`, status: 'published' });
    const res = await patchPost<Record<string, unknown>>(post.slug, { scheduled: '2031-05-01T10:00:00Z' });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ status: 'pending', scheduled_warning: messages.scheduledFieldIgnored });
    await api.idle();
    const after = (await readPost(post.slug)).body.data;
    expect(after.status).toBe('published');
    expect(after.published).toBe(post.published);
    const stored = (await dataPosts('acme')).find((p) => p.slug === post.slug);
    expect(stored?.scheduled).toBeNull();
  });

  it('draft → published sets `published`', async () => {
    const word = uniqueWord();
    const post = await created({ title: `To publish ${word}`, slug: `${word}-to-publish` });
    expect(post.published).toBeNull();
    const after = await patched(post.slug, { status: 'published' });
    expect(after.status).toBe('published');
    expect(after.published).not.toBeNull();
    expect(Date.parse(after.published ?? '')).toBeGreaterThanOrEqual(Date.parse(post.created));
  });

  it('published → draft → published keeps the first publication time', async () => {
    const word = uniqueWord();
    const post = await created({ title: `Republish ${word}`, slug: `${word}-republish`, status: 'published' });
    const first = post.published ?? '';
    expect(first).not.toBe('');
    await clockPast(first);
    const draft = await patched(post.slug, { status: 'draft' });
    expect(draft.status).toBe('draft');
    await clockPast(draft.updated ?? first);
    const again = await patched(post.slug, { status: 'published' });
    expect(again.status).toBe('published');
    expect(again.published).toBe(first);
    expect(Date.parse(again.updated ?? '')).toBeGreaterThan(Date.parse(first));
  });

  it('title of 201 characters → 400; 200 are accepted', async () => {
    const word = uniqueWord();
    const post = await created({ title: `Title limit ${word}`, slug: `${word}-title-limit` });
    const past = await patchPost<FieldErrorsJson>(post.slug, { title: 't'.repeat(201) });
    expect(past.status).toBe(400);
    expect(past.body).toEqual({ title: [messages.maxLength(200)] });
    const atBound = await patched(post.slug, { title: 't'.repeat(200) });
    expect(atBound.title).toBe('t'.repeat(200));
  });

  it.each([
    ['summary', 2000],
    ['seo_title', 100],
    ['featured_image_alt', 250],
  ])('%s past %i characters → 400', async (field, max) => {
    const word = uniqueWord();
    const post = await created({ title: `Patch limit ${word}`, slug: `${word}-patch-limit` });
    const res = await patchPost<FieldErrorsJson>(post.slug, { [field]: 'z'.repeat(max + 1) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ [field]: [messages.maxLength(max)] });
  });

  it('status "archived" → 400 {status: [...]}', async () => {
    const word = uniqueWord();
    const post = await created({ title: `Archive ${word}`, slug: `${word}-archive` });
    const res = await patchPost<FieldErrorsJson>(post.slug, { status: 'archived' });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body)).toEqual(['status']);
    expect(res.body['status']).toHaveLength(1);
  });

  it('changes the author by {slug}', async () => {
    const word = uniqueWord();
    const other = required(
      acme.authors.find((a) => a.slug !== acme.owner),
      'non-owner acme author',
    );
    const post = await created({ title: `Reassign ${word}`, slug: `${word}-reassign` });
    expect(post.author.slug).toBe(acme.owner);
    const after = await patched(post.slug, { author: { slug: other.slug } });
    expect(after.author.slug).toBe(other.slug);
  });

  it('unknown slug → 404 Not found', async () => {
    const res = await patchPost<DetailJson>(`no-such-post-${uniqueWord()}`, { title: 'x' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: messages.notFound });
  });

  it("another organization's post → 404 and nothing changes", async () => {
    const acmeLive = liveSlugs(acme);
    const theirs = required(
      northwind.posts.find((p) => p.deleted === null && !acmeLive.has(p.slug)),
      'northwind post whose slug acme does not have',
    );
    const res = await patchPost<DetailJson>(theirs.slug, { title: 'hijacked' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: messages.notFound });
    await api.idle();
    expect((await readPost(theirs.slug, tokensOf('northwind').read)).body.data.title).toBe(theirs.title);
  });

  it('a path slug of 100 characters is looked up (404), 101 characters → 400', async () => {
    const atBound = await patchPost<DetailJson>('p'.repeat(100), { title: 'x' });
    expect(atBound.status).toBe(404);
    expect(atBound.body).toEqual({ detail: messages.notFound });
    const res = await patchPost<DetailJson>('p'.repeat(101), { title: 'x' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: messages.pathSlugTooLong });
  });

  it('a path slug of exactly 100 characters can be patched', async () => {
    const word = uniqueWord();
    const slug = `${word}-`.padEnd(100, 'q');
    const post = await created({ title: `Long path ${word}`, slug });
    expect(post.slug).toHaveLength(100);
    const after = await patched(slug, { summary: 'reached through a 100-character path' });
    expect(after.summary).toBe('reached through a 100-character path');
  });

  it.each([
    ['Search', messages.postSlugReserved('search')],
    ['🎉 🎉', messages.postSlugEmpty],
  ])('slug %j → 400', async (slug, message) => {
    const word = uniqueWord();
    const post = await created({ title: `Bad new slug ${word}`, slug: `${word}-bad-new-slug` });
    const res = await patchPost<FieldErrorsJson>(post.slug, { slug });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ slug: [message] });
    await api.idle();
    expect((await readPost(post.slug)).status).toBe(200);
  });

  it('slug claimed by a create accepted just before → 400', async () => {
    const word = uniqueWord();
    const post = await created({ title: `Claim loser ${word}`, slug: `${word}-claim-loser` });
    const claimed = `${word}-claimed`;
    expect((await createPost({ title: `Claim winner ${word}`, slug: claimed })).status).toBe(202);
    const res = await patchPost<FieldErrorsJson>(post.slug, { slug: claimed });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ slug: [messages.postSlugTaken] });
    await api.idle();
    expect((await readPost(claimed)).body.data.title).toBe(`Claim winner ${word}`);
    expect((await readPost(post.slug)).status).toBe(200);
  });

  it.each([
    ['', messages.blank],
    [null, messages.notNull],
    [42, messages.notString],
  ])('title %j → 400', async (title, message) => {
    const word = uniqueWord();
    const post = await created({ title: `Title types ${word}`, slug: `${word}-title-types` });
    const res = await patchPost<FieldErrorsJson>(post.slug, { title });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ title: [message] });
  });

  it('an empty body → 202 and nothing but `updated` changes', async () => {
    const word = uniqueWord();
    const before = await created({ title: `Empty patch ${word}`, slug: `${word}-empty-patch`, summary: 'stays' });
    const res = await patchPost(before.slug, {});
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ status: 'pending' });
    await api.idle();
    const { updated: _u1, ...restBefore } = before;
    const { updated: _u2, ...restAfter } = (await readPost(before.slug)).body.data;
    expect(restAfter).toEqual(restBefore);
  });

  it('categories and tags by name: existing reused, missing created, [] clears', async () => {
    const word = uniqueWord();
    const category = required(acme.categories.at(-1), 'acme category');
    const tag = required(acme.tags.at(-1), 'acme tag');
    const post = await created({ title: `Retag ${word}`, slug: `${word}-retag`, tags: [tag.name] });
    expect(post.tags).toEqual([{ name: tag.name, slug: tag.slug }]);
    const after = await patched(post.slug, { categories: [category.name.toUpperCase(), `Brand New ${word}`], tags: [] });
    expect(after.categories).toEqual([
      { name: category.name, slug: category.slug },
      { name: `Brand New ${word}`, slug: `brand-new-${word}` },
    ]);
    expect(after.tags).toEqual([]);
    const single = await api.get<{ data: TermJson }>(`/categories/brand-new-${word}/`, { token: tokensOf('acme').read });
    expect(single.status).toBe(200);
    expect(single.body.data).toEqual({ name: `Brand New ${word}`, slug: `brand-new-${word}` });
  });

  it('a scheduled post keeps its status and schedule when PATCH sends status "scheduled" and a `scheduled` field', async () => {
    const scheduled = required(
      acme.posts.find((p) => p.deleted === null && p.status === 'scheduled'),
      'live scheduled acme post',
    );
    const res = await patchPost<Record<string, unknown>>(scheduled.slug, {
      status: 'scheduled',
      scheduled: '2031-01-01T00:00:00Z',
      summary: `Rescheduled? ${uniqueWord()}`,
    });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      status: 'pending',
      status_warning: messages.scheduledStatusIgnored,
      scheduled_warning: messages.scheduledFieldIgnored,
    });
    await api.idle();
    const read = await readPost(scheduled.slug);
    expect(read.body.data.status).toBe('scheduled');
    expect(read.body.data.summary.startsWith('Rescheduled?')).toBe(true);
    const stored = (await dataPosts('acme')).find((p) => p.id === scheduled.id);
    expect(stored?.status).toBe('scheduled');
    expect(stored?.scheduled).toBe(scheduled.scheduled);
  });

  it('a soft-deleted post → 404', async () => {
    const word = uniqueWord();
    const post = await created({ title: `Deleted then patched ${word}`, slug: `${word}-gone` });
    expect((await deletePost(post.slug)).status).toBe(204);
    const res = await patchPost<DetailJson>(post.slug, { title: 'back from the dead' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: messages.notFound });
  });
});

describe('DELETE /posts/{slug}/', () => {
  it('204 with an empty body; the post leaves every read but stays in the data file (soft delete)', async () => {
    const word = uniqueWord();
    const author = required(
      acme.authors.find((a) => a.slug !== acme.owner),
      'non-owner acme author',
    );
    const token = tokensOf('acme').read;
    const post = await created({
      title: `Doomed ${word} quokkazumba`,
      slug: `${word}-doomed`,
      status: 'published',
      summary: `Soon gone ${word}`,
      author: { slug: author.slug },
    });
    const storedBefore = required(
      (await dataPosts('acme')).find((p) => p.slug === post.slug),
      'the created post in the data file',
    );

    const listBefore = await api.get<ListJson>('/posts/', { token });
    const searchBefore = await api.get<ListJson>('/posts/search/', { token, query: { query: word } });
    const rssBefore = await api.get('/feeds/rss/', { token });
    const authorBefore = await api.get<{ data: AuthorJson }>(`/authors/${author.slug}/`, { token, query: { include: 'recent_posts' } });
    // Preconditions: the post is visible everywhere before the delete.
    expect(searchBefore.body.data.some((p) => p.slug === post.slug)).toBe(true);
    expect(rssBefore.text).toContain(post.url);
    expect(authorBefore.body.data.recent_posts?.some((p) => p.slug === post.slug)).toBe(true);

    const res = await deletePost(post.slug);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');

    expect((await readPost(post.slug)).status).toBe(404);
    const listAfter = await api.get<ListJson>('/posts/', { token });
    expect(listAfter.body.meta.count).toBe(listBefore.body.meta.count - 1);
    const fullList = await api.get<ListJson>('/posts/', { token, query: { page_size: 100, preview: 1 } });
    expect(fullList.body.data.some((p) => p.slug === post.slug)).toBe(false);
    const searchAfter = await api.get<ListJson>('/posts/search/', { token, query: { query: word } });
    expect(searchAfter.body.data.some((p) => p.slug === post.slug)).toBe(false);
    const rssAfter = await api.get('/feeds/rss/', { token });
    expect(rssAfter.status).toBe(200);
    expect(rssAfter.text).not.toContain(post.url);
    const authorAfter = await api.get<{ data: AuthorJson }>(`/authors/${author.slug}/`, { token, query: { include: 'recent_posts' } });
    expect(authorAfter.body.data.recent_posts?.some((p) => p.slug === post.slug)).toBe(false);

    const stored = (await dataPosts('acme')).find((p) => p.id === storedBefore.id);
    expect(stored).toBeDefined();
    expect(stored?.slug).toBe(post.slug);
    expect(stored?.title).toBe(post.title);
    expect(typeof stored?.deleted).toBe('string');
    expect(Number.isNaN(Date.parse(stored?.deleted ?? ''))).toBe(false);
  });

  it('a second DELETE → 404', async () => {
    const word = uniqueWord();
    const post = await created({ title: `Twice deleted ${word}`, slug: `${word}-twice-deleted` });
    expect((await deletePost(post.slug)).status).toBe(204);
    const again = await deletePost<DetailJson>(post.slug);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ detail: messages.notFound });
  });

  it('an unknown slug → 404', async () => {
    const res = await deletePost<DetailJson>(`never-existed-${uniqueWord()}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: messages.notFound });
  });

  it("another organization's post → 404 and it stays", async () => {
    const acmeLive = liveSlugs(acme);
    const theirs = required(
      northwind.posts.find((p) => p.deleted === null && !acmeLive.has(p.slug)),
      'northwind post whose slug acme does not have',
    );
    const res = await deletePost<DetailJson>(theirs.slug);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: messages.notFound });
    expect((await readPost(theirs.slug, tokensOf('northwind').read)).status).toBe(200);
  });

  it('a path slug of 100 characters is looked up (404), 101 characters → 400', async () => {
    const atBound = await deletePost<DetailJson>('d'.repeat(100));
    expect(atBound.status).toBe(404);
    expect(atBound.body).toEqual({ detail: messages.notFound });
    const res = await deletePost<DetailJson>('d'.repeat(101));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: messages.pathSlugTooLong });
  });

  it('a deleted slug is free again: a new post takes it, and the old record stays deleted', async () => {
    const word = uniqueWord();
    const slug = `${word}-reborn`;
    const old = await created({ title: `Old ${word}`, slug });
    expect((await deletePost(slug)).status).toBe(204);
    const fresh = await created({ title: `New ${word}`, slug });
    expect(fresh.title).toBe(`New ${word}`);
    const records = (await dataPosts('acme')).filter((p) => p.slug === slug);
    expect(records).toHaveLength(2);
    expect(records.filter((p) => p.deleted === null).map((p) => p.title)).toEqual([`New ${word}`]);
    expect(records.find((p) => p.deleted !== null)?.title).toBe(old.title);
  });
});

describe('authentication on writes', () => {
  let target: string;

  beforeAll(async () => {
    const word = uniqueWord();
    target = (await created({ title: `Auth target ${word}`, slug: `${word}-auth-target` })).slug;
  });

  const writes: [string, () => [string, string, Body | undefined]][] = [
    ['POST', () => ['POST', '/posts/', { title: `Auth ${uniqueWord()}` }]],
    ['PATCH', () => ['PATCH', path(target), { title: 'changed without auth' }]],
    ['DELETE', () => ['DELETE', path(target), undefined]],
  ];

  async function expectUntouched(): Promise<void> {
    await api.idle();
    const read = await readPost(target);
    expect(read.status).toBe(200);
    expect(read.body.data.title).not.toBe('changed without auth');
  }

  it.each(writes)('%s without Authorization → 401 noCredentials', async (_m, make) => {
    const [method, url, body] = make();
    const res = await api.request<DetailJson>(method, url, body === undefined ? {} : { body });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: messages.noCredentials });
    expect(res.headers.get('www-authenticate')).toBe('Token');
    await expectUntouched();
  });

  it.each(writes)('%s with the write token as auth_token and no header → 401 writeTokenHeaderOnly', async (_m, make) => {
    const [method, url, body] = make();
    const token = tokensOf('acme').write;
    const res = await api.request<DetailJson>(method, url, body === undefined ? { token } : { token, body });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: messages.writeTokenHeaderOnly });
    expect(res.headers.get('www-authenticate')).toBe('Token');
    await expectUntouched();
  });

  it.each(writes)('%s with the read token in the header → 401 readTokenCannotWrite', async (_m, make) => {
    const [method, url, body] = make();
    const res = await send<DetailJson>(method, url, body, tokensOf('acme').read);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: messages.readTokenCannotWrite });
    expect(res.headers.get('www-authenticate')).toBe('Token');
    await expectUntouched();
  });

  it.each(writes)('%s with a garbage token → 401 invalidToken', async (_m, make) => {
    const [method, url, body] = make();
    const res = await send<DetailJson>(method, url, body, `garbage-${uniqueWord()}-token`);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: messages.invalidToken });
    expect(res.headers.get('www-authenticate')).toBe('Token');
    await expectUntouched();
  });

  it('a POST refused for auth creates nothing', async () => {
    const word = uniqueWord();
    const slug = `${word}-unauth`;
    const before = (await dataPosts('acme')).length;
    expect((await api.request('POST', '/posts/', { body: { title: 'x', slug } })).status).toBe(401);
    expect((await send('POST', '/posts/', { title: 'x', slug }, tokensOf('acme').read)).status).toBe(401);
    await api.idle();
    expect((await readPost(slug)).status).toBe(404);
    expect(await dataPosts('acme')).toHaveLength(before);
  });
});

describe('organization isolation', () => {
  it("northwind's write token cannot PATCH or DELETE an acme post (404)", async () => {
    const northwindLive = liveSlugs(northwind);
    const word = uniqueWord();
    const post = await created({ title: `Acme only ${word}`, slug: `${word}-acme-only` });
    expect(northwindLive.has(post.slug)).toBe(false);
    const nw = tokensOf('northwind').write;

    const patch = await patchPost<DetailJson>(post.slug, { title: 'northwind was here' }, nw);
    expect(patch.status).toBe(404);
    expect(patch.body).toEqual({ detail: messages.notFound });
    const del = await deletePost<DetailJson>(post.slug, nw);
    expect(del.status).toBe(404);
    expect(del.body).toEqual({ detail: messages.notFound });

    await api.idle();
    const read = await readPost(post.slug);
    expect(read.status).toBe(200);
    expect(read.body.data.title).toBe(`Acme only ${word}`);
  });

  it("northwind's write token cannot touch an acme fixture post whose slug northwind lacks", async () => {
    const northwindLive = liveSlugs(northwind);
    const ours = required(
      acme.posts.find((p) => p.deleted === null && !northwindLive.has(p.slug)),
      'acme post whose slug northwind does not have',
    );
    const nw = tokensOf('northwind').write;
    expect((await patchPost(ours.slug, { title: 'northwind was here' }, nw)).status).toBe(404);
    expect((await deletePost(ours.slug, nw)).status).toBe(404);
    await api.idle();
    expect((await readPost(ours.slug)).body.data.title).toBe(ours.title);
  });

  it("northwind's POST lands only in northwind, with northwind's owner as author", async () => {
    const word = uniqueWord();
    const slug = `${word}-northwind`;
    const nwTokens = tokensOf('northwind');
    const acmeBefore = (await dataPosts('acme')).length;
    const post = await created({ title: `Northwind post ${word}`, slug }, nwTokens.write, nwTokens.read);
    expect(post.author.slug).toBe(northwind.owner);
    expect(post.url).toBe(`${northwind.blog.url.replace(/\/+$/, '')}/${slug}`);
    expect((await readPost(slug)).status).toBe(404);

    const data = await api.readDataFile();
    expect(org(data, 'northwind').posts.some((p) => p.slug === slug)).toBe(true);
    expect(org(data, 'acme').posts.some((p) => p.slug === slug)).toBe(false);
    expect(org(data, 'acme').posts).toHaveLength(acmeBefore);
  });

  it('the same slug may exist in both organizations', async () => {
    const word = uniqueWord();
    const slug = `${word}-shared`;
    const nwTokens = tokensOf('northwind');
    await created({ title: `Acme ${word}`, slug });
    const nwPost = await created({ title: `Northwind ${word}`, slug }, nwTokens.write, nwTokens.read);
    expect(nwPost.title).toBe(`Northwind ${word}`);
    expect((await readPost(slug)).body.data.title).toBe(`Acme ${word}`);
  });
});
