/**
 * API tests of the blog post reads (spec: GET /posts/, GET /posts/{slug}/, GET /posts/search/,
 * Pagination envelope, Limits, Errors, Authentication; choices in docs/spec-gaps.md). Every
 * expectation is derived from the demo fixture (or from posts a test writes itself), never typed in.
 *
 * Two emulators: one that is never written to (its reads must match the fixture exactly) and one
 * for the tests that create or delete posts, each of which uses its own made-up words and slugs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../server/domain/messages.js';
import type { Organization, Post, StoreData } from '../../server/store/schema.js';
import { liveBodyMedia, liveMediaUrl } from '../../server/domain/media/library.js';
import { loadFixture, startTestEmulator, type ApiResponse, type TestEmulator } from '../helpers/emulator.js';

// ---------------------------------------------------------------------------------------------
// Shapes the API answers with
// ---------------------------------------------------------------------------------------------

interface AuthorRecord {
  slug: string;
  first_name: string;
  last_name: string;
  email: string;
  bio: string;
  title: string;
  linkedin_url: string;
  facebook_url: string;
  pinterest_url: string;
  instagram_url: string;
  twitter_handle: string;
  profile_image: string;
}

interface TermRecord {
  name: string;
  slug: string;
}

interface PostRecord {
  url: string;
  created: string;
  published: string | null;
  author: AuthorRecord;
  categories: TermRecord[];
  tags: TermRecord[];
  featured_image: string | null;
  featured_image_alt: string;
  slug: string;
  title: string;
  body?: string;
  summary: string;
  seo_title: string;
  meta_description: string;
  status: string;
  updated?: string;
  deleted?: null;
  rank?: number;
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

interface ListBody<M = PageMeta> {
  meta: M;
  data: PostRecord[];
}

interface Neighbour {
  slug: string;
  title: string;
  featured_image: string | null;
}

interface SingleBody {
  meta: { next_post: Neighbour | null; previous_post: Neighbour | null };
  data: PostRecord;
}

interface ErrorBody {
  detail: string;
}

// ---------------------------------------------------------------------------------------------
// Expectations derived from the fixture
// ---------------------------------------------------------------------------------------------

/** Timestamps as spec-gaps fixes them: ISO 8601 UTC with milliseconds and `Z`. */
const iso = (value: string | null): string | null => (value === null ? null : new Date(value).toISOString());

const time = (value: string | null): number => (value === null ? 0 : Date.parse(value));

function org(data: StoreData, slug: string): Organization {
  const found = data.organizations.find((o) => o.slug === slug);
  if (!found) throw new Error(`the demo fixture has no organization "${slug}"`);
  return found;
}

const isLive = (p: Post): boolean => p.deleted === null;
const isPublished = (p: Post): boolean => p.deleted === null && p.status === 'published';

/** Published, not deleted, newest `published` first, then higher id first. */
function publishedPosts(o: Organization): Post[] {
  return o.posts.filter(isPublished).sort((a, b) => time(b.published) - time(a.published) || b.id - a.id);
}

function postUrl(o: Organization, slug: string): string {
  return `${o.blog.url.replace(/\/+$/, '')}/${encodeURIComponent(slug)}`;
}

function expectedAuthor(o: Organization, slug: string): AuthorRecord {
  const a = o.authors.find((x) => x.slug === slug);
  if (!a) throw new Error(`fixture post names unknown author ${slug}`);
  return {
    slug: a.slug,
    first_name: a.first_name,
    last_name: a.last_name,
    email: a.email,
    bio: a.bio,
    title: a.title,
    linkedin_url: a.linkedin_url,
    facebook_url: a.facebook_url,
    pinterest_url: a.pinterest_url,
    instagram_url: a.instagram_url,
    twitter_handle: a.twitter_handle,
    profile_image: a.profile_image,
  };
}

function expectedTerms(terms: { slug: string; name: string }[], slugs: string[]): TermRecord[] {
  return slugs.map((slug) => {
    const term = terms.find((t) => t.slug === slug);
    if (!term) throw new Error(`fixture post names unknown term ${slug}`);
    return { name: term.name, slug: term.slug };
  });
}

/** CDN base URL of the running emulator: stored `media:<id>` values read as `${cdnUrl}/<id>`. */
let cdnUrl = '';

/** The full Blog post record the API must send for `p` (list form unless `single`). */
function expectedRecord(o: Organization, p: Post, options: { single?: boolean; excludeBody?: boolean } = {}): PostRecord {
  const record: PostRecord = {
    url: postUrl(o, p.slug),
    created: iso(p.created)!,
    published: iso(p.published),
    author: expectedAuthor(o, p.author),
    categories: expectedTerms(o.categories, p.categories),
    tags: expectedTerms(o.tags, p.tags),
    featured_image: p.featured_image === null ? null : liveMediaUrl(p.featured_image, cdnUrl),
    featured_image_alt: p.featured_image_alt,
    slug: p.slug,
    title: p.title,
    body: liveBodyMedia(p.body, cdnUrl),
    summary: p.summary,
    seo_title: p.seo_title,
    meta_description: p.meta_description,
    status: p.status,
  };
  if (options.excludeBody) delete record.body;
  if (options.single) {
    record.updated = iso(p.updated)!;
    record.deleted = null;
  }
  return record;
}

const neighbour = (p: Post | undefined): Neighbour | null =>
  p ? { slug: p.slug, title: p.title, featured_image: p.featured_image === null ? null : liveMediaUrl(p.featured_image, cdnUrl) } : null;

/** Text a search sees: title, body without its tags, summary. */
const searchText = (p: Post): string => `${p.title} ${p.body.replace(/<[^>]*>/g, ' ')} ${p.summary}`;

const containsWord = (p: Post, word: string): boolean => new RegExp(`(^|[^\\p{L}\\p{N}])${word}`, 'iu').test(searchText(p));

const NON_ASCII = /[^\p{ASCII}]/u;

const slugsOf = (records: PostRecord[]): string[] => records.map((r) => r.slug);

function mostUsed(posts: Post[], pick: (p: Post) => string[]): string {
  const counts = new Map<string, number>();
  for (const p of posts) for (const s of pick(p)) counts.set(s, (counts.get(s) ?? 0) + 1);
  const best = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0];
  if (!best) throw new Error('no published post of the fixture has such a term');
  return best[0];
}

function expectRanksDescending(records: PostRecord[]): void {
  for (const r of records) expect(typeof r.rank).toBe('number');
  const ranks = records.map((r) => r.rank ?? Number.NaN);
  expect(ranks).toEqual([...ranks].sort((a, b) => b - a));
}

// ---------------------------------------------------------------------------------------------
// Reads over the fixture, on an emulator that is never written to
// ---------------------------------------------------------------------------------------------

describe('post reads over the demo fixture', () => {
  let t: TestEmulator;
  let fixture: StoreData;
  let acme: Organization;
  let northwind: Organization;
  let published: Post[];
  let read: string;

  const list = <M = PageMeta>(query: Record<string, string | number> = {}): Promise<ApiResponse<ListBody<M>>> =>
    t.get<ListBody<M>>('/posts/', { token: read, query });
  const search = <M = PageMeta>(query: Record<string, string | number> = {}): Promise<ApiResponse<ListBody<M>>> =>
    t.get<ListBody<M>>('/posts/search/', { token: read, query });
  const single = (slug: string, token = read): Promise<ApiResponse<SingleBody>> =>
    t.get<SingleBody>(`/posts/${encodeURIComponent(slug)}/`, { token });
  const bySlug = (slug: string): Post => {
    const p = acme.posts.find((x) => x.slug === slug && isLive(x));
    if (!p) throw new Error(`no live acme post ${slug}`);
    return p;
  };

  beforeAll(async () => {
    fixture = await loadFixture();
    acme = org(fixture, 'acme');
    northwind = org(fixture, 'northwind');
    published = publishedPosts(acme);
    t = await startTestEmulator();
    cdnUrl = t.cdnUrl;
    read = t.tokens['acme']!.read;
  });

  afterAll(async () => {
    await t?.close();
  });

  it('derives a usable fixture (guards the derivations below)', () => {
    expect(published.length).toBeGreaterThan(20);
    expect(acme.posts.some((p) => p.status === 'draft' && isLive(p))).toBe(true);
    expect(acme.posts.some((p) => p.status === 'scheduled' && isLive(p))).toBe(true);
    expect(acme.posts.some((p) => p.deleted !== null)).toBe(true);
  });

  // ------------------------------------------------------------------------------- authentication
  describe('authentication', () => {
    const endpoints: { name: string; path: () => string; query: Record<string, string> }[] = [
      { name: 'GET /posts/', path: () => '/posts/', query: {} },
      { name: 'GET /posts/{slug}/', path: () => `/posts/${encodeURIComponent(publishedPosts(org(fixture, 'acme'))[0]!.slug)}/`, query: {} },
      { name: 'GET /posts/search/', path: () => '/posts/search/', query: { query: 'hydration' } },
    ];

    it.each(endpoints)('$name without a token is 401 noCredentials with a Token challenge', async ({ path, query }) => {
      const res = await t.get<ErrorBody>(path(), { query });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ detail: messages.noCredentials });
      expect(res.headers.get('www-authenticate')).toBe('Token');
    });

    it.each(endpoints)('$name with a wrong token is 401 invalidToken (query and header form)', async ({ path, query }) => {
      const viaQuery = await t.get<ErrorBody>(path(), { token: 'not-a-real-token-123', query });
      expect(viaQuery.status).toBe(401);
      expect(viaQuery.body).toEqual({ detail: messages.invalidToken });
      const viaHeader = await t.get<ErrorBody>(path(), { headerToken: 'not-a-real-token-123', query });
      expect(viaHeader.status).toBe(401);
      expect(viaHeader.body).toEqual({ detail: messages.invalidToken });
    });

    it.each(endpoints)('$name accepts the read token as "Authorization: Token <read>"', async ({ path, query }) => {
      const viaHeader = await t.get(path(), { headerToken: read, query });
      const viaQuery = await t.get(path(), { token: read, query });
      expect(viaHeader.status).toBe(200);
      expect(viaHeader.body).toEqual(viaQuery.body);
    });

    it.each(endpoints)('$name accepts the write token of the organization (query and header)', async ({ path, query }) => {
      const write = t.tokens['acme']!.write;
      const viaRead = await t.get(path(), { token: read, query });
      const viaQuery = await t.get(path(), { token: write, query });
      const viaHeader = await t.get(path(), { headerToken: write, query });
      expect(viaQuery.status).toBe(200);
      expect(viaHeader.status).toBe(200);
      expect(viaQuery.body).toEqual(viaRead.body);
      expect(viaHeader.body).toEqual(viaRead.body);
    });

    it('the header token wins over auth_token when both are sent', async () => {
      const headerWins = await t.get<ListBody>('/posts/', { headerToken: read, token: 'not-a-real-token-123' });
      expect(headerWins.status).toBe(200);
      const badHeader = await t.get<ErrorBody>('/posts/', { headerToken: 'not-a-real-token-123', token: read });
      expect(badHeader.status).toBe(401);
      expect(badHeader.body).toEqual({ detail: messages.invalidToken });
    });
  });

  // ------------------------------------------------------------------------------ GET /posts/
  describe('GET /posts/', () => {
    it('answers the page envelope with the 10 newest published posts by default', async () => {
      const res = await list();
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
      expect(res.body).toStrictEqual({
        meta: { count: published.length, next_page: published.length > 10 ? 2 : null, previous_page: null },
        data: published.slice(0, 10).map((p) => expectedRecord(acme, p)),
      });
    });

    it('lists exactly the published, not deleted posts, newest publication first, as full records', async () => {
      const res = await list({ page_size: 100 });
      expect(res.status).toBe(200);
      expect(res.body.meta).toStrictEqual({ count: published.length, next_page: null, previous_page: null });
      expect(res.body.data).toStrictEqual(published.map((p) => expectedRecord(acme, p)));
      for (const r of res.body.data) {
        expect(r.status).toBe('published');
        expect(r).not.toHaveProperty('updated');
        expect(r).not.toHaveProperty('deleted');
        expect(r).not.toHaveProperty('rank');
      }
    });

    it('never lists a soft-deleted, draft or scheduled post', async () => {
      const res = await list({ page_size: 100 });
      const hidden = acme.posts.filter((p) => !isPublished(p));
      const liveSlugs = new Set(published.map((p) => p.slug));
      for (const p of hidden) if (!liveSlugs.has(p.slug)) expect(slugsOf(res.body.data)).not.toContain(p.slug);
      expect(hidden.length).toBeGreaterThan(0);
    });

    it('gives url = blog.url + "/" + encoded slug, the full author and {name, slug} terms', async () => {
      const res = await list({ page_size: 100 });
      const unicode = published.find((p) => NON_ASCII.test(p.slug));
      expect(unicode).toBeDefined();
      const record = res.body.data.find((r) => r.slug === unicode!.slug);
      expect(record?.url).toBe(`${acme.blog.url.replace(/\/+$/, '')}/${encodeURIComponent(unicode!.slug)}`);
      for (const r of res.body.data) {
        expect(Object.keys(r.author).sort()).toEqual(Object.keys(expectedAuthor(acme, r.author.slug)).sort());
        for (const term of [...r.categories, ...r.tags]) expect(Object.keys(term).sort()).toEqual(['name', 'slug']);
      }
    });

    it('keeps an accented title intact (UTF-8 round trip)', async () => {
      const accented = published.find((p) => /[À-ÿ]/.test(p.title));
      expect(accented).toBeDefined();
      const res = await list({ page_size: 100 });
      expect(res.body.data.find((r) => r.slug === accented!.slug)?.title).toBe(accented!.title);
    });

    describe('page / page_size', () => {
      it('walks every page with next_page / previous_page until the last', async () => {
        const size = 7;
        const last = Math.ceil(published.length / size);
        expect(last).toBeGreaterThan(2);
        const seen: string[] = [];
        for (let page = 1; page <= last; page += 1) {
          const res = await list({ page, page_size: size });
          expect(res.status).toBe(200);
          expect(res.body.meta).toStrictEqual({
            count: published.length,
            next_page: page < last ? page + 1 : null,
            previous_page: page > 1 ? page - 1 : null,
          });
          expect(slugsOf(res.body.data)).toEqual(published.slice((page - 1) * size, page * size).map((p) => p.slug));
          seen.push(...slugsOf(res.body.data));
        }
        expect(seen).toEqual(published.map((p) => p.slug));
      });

      it('page 2 of the default size', async () => {
        const res = await list({ page: 2 });
        expect(res.status).toBe(200);
        expect(res.body.meta).toStrictEqual({
          count: published.length,
          next_page: published.length > 20 ? 3 : null,
          previous_page: 1,
        });
        expect(slugsOf(res.body.data)).toEqual(published.slice(10, 20).map((p) => p.slug));
      });

      it('a page past the last is 404 Invalid page.', async () => {
        const last = Math.ceil(published.length / 10);
        const res = await list({ page: last + 1 });
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ detail: messages.invalidPage });
        const far = await list({ page: 1000, page_size: 100 });
        expect(far.status).toBe(404);
        expect(far.body).toEqual({ detail: messages.invalidPage });
      });

      it('page 1 of an empty list is 200, page 2 of it is 404', async () => {
        const empty = await list({ tag_slug: 'no-such-tag-anywhere' });
        expect(empty.status).toBe(200);
        expect(empty.body).toStrictEqual({ meta: { count: 0, next_page: null, previous_page: null }, data: [] });
        const past = await list({ tag_slug: 'no-such-tag-anywhere', page: 2 });
        expect(past.status).toBe(404);
        expect(past.body).toEqual({ detail: messages.invalidPage });
      });

      it('page_size 1 and 100 are accepted at the bounds', async () => {
        const one = await list({ page_size: 1 });
        expect(one.status).toBe(200);
        expect(slugsOf(one.body.data)).toEqual([published[0]!.slug]);
        expect(one.body.meta).toStrictEqual({ count: published.length, next_page: 2, previous_page: null });
        const hundred = await list({ page_size: 100 });
        expect(hundred.status).toBe(200);
        expect(hundred.body.data).toHaveLength(Math.min(100, published.length));
      });
    });

    describe('limit / offset', () => {
      it('answers offset meta {count, next_offset, previous_offset}', async () => {
        const first = await list<OffsetMeta>({ limit: 5 });
        expect(first.status).toBe(200);
        expect(first.body.meta).toStrictEqual({ count: published.length, next_offset: 5, previous_offset: null });
        expect(slugsOf(first.body.data)).toEqual(published.slice(0, 5).map((p) => p.slug));

        const second = await list<OffsetMeta>({ limit: 5, offset: 5 });
        expect(second.body.meta).toStrictEqual({ count: published.length, next_offset: 10, previous_offset: 0 });
        expect(slugsOf(second.body.data)).toEqual(published.slice(5, 10).map((p) => p.slug));

        const third = await list<OffsetMeta>({ limit: 5, offset: 12 });
        expect(third.body.meta).toStrictEqual({ count: published.length, next_offset: 17, previous_offset: 7 });
        expect(slugsOf(third.body.data)).toEqual(published.slice(12, 17).map((p) => p.slug));
      });

      it('offset alone uses limit 10; the tail has next_offset null', async () => {
        const offset = published.length - 3;
        const res = await list<OffsetMeta>({ offset });
        expect(res.status).toBe(200);
        expect(res.body.meta).toStrictEqual({ count: published.length, next_offset: null, previous_offset: offset - 10 });
        expect(slugsOf(res.body.data)).toEqual(published.slice(offset).map((p) => p.slug));
      });

      it('an offset past the end is 200 with empty data', async () => {
        const res = await list<OffsetMeta>({ offset: published.length + 50, limit: 10 });
        expect(res.status).toBe(200);
        expect(res.body.data).toEqual([]);
        expect(res.body.meta.count).toBe(published.length);
        expect(res.body.meta.next_offset).toBeNull();
      });

      it('limit 100 returns everything in order', async () => {
        const res = await list<OffsetMeta>({ limit: 100, offset: 0 });
        expect(res.status).toBe(200);
        expect(res.body.meta).toStrictEqual({ count: published.length, next_offset: null, previous_offset: null });
        expect(slugsOf(res.body.data)).toEqual(published.map((p) => p.slug));
      });
    });

    it.each<Record<string, number>>([
      { page: 1, limit: 5 },
      { page_size: 5, offset: 0 },
      { page: 2, offset: 3 },
      { page_size: 5, limit: 5 },
    ])('mixing the two pairs (%o) is 400 paginationConflict', async (query) => {
      const res = await list(query);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ detail: messages.paginationConflict });
    });

    describe('parameter bounds', () => {
      const accepted: [string, string][] = [
        ['page', '1'],
        ['page_size', '1'],
        ['page_size', '100'],
        ['limit', '1'],
        ['limit', '100'],
        ['offset', '0'],
      ];
      it.each(accepted)('%s=%s is accepted', async (name, value) => {
        const res = await t.get<ListBody>(`/posts/?${name}=${value}`, { token: read });
        expect(res.status).toBe(200);
        expect(res.body.meta.count).toBe(published.length);
      });

      const refused: [string, string, string][] = [
        ['page', '0', messages.intParam('page', 1)],
        ['page', '-1', messages.intParam('page', 1)],
        ['page', 'abc', messages.intParam('page', 1)],
        ['page', '1.5', messages.intParam('page', 1)],
        ['page_size', '0', messages.intParam('page_size', 1, 100)],
        ['page_size', '101', messages.intParam('page_size', 1, 100)],
        ['page_size', 'abc', messages.intParam('page_size', 1, 100)],
        ['page_size', '1.5', messages.intParam('page_size', 1, 100)],
        ['limit', '0', messages.intParam('limit', 1, 100)],
        ['limit', '101', messages.intParam('limit', 1, 100)],
        ['limit', 'abc', messages.intParam('limit', 1, 100)],
        ['limit', '1.5', messages.intParam('limit', 1, 100)],
        ['offset', '-1', messages.intParam('offset', 0)],
        ['offset', 'abc', messages.intParam('offset', 0)],
        ['offset', '1.5', messages.intParam('offset', 0)],
      ];
      it.each(refused)('%s=%s is 400 with a detail message', async (name, value, detail) => {
        const res = await t.get<ErrorBody>(`/posts/?${name}=${encodeURIComponent(value)}`, { token: read });
        expect(res.status).toBe(400);
        expect(typeof res.body.detail).toBe('string');
        expect(res.body).toEqual({ detail });
      });

      it.each(['page', 'page_size', 'limit', 'offset', 'preview', 'exclude_body', 'author_slug', 'category_slug', 'tag_slug'])(
        'a repeated %s is 400 repeatedParam',
        async (name) => {
          const value = name.endsWith('_slug') ? published[0]!.author : '1';
          const res = await t.get<ErrorBody>(`/posts/?${name}=${value}&${name}=${value}`, { token: read });
          expect(res.status).toBe(400);
          expect(res.body).toEqual({ detail: messages.repeatedParam(name) });
        },
      );

      it('unknown query parameters are ignored', async () => {
        const res = await list({ test: 1, foo: 'bar' });
        expect(res.status).toBe(200);
        expect(res.body.meta.count).toBe(published.length);
      });
    });

    describe('preview', () => {
      const live = (): Post[] => acme.posts.filter(isLive);

      it.each(['1', 'true'])('preview=%s adds drafts and the scheduled post, never the deleted one', async (value) => {
        const res = await list({ preview: value, page_size: 100 });
        expect(res.status).toBe(200);
        const expected = live();
        expect(res.body.meta.count).toBe(expected.length);
        expect(slugsOf(res.body.data).sort()).toEqual(expected.map((p) => p.slug).sort());
        const bySlugRecord = new Map(res.body.data.map((r) => [r.slug, r]));
        for (const p of expected) expect(bySlugRecord.get(p.slug)).toStrictEqual(expectedRecord(acme, p));
        for (const p of acme.posts.filter((x) => x.status !== 'published' && isLive(x))) {
          expect(bySlugRecord.get(p.slug)?.status).toBe(p.status);
        }
        const deleted = acme.posts.filter((p) => p.deleted !== null && !expected.some((e) => e.slug === p.slug));
        expect(deleted.length).toBeGreaterThan(0);
        for (const p of deleted) expect(bySlugRecord.has(p.slug)).toBe(false);
        // The published ones keep the newest-first order among themselves.
        expect(slugsOf(res.body.data.filter((r) => r.status === 'published'))).toEqual(published.map((p) => p.slug));
      });

      it.each(['0', 'false'])('preview=%s lists published posts only', async (value) => {
        const res = await list({ preview: value, page_size: 100 });
        expect(res.status).toBe(200);
        expect(slugsOf(res.body.data)).toEqual(published.map((p) => p.slug));
      });

      it.each(['2', 'yes', '-1'])('preview=%s is 400 flagParam', async (value) => {
        const res = await list({ preview: value });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ detail: messages.flagParam('preview') });
      });
    });

    describe('exclude_body', () => {
      it.each(['true', '1'])('exclude_body=%s omits the body key and keeps the rest', async (value) => {
        const res = await list({ exclude_body: value, page_size: 100 });
        expect(res.status).toBe(200);
        for (const r of res.body.data) expect(Object.keys(r)).not.toContain('body');
        expect(res.body.data).toStrictEqual(published.map((p) => expectedRecord(acme, p, { excludeBody: true })));
      });

      it.each(['false', '0'])('exclude_body=%s keeps the body', async (value) => {
        const res = await list({ exclude_body: value });
        expect(res.status).toBe(200);
        expect(res.body.data.map((r) => r.body)).toEqual(published.slice(0, 10).map((p) => liveBodyMedia(p.body, cdnUrl)));
      });

      it.each(['maybe', '2', 'yes'])('exclude_body=%s is 400 boolParam', async (value) => {
        const res = await list({ exclude_body: value });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ detail: messages.boolParam('exclude_body') });
      });
    });

    describe('filters', () => {
      it('author_slug lists only that author, newest first', async () => {
        const author = mostUsed(published, (p) => [p.author]);
        const expected = published.filter((p) => p.author === author);
        expect(expected.length).toBeLessThan(published.length);
        const res = await list({ author_slug: author, page_size: 100 });
        expect(res.status).toBe(200);
        expect(res.body.meta).toStrictEqual({ count: expected.length, next_page: null, previous_page: null });
        expect(res.body.data).toStrictEqual(expected.map((p) => expectedRecord(acme, p)));
      });

      it('category_slug lists only posts of that category', async () => {
        const category = mostUsed(published, (p) => p.categories);
        const expected = published.filter((p) => p.categories.includes(category));
        const res = await list({ category_slug: category, page_size: 100 });
        expect(res.status).toBe(200);
        expect(res.body.meta.count).toBe(expected.length);
        expect(slugsOf(res.body.data)).toEqual(expected.map((p) => p.slug));
      });

      it('tag_slug lists only posts with that tag, and paginates', async () => {
        const tag = mostUsed(published, (p) => p.tags);
        const expected = published.filter((p) => p.tags.includes(tag));
        expect(expected.length).toBeGreaterThan(3);
        const res = await list({ tag_slug: tag, page_size: 100 });
        expect(slugsOf(res.body.data)).toEqual(expected.map((p) => p.slug));
        const page2 = await list({ tag_slug: tag, page_size: 3, page: 2 });
        expect(page2.body.meta).toStrictEqual({
          count: expected.length,
          next_page: expected.length > 6 ? 3 : null,
          previous_page: 1,
        });
        expect(slugsOf(page2.body.data)).toEqual(expected.slice(3, 6).map((p) => p.slug));
      });

      it('category_slug and tag_slug combine (both must match)', async () => {
        const pairs = new Map<string, number>();
        for (const p of published)
          for (const c of p.categories) for (const tag of p.tags) pairs.set(`${c} ${tag}`, (pairs.get(`${c} ${tag}`) ?? 0) + 1);
        const [pair] = [...pairs.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]!;
        const [category, tag] = pair.split(' ') as [string, string];
        const expected = published.filter((p) => p.categories.includes(category) && p.tags.includes(tag));
        expect(expected.length).toBeGreaterThan(0);
        expect(expected.length).toBeLessThan(published.filter((p) => p.categories.includes(category)).length);
        const res = await list({ category_slug: category, tag_slug: tag, page_size: 100 });
        expect(res.status).toBe(200);
        expect(res.body.meta.count).toBe(expected.length);
        expect(slugsOf(res.body.data)).toEqual(expected.map((p) => p.slug));
      });

      it('author_slug, category_slug and tag_slug combine', async () => {
        const sample = published.find((p) => p.categories.length > 0 && p.tags.length > 0)!;
        const [category, tag] = [sample.categories[0]!, sample.tags[0]!];
        const expected = published.filter((p) => p.author === sample.author && p.categories.includes(category) && p.tags.includes(tag));
        const res = await list({ author_slug: sample.author, category_slug: category, tag_slug: tag, page_size: 100 });
        expect(res.status).toBe(200);
        expect(res.body.meta.count).toBe(expected.length);
        expect(slugsOf(res.body.data)).toEqual(expected.map((p) => p.slug));
      });

      it('a combination that matches nothing gives an empty list', async () => {
        const author = mostUsed(published, (p) => [p.author]);
        const foreignCategory = acme.categories.find((c) => !published.some((p) => p.author === author && p.categories.includes(c.slug)));
        expect(foreignCategory).toBeDefined();
        const res = await list({ author_slug: author, category_slug: foreignCategory!.slug });
        expect(res.status).toBe(200);
        expect(res.body).toStrictEqual({ meta: { count: 0, next_page: null, previous_page: null }, data: [] });
      });

      it.each(['author_slug', 'category_slug', 'tag_slug'])('an unknown %s gives 200 with an empty list', async (name) => {
        const res = await list({ [name]: 'no-such-slug-at-all' });
        expect(res.status).toBe(200);
        expect(res.body).toStrictEqual({ meta: { count: 0, next_page: null, previous_page: null }, data: [] });
      });

      it.each(['author_slug', 'category_slug', 'tag_slug'])('an empty %s is no filter', async (name) => {
        const res = await t.get<ListBody>(`/posts/?${name}=`, { token: read });
        expect(res.status).toBe(200);
        expect(res.body.meta.count).toBe(published.length);
      });

      it('a tag held only by unpublished posts lists nothing, but preview=1 shows them', async () => {
        const tag = acme.tags.find(
          (tg) => !published.some((p) => p.tags.includes(tg.slug)) && acme.posts.some((p) => isLive(p) && p.tags.includes(tg.slug)),
        );
        expect(tag).toBeDefined();
        const plain = await list({ tag_slug: tag!.slug });
        expect(plain.body.meta.count).toBe(0);
        const preview = await list({ tag_slug: tag!.slug, preview: 1 });
        const expected = acme.posts.filter((p) => isLive(p) && p.tags.includes(tag!.slug));
        expect(slugsOf(preview.body.data).sort()).toEqual(expected.map((p) => p.slug).sort());
      });
    });

    it('each organization lists only its own posts', async () => {
      const res = await t.get<ListBody>('/posts/', { token: t.tokens['northwind']!.read, query: { page_size: 100 } });
      expect(res.status).toBe(200);
      const expected = publishedPosts(northwind);
      expect(res.body.meta.count).toBe(expected.length);
      expect(res.body.data).toStrictEqual(expected.map((p) => expectedRecord(northwind, p)));
    });

    it('a path without its trailing slash is 404 with a hint', async () => {
      const base = new URL(t.apiUrl).pathname.replace(/\/+$/, '');
      for (const path of ['/posts', '/posts/search']) {
        const res = await t.get<ErrorBody>(path, { token: read });
        expect(res.status).toBe(404);
        expect(res.body.detail).toContain('trailing slash');
        expect(res.body).toEqual({ detail: messages.notFoundTrailingSlash(`${base}${path}`) });
      }
    });
  });

  // ------------------------------------------------------------------------ GET /posts/{slug}/
  describe('GET /posts/{slug}/', () => {
    it('returns a published post in the single form with its neighbours', async () => {
      const i = Math.floor(published.length / 2);
      const post = published[i]!;
      const res = await single(post.slug);
      expect(res.status).toBe(200);
      expect(res.body).toStrictEqual({
        meta: { next_post: neighbour(published[i - 1]), previous_post: neighbour(published[i + 1]) },
        data: expectedRecord(acme, post, { single: true }),
      });
      expect(res.body.data.updated).toBe(iso(post.updated));
      expect(res.body.data.deleted).toBeNull();
      expect(Object.keys(res.body.data)).toContain('deleted');
    });

    it('next_post is the newer and previous_post the older published post, for every published post', async () => {
      for (const [i, post] of published.entries()) {
        const res = await single(post.slug);
        expect(res.status, post.slug).toBe(200);
        expect(res.body.meta, post.slug).toStrictEqual({
          next_post: neighbour(published[i - 1]),
          previous_post: neighbour(published[i + 1]),
        });
      }
    });

    it('the newest post has no next_post and the oldest no previous_post', async () => {
      const newest = await single(published[0]!.slug);
      expect(newest.body.meta).toStrictEqual({ next_post: null, previous_post: neighbour(published[1]) });
      const oldest = await single(published.at(-1)!.slug);
      expect(oldest.body.meta).toStrictEqual({ next_post: neighbour(published.at(-2)), previous_post: null });
    });

    it('the soft-deleted post is never a neighbour', async () => {
      const deleted = acme.posts.filter((p) => p.deleted !== null && p.published !== null);
      expect(deleted.length).toBeGreaterThan(0);
      for (const d of deleted) {
        // The published posts on either side of the deleted one's publication time.
        const newer = [...published].reverse().find((p) => time(p.published) > time(d.published));
        const older = published.find((p) => time(p.published) < time(d.published));
        for (const p of [newer, older]) {
          if (!p) continue;
          const res = await single(p.slug);
          expect(res.body.meta.next_post?.slug).not.toBe(d.slug);
          expect(res.body.meta.previous_post?.slug).not.toBe(d.slug);
        }
      }
    });

    it.each(['draft', 'scheduled'] as const)('returns a %s post (200, no neighbours)', async (status) => {
      const posts = acme.posts.filter((p) => p.status === status && isLive(p));
      expect(posts.length).toBeGreaterThan(0);
      for (const post of posts) {
        const res = await single(post.slug);
        expect(res.status, post.slug).toBe(200);
        expect(res.body, post.slug).toStrictEqual({
          meta: { next_post: null, previous_post: null },
          data: expectedRecord(acme, post, { single: true }),
        });
        expect(res.body.data.status).toBe(status);
      }
    });

    it('the soft-deleted post is 404 Not found.', async () => {
      const deleted = acme.posts.filter((p) => p.deleted !== null && !acme.posts.some((l) => isLive(l) && l.slug === p.slug));
      expect(deleted.length).toBeGreaterThan(0);
      for (const p of deleted) {
        const res = await single(p.slug);
        expect(res.status, p.slug).toBe(404);
        expect(res.body).toEqual({ detail: messages.notFound });
      }
    });

    it('an unknown slug is 404 Not found.', async () => {
      const res = await single('no-such-post-anywhere');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: messages.notFound });
    });

    it('the Unicode slug works percent-encoded in the path', async () => {
      const post = acme.posts.find((p) => isLive(p) && NON_ASCII.test(p.slug));
      expect(post).toBeDefined();
      const res = await t.get<SingleBody>(`/posts/${encodeURIComponent(post!.slug)}/`, { token: read });
      expect(res.status).toBe(200);
      expect(res.body.data.slug).toBe(post!.slug);
      expect(res.body.data.title).toBe(post!.title);
      expect(res.body.data.url).toBe(postUrl(acme, post!.slug));
    });

    it('the accented-title post reads back with its exact title', async () => {
      const post = acme.posts.find((p) => isPublished(p) && /[À-ÿ]/.test(p.title) && !NON_ASCII.test(p.slug));
      expect(post).toBeDefined();
      const res = await single(post!.slug);
      expect(res.status).toBe(200);
      expect(res.body.data).toStrictEqual(expectedRecord(acme, post!, { single: true }));
    });

    it('a slug of 101 characters is 400; 100 characters is a plain 404', async () => {
      const long = await single('a'.repeat(101));
      expect(long.status).toBe(400);
      expect(long.body).toEqual({ detail: messages.pathSlugTooLong });
      const max = await single('a'.repeat(100));
      expect(max.status).toBe(404);
      expect(max.body).toEqual({ detail: messages.notFound });
    });

    it('the path slug limit counts characters: 100 astral characters are a 404, 101 a 400', async () => {
      const max = await single('\u{20000}'.repeat(100));
      expect(max.status).toBe(404);
      expect(max.body).toEqual({ detail: messages.notFound });
      const long = await single('\u{20000}'.repeat(101));
      expect(long.status).toBe(400);
      expect(long.body).toEqual({ detail: messages.pathSlugTooLong });
    });

    it('a slug path without its trailing slash is 404 naming the trailing slash', async () => {
      const slug = published[0]!.slug;
      const res = await t.get<ErrorBody>(`/posts/${encodeURIComponent(slug)}`, { token: read });
      expect(res.status).toBe(404);
      expect(res.body.detail).toContain('trailing slash');
      expect(res.body.detail).toContain(`/posts/${encodeURIComponent(slug)}/`);
    });

    it("another organization's token cannot see an acme-only slug", async () => {
      const northwindSlugs = new Set(northwind.posts.filter(isLive).map((p) => p.slug));
      const acmeOnly = published.find((p) => !northwindSlugs.has(p.slug));
      expect(acmeOnly).toBeDefined();
      const res = await single(acmeOnly!.slug, t.tokens['northwind']!.read);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: messages.notFound });
      const own = await single(acmeOnly!.slug);
      expect(own.status).toBe(200);
    });

    it("a slug both organizations use returns each organization's own post", async () => {
      const northwindSlugs = new Set(northwind.posts.filter(isLive).map((p) => p.slug));
      const shared = acme.posts.find((p) => isLive(p) && northwindSlugs.has(p.slug));
      expect(shared).toBeDefined();
      const nwPost = northwind.posts.find((p) => isLive(p) && p.slug === shared!.slug)!;

      const viaAcme = await single(shared!.slug);
      expect(viaAcme.status).toBe(200);
      expect(viaAcme.body.data).toStrictEqual(expectedRecord(acme, bySlug(shared!.slug), { single: true }));

      const viaNorthwind = await single(shared!.slug, t.tokens['northwind']!.read);
      expect(viaNorthwind.status).toBe(200);
      expect(viaNorthwind.body.data).toStrictEqual(expectedRecord(northwind, nwPost, { single: true }));
      const nwPublished = publishedPosts(northwind);
      const j = nwPublished.findIndex((p) => p.id === nwPost.id);
      if (j >= 0) {
        expect(viaNorthwind.body.meta).toStrictEqual({
          next_post: neighbour(nwPublished[j - 1]),
          previous_post: neighbour(nwPublished[j + 1]),
        });
      }
    });
  });

  // -------------------------------------------------------------------------- GET /posts/search/
  describe('GET /posts/search/', () => {
    const empty = { meta: { count: 0, next_page: null, previous_page: null }, data: [] };

    it('a missing query gives 200 with no results', async () => {
      const res = await search();
      expect(res.status).toBe(200);
      expect(res.body).toStrictEqual(empty);
    });

    it('an empty query gives 200 with no results', async () => {
      const res = await t.get<ListBody>('/posts/search/?query=', { token: read });
      expect(res.status).toBe(200);
      expect(res.body).toStrictEqual(empty);
    });

    it.each(['hydration', 'ultralight', 'switchback'])(
      '"%s" finds every published post using it, only published posts, ranked by rank desc',
      async (word) => {
        const mustFind = published.filter((p) => containsWord(p, word));
        expect(mustFind.length).toBeGreaterThan(1);
        const res = await search({ query: word, page_size: 100 });
        expect(res.status).toBe(200);
        expect(res.body.meta).toStrictEqual({ count: res.body.data.length, next_page: null, previous_page: null });
        expect(slugsOf(res.body.data)).toEqual(expect.arrayContaining(mustFind.map((p) => p.slug)));
        const publishedSlugs = new Set(published.map((p) => p.slug));
        for (const r of res.body.data) {
          expect(publishedSlugs.has(r.slug), r.slug).toBe(true);
          expect(r.status).toBe('published');
        }
        expectRanksDescending(res.body.data);
      },
    );

    it('search results are full post records plus a numeric rank', async () => {
      const res = await search({ query: 'hydration', page_size: 100 });
      expect(res.body.data.length).toBeGreaterThan(0);
      for (const r of res.body.data) {
        const post = bySlug(r.slug);
        expect(r).toStrictEqual({ ...expectedRecord(acme, post), rank: expect.any(Number) });
        expect(Number.isFinite(r.rank)).toBe(true);
        expect(r.rank).toBeGreaterThan(0);
      }
    });

    it('ignores unpublished posts that use the word', async () => {
      const word = 'hydration';
      const unpublished = acme.posts.filter((p) => !isPublished(p) && containsWord(p, word));
      expect(unpublished.length).toBeGreaterThan(0);
      const liveSlugs = new Set(published.map((p) => p.slug));
      const res = await search({ query: word, page_size: 100 });
      for (const p of unpublished) if (!liveSlugs.has(p.slug)) expect(slugsOf(res.body.data)).not.toContain(p.slug);
    });

    it('is case-insensitive', async () => {
      const lower = await search({ query: 'hydration', page_size: 100 });
      const upper = await search({ query: 'HYDRATION', page_size: 100 });
      expect(slugsOf(upper.body.data)).toEqual(slugsOf(lower.body.data));
    });

    it('every word must match: "bear canister"', async () => {
      const mustFind = published.filter((p) => containsWord(p, 'bear') && containsWord(p, 'canister'));
      expect(mustFind.length).toBeGreaterThan(0);
      const res = await search({ query: 'bear canister', page_size: 100 });
      expect(res.status).toBe(200);
      expect(slugsOf(res.body.data)).toEqual(expect.arrayContaining(mustFind.map((p) => p.slug)));
      for (const r of res.body.data) {
        const post = bySlug(r.slug);
        expect(isPublished(post)).toBe(true);
        expect(containsWord(post, 'bear'), r.slug).toBe(true);
      }
      expectRanksDescending(res.body.data);
    });

    it('the last word matches as a prefix: "hydrat" finds the "hydration" posts', async () => {
      const mustFind = published.filter((p) => containsWord(p, 'hydration'));
      const res = await search({ query: 'hydrat', page_size: 100 });
      expect(res.status).toBe(200);
      expect(slugsOf(res.body.data)).toEqual(expect.arrayContaining(mustFind.map((p) => p.slug)));
      expectRanksDescending(res.body.data);
    });

    it('never returns the soft-deleted post, even for its own title', async () => {
      const deleted = acme.posts.filter((p) => p.deleted !== null && !acme.posts.some((l) => isLive(l) && l.slug === p.slug));
      expect(deleted.length).toBeGreaterThan(0);
      for (const d of deleted) {
        const words = d.title.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 3);
        for (const query of [d.title.slice(0, 100), ...words]) {
          const res = await search({ query, page_size: 100 });
          expect(res.status).toBe(200);
          expect(slugsOf(res.body.data), query).not.toContain(d.slug);
        }
      }
    });

    it('a query of 100 characters is accepted; 101 is 400 queryTooLong', async () => {
      const ok = await search({ query: 'x'.repeat(100) });
      expect(ok.status).toBe(200);
      const tooLong = await search({ query: 'x'.repeat(101) });
      expect(tooLong.status).toBe(400);
      expect(tooLong.body).toEqual({ detail: messages.queryTooLong });
    });

    it('the query limit counts characters, not UTF-16 units: 100 astral characters pass, 101 do not', async () => {
      const ok = await search({ query: '\u{1F600}'.repeat(100) });
      expect(ok.status).toBe(200);
      const tooLong = await search({ query: '\u{1F600}'.repeat(101) });
      expect(tooLong.status).toBe(400);
      expect(tooLong.body).toEqual({ detail: messages.queryTooLong });
    });

    it('a repeated query parameter is 400 repeatedParam', async () => {
      const res = await t.get<ErrorBody>('/posts/search/?query=bear&query=hydration', { token: read });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ detail: messages.repeatedParam('query') });
    });

    it('paginates with page / page_size', async () => {
      const all = await search({ query: 'hydration', page_size: 100 });
      const total = all.body.data.length;
      expect(total).toBeGreaterThan(2);
      const first = await search({ query: 'hydration', page_size: 2 });
      expect(first.body.meta).toStrictEqual({ count: total, next_page: 2, previous_page: null });
      expect(slugsOf(first.body.data)).toEqual(slugsOf(all.body.data).slice(0, 2));
      const second = await search({ query: 'hydration', page_size: 2, page: 2 });
      expect(second.body.meta).toStrictEqual({ count: total, next_page: total > 4 ? 3 : null, previous_page: 1 });
      expect(slugsOf(second.body.data)).toEqual(slugsOf(all.body.data).slice(2, 4));
      const past = await search({ query: 'hydration', page_size: 2, page: Math.ceil(total / 2) + 1 });
      expect(past.status).toBe(404);
      expect(past.body).toEqual({ detail: messages.invalidPage });
    });

    it('paginates with limit / offset and offset meta', async () => {
      const all = await search({ query: 'hydration', page_size: 100 });
      const total = all.body.data.length;
      const res = await search<OffsetMeta>({ query: 'hydration', limit: 2, offset: 1 });
      expect(res.status).toBe(200);
      expect(res.body.meta).toStrictEqual({ count: total, next_offset: total > 3 ? 3 : null, previous_offset: 0 });
      expect(slugsOf(res.body.data)).toEqual(slugsOf(all.body.data).slice(1, 3));
    });

    it('refuses mixed pairs and out-of-range sizes like the list', async () => {
      const mixed = await search({ query: 'hydration', page: 1, limit: 2 });
      expect(mixed.status).toBe(400);
      expect(mixed.body).toEqual({ detail: messages.paginationConflict });
      const big = await search({ query: 'hydration', page_size: 101 });
      expect(big.status).toBe(400);
      expect(big.body).toEqual({ detail: messages.intParam('page_size', 1, 100) });
      const zero = await search({ query: 'hydration', limit: 0 });
      expect(zero.status).toBe(400);
      expect(zero.body).toEqual({ detail: messages.intParam('limit', 1, 100) });
    });

    it('exclude_body=true omits body but keeps rank', async () => {
      const res = await search({ query: 'hydration', exclude_body: 'true', page_size: 100 });
      expect(res.status).toBe(200);
      expect(res.body.data.length).toBeGreaterThan(0);
      for (const r of res.body.data) {
        expect(Object.keys(r)).not.toContain('body');
        expect(r).toStrictEqual({ ...expectedRecord(acme, bySlug(r.slug), { excludeBody: true }), rank: expect.any(Number) });
      }
    });

    it('exclude_body=maybe is 400 boolParam', async () => {
      const res = await search({ query: 'hydration', exclude_body: 'maybe' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ detail: messages.boolParam('exclude_body') });
    });

    it("another organization's token searches only its own posts", async () => {
      const res = await t.get<ListBody>('/posts/search/', { token: t.tokens['northwind']!.read, query: { query: 'hydration' } });
      expect(res.status).toBe(200);
      const nwSlugs = new Set(publishedPosts(northwind).map((p) => p.slug));
      for (const r of res.body.data) expect(nwSlugs.has(r.slug)).toBe(true);
      expect(res.body.meta.count).toBe(publishedPosts(northwind).filter((p) => containsWord(p, 'hydration')).length);
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Reads of posts this file writes, on an emulator of their own
// ---------------------------------------------------------------------------------------------

describe('post reads after API writes', () => {
  let t: TestEmulator;
  let read: string;
  let write: string;

  interface NewPost {
    title: string;
    slug: string;
    status: 'draft' | 'published';
    body?: string;
    summary?: string;
  }

  async function create(post: NewPost): Promise<void> {
    const res = await t.request('POST', '/posts/', { headerToken: write, body: post });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ status: 'pending' });
  }

  const search = (query: string, extra: Record<string, string | number> = {}) =>
    t.get<ListBody>('/posts/search/', { token: read, query: { query, page_size: 100, ...extra } });

  beforeAll(async () => {
    t = await startTestEmulator();
    cdnUrl = t.cdnUrl;
    read = t.tokens['acme']!.read;
    write = t.tokens['acme']!.write;
  });

  afterAll(async () => {
    await t?.close();
  });

  it('a title match outranks a body-only match of the same word', async () => {
    const word = 'glimmerfax';
    await create({
      title: 'Plain notes from a walk',
      slug: 'rank-body-match',
      status: 'published',
      body: `<p>On the way back we talked about ${word} for a while.</p>`,
    });
    await create({
      title: `Notes on ${word}`,
      slug: 'rank-title-match',
      status: 'published',
      body: '<p>On the way back we talked about the weather for a while.</p>',
    });
    await t.idle();
    const res = await search(word);
    expect(res.status).toBe(200);
    expect(res.body.meta.count).toBe(2);
    expect(slugsOf(res.body.data)).toEqual(['rank-title-match', 'rank-body-match']);
    expect(res.body.data[0]!.rank!).toBeGreaterThan(res.body.data[1]!.rank!);
  });

  it('a summary match is found too, and a prefix of the word finds it', async () => {
    const word = 'brontivaleq';
    await create({ title: 'Summary only', slug: 'summary-only-match', status: 'published', summary: `All about ${word}.` });
    await t.idle();
    expect(slugsOf((await search(word)).body.data)).toEqual(['summary-only-match']);
    expect(slugsOf((await search(word.slice(0, 6))).body.data)).toContain('summary-only-match');
  });

  it('a word that appears only in a draft finds nothing (also with preview=1)', async () => {
    const word = 'plonkavise';
    await create({ title: `Draft about ${word}`, slug: 'draft-only-word', status: 'draft', body: `<p>${word} ${word}</p>`, summary: word });
    await t.idle();
    // The draft exists (the write completed): single read and preview list see it.
    const one = await t.get<SingleBody>('/posts/draft-only-word/', { token: read });
    expect(one.status).toBe(200);
    expect(one.body.data.status).toBe('draft');
    expect(one.body.meta).toStrictEqual({ next_post: null, previous_post: null });
    const preview = await t.get<ListBody>('/posts/', { token: read, query: { preview: 1, page_size: 100 } });
    expect(slugsOf(preview.body.data)).toContain('draft-only-word');
    const plain = await t.get<ListBody>('/posts/', { token: read, query: { page_size: 100 } });
    expect(slugsOf(plain.body.data)).not.toContain('draft-only-word');

    const res = await search(word);
    expect(res.status).toBe(200);
    expect(res.body).toStrictEqual({ meta: { count: 0, next_page: null, previous_page: null }, data: [] });
    const withPreview = await search(word, { preview: 1 });
    expect(withPreview.body.meta.count).toBe(0);
  });

  it('a deleted post leaves search, the list and the single read', async () => {
    const word = 'snorvlemap';
    await create({ title: `Soon gone ${word}`, slug: 'soon-deleted-post', status: 'published', body: `<p>${word}</p>` });
    await t.idle();
    expect(slugsOf((await search(word)).body.data)).toEqual(['soon-deleted-post']);

    const del = await t.request('DELETE', '/posts/soon-deleted-post/', { headerToken: write });
    expect(del.status).toBe(204);
    await t.idle();

    const after = await search(word);
    expect(after.status).toBe(200);
    expect(after.body.meta.count).toBe(0);
    const one = await t.get<ErrorBody>('/posts/soon-deleted-post/', { token: read });
    expect(one.status).toBe(404);
    expect(one.body).toEqual({ detail: messages.notFound });
    for (const preview of [0, 1]) {
      const res = await t.get<ListBody>('/posts/', { token: read, query: { preview, page_size: 100 } });
      expect(slugsOf(res.body.data)).not.toContain('soon-deleted-post');
    }
  });

  it('a post published through the API heads the list and links to the previous newest', async () => {
    const before = await t.get<ListBody>('/posts/', { token: read, query: { page_size: 1 } });
    const previousNewest = before.body.data[0]!;
    await create({ title: 'Freshly published through the API', slug: 'fresh-api-post', status: 'published', body: '<p>New.</p>' });
    await t.idle();
    const after = await t.get<ListBody>('/posts/', { token: read, query: { page_size: 1 } });
    expect(after.body.meta.count).toBe(before.body.meta.count + 1);
    expect(slugsOf(after.body.data)).toEqual(['fresh-api-post']);
    const one = await t.get<SingleBody>('/posts/fresh-api-post/', { token: read });
    expect(one.status).toBe(200);
    expect(one.body.meta).toStrictEqual({
      next_post: null,
      previous_post: {
        slug: previousNewest.slug,
        title: previousNewest.title,
        featured_image: previousNewest.featured_image === null ? null : liveMediaUrl(previousNewest.featured_image, cdnUrl),
      },
    });
    const older = await t.get<SingleBody>(`/posts/${encodeURIComponent(previousNewest.slug)}/`, { token: read });
    expect(older.body.meta.next_post).toStrictEqual({
      slug: 'fresh-api-post',
      title: 'Freshly published through the API',
      featured_image: null,
    });
  });
});
