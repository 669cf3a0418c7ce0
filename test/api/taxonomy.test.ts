/**
 * Authors, categories and tags (spec: Author; Category and Tag; "Author, category and tag reads";
 * docs/spec-gaps.md "Authors, categories, tags"). Every expectation is derived from the demo
 * fixture as shipped; tests that write clean up after themselves so the others stay independent.
 */
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { messages } from '../../server/domain/messages.js';
import type { Author, Organization, Post, StoreData, Term } from '../../server/store/schema.js';
import { liveBodyMedia, liveMediaUrl } from '../../server/domain/media/library.js';
import { loadFixture, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

type TermKind = 'categories' | 'tags';

interface TermRecord {
  name: string;
  slug: string;
  recent_posts?: PostRecord[];
}

interface PostRecord {
  url: string;
  slug: string;
  title: string;
  status: string;
  published: string | null;
  categories: TermRecord[];
  tags: TermRecord[];
  [key: string]: unknown;
}

interface AuthorRecord extends Record<string, unknown> {
  slug: string;
  recent_posts?: PostRecord[];
}

let api: TestEmulator;
let fixture: StoreData;
let acme: Organization;
let northwind: Organization;
let read: string;

/** CDN base URL of the running emulator: stored `media:<id>` values read as `${cdnUrl}/<id>`. */
let cdnUrl = '';

beforeAll(async () => {
  fixture = await loadFixture();
  acme = orgOf('acme');
  northwind = orgOf('northwind');
  api = await startTestEmulator();
  cdnUrl = api.cdnUrl;
  read = api.tokens['acme']!.read;
});

afterAll(async () => {
  await api?.close();
});

function orgOf(slug: string): Organization {
  const org = fixture.organizations.find((o) => o.slug === slug);
  if (!org) throw new Error(`the demo fixture has no organization "${slug}"`);
  return org;
}

const isPublished = (p: Post): boolean => p.status === 'published' && p.deleted === null;

/** Published posts, newest publication first; equal times: higher id first (docs/spec-gaps.md). */
function publishedPosts(org: Organization, keep: (p: Post) => boolean = () => true): Post[] {
  return org.posts
    .filter((p) => isPublished(p) && keep(p))
    .sort((a, b) => (a.published === b.published ? b.id - a.id : a.published! < b.published! ? 1 : -1));
}

function termsWithPublishedPosts(org: Organization, kind: TermKind): Term[] {
  const used = new Set(publishedPosts(org).flatMap((p) => p[kind]));
  return org[kind].filter((t) => used.has(t.slug));
}

const bySlug = <T extends { slug: string }>(a: T, b: T): number => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0);

function authorRecord(author: Author): Author {
  return {
    slug: author.slug,
    first_name: author.first_name,
    last_name: author.last_name,
    email: author.email,
    bio: author.bio,
    title: author.title,
    linkedin_url: author.linkedin_url,
    facebook_url: author.facebook_url,
    pinterest_url: author.pinterest_url,
    instagram_url: author.instagram_url,
    twitter_handle: author.twitter_handle,
    profile_image: author.profile_image,
  };
}

/** The full Blog post record of a list (spec: Blog post; url per docs/spec-gaps.md). */
function postRecord(org: Organization, post: Post): Record<string, unknown> {
  const term = (kind: TermKind) => (slug: string) => {
    const t = org[kind].find((x) => x.slug === slug)!;
    return { name: t.name, slug: t.slug };
  };
  return {
    url: `${org.blog.url.replace(/\/+$/, '')}/${encodeURIComponent(post.slug)}`,
    created: post.created,
    published: post.published,
    author: authorRecord(org.authors.find((a) => a.slug === post.author)!),
    categories: post.categories.map(term('categories')),
    tags: post.tags.map(term('tags')),
    featured_image: post.featured_image === null ? null : liveMediaUrl(post.featured_image, cdnUrl),
    featured_image_alt: post.featured_image_alt,
    slug: post.slug,
    title: post.title,
    body: liveBodyMedia(post.body, cdnUrl),
    summary: post.summary,
    seo_title: post.seo_title,
    meta_description: post.meta_description,
    status: post.status,
  };
}

const recent = (org: Organization, keep: (p: Post) => boolean) =>
  publishedPosts(org, keep)
    .slice(0, 10)
    .map((p) => postRecord(org, p));

/** A term of `kind` that has posts, none of them published (the fixture has some). */
/** Terms of `kind` that have live posts, none of them published (the fixture has drafts and scheduled ones). */
function termsWithOnlyUnpublishedPosts(kind: TermKind): Term[] {
  const published = new Set(termsWithPublishedPosts(acme, kind).map((t) => t.slug));
  const terms = acme[kind].filter((t) => !published.has(t.slug) && acme.posts.some((p) => p.deleted === null && p[kind].includes(t.slug)));
  if (terms.length === 0) throw new Error(`the demo fixture needs an acme ${kind} term with only unpublished posts`);
  return terms;
}

function expectDetail(res: { status: number; headers: Headers; body: unknown }, status: number, detail: string): void {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(res.body).toStrictEqual({ detail });
}

describe('GET /authors/', () => {
  it('lists every author of the organization with every author field', async () => {
    const res = await api.get<{ data: AuthorRecord[] }>('/authors/', { token: read });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Object.keys(res.body)).toStrictEqual(['data']);
    expect([...res.body.data].sort(bySlug)).toStrictEqual(acme.authors.map(authorRecord).sort(bySlug));
    for (const author of res.body.data) expect(author).not.toHaveProperty('recent_posts');
  });

  it('include=recent_posts adds up to 10 published posts per author, newest first, as full post records', async () => {
    const res = await api.get<{ data: AuthorRecord[] }>('/authors/', { token: read, query: { include: 'recent_posts' } });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(acme.authors.length);
    for (const author of res.body.data) {
      const { recent_posts: posts, ...fields } = author;
      const stored = acme.authors.find((a) => a.slug === author.slug)!;
      expect(fields).toStrictEqual(authorRecord(stored));
      expect(posts).toStrictEqual(recent(acme, (p) => p.author === author.slug));
      expect(posts!.length).toBeLessThanOrEqual(10);
    }
  });

  it('include with another value is a 400', async () => {
    expectDetail(await api.get('/authors/', { token: read, query: { include: 'other' } }), 400, messages.includeParam);
  });

  it('include given twice is a 400', async () => {
    expectDetail(
      await api.get('/authors/?include=recent_posts&include=recent_posts', { token: read }),
      400,
      messages.repeatedParam('include'),
    );
  });

  it('needs a token', async () => {
    expectDetail(await api.get('/authors/'), 401, messages.noCredentials);
    expectDetail(await api.get('/authors/', { token: 'not-a-real-token' }), 401, messages.invalidToken);
  });
});

describe('GET /authors/{slug}/', () => {
  it('returns {data} with every author field', async () => {
    for (const author of acme.authors) {
      const res = await api.get<{ data: AuthorRecord }>(`/authors/${encodeURIComponent(author.slug)}/`, { token: read });
      expect(res.status).toBe(200);
      expect(res.body).toStrictEqual({ data: authorRecord(author) });
    }
  });

  it('include=recent_posts adds the author’s published posts, newest first', async () => {
    const busiest = [...acme.authors].sort(
      (a, b) => publishedPosts(acme, (p) => p.author === b.slug).length - publishedPosts(acme, (p) => p.author === a.slug).length,
    )[0]!;
    const res = await api.get<{ data: AuthorRecord }>(`/authors/${busiest.slug}/`, { token: read, query: { include: 'recent_posts' } });
    expect(res.status).toBe(200);
    expect(res.body.data.recent_posts).toStrictEqual(recent(acme, (p) => p.author === busiest.slug));
    expect(res.body.data.recent_posts!.length).toBeGreaterThan(1);
  });

  it('include=other is a 400', async () => {
    const slug = acme.authors[0]!.slug;
    expectDetail(await api.get(`/authors/${slug}/`, { token: read, query: { include: 'other' } }), 400, messages.includeParam);
  });

  it('an unknown author is a 404', async () => {
    expectDetail(await api.get('/authors/no-such-author/', { token: read }), 404, messages.notFound);
  });

  it('a slug of 101 characters is a 400, one of 100 is only looked up', async () => {
    expectDetail(await api.get(`/authors/${'a'.repeat(101)}/`, { token: read }), 400, messages.pathSlugTooLong);
    expectDetail(await api.get(`/authors/${'a'.repeat(100)}/`, { token: read }), 404, messages.notFound);
  });
});

describe.each<TermKind>(['categories', 'tags'])('GET /%s/', (kind) => {
  it('lists only terms with at least one published, non-deleted post, as {name, slug}', async () => {
    const res = await api.get<{ data: TermRecord[] }>(`/${kind}/`, { token: read });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Object.keys(res.body)).toStrictEqual(['data']);
    const expected = termsWithPublishedPosts(acme, kind).map((t) => ({ name: t.name, slug: t.slug }));
    expect([...res.body.data].sort(bySlug)).toStrictEqual(expected.sort(bySlug));
  });

  it('leaves out terms whose posts are all drafts, scheduled or deleted, and terms without posts', async () => {
    const res = await api.get<{ data: TermRecord[] }>(`/${kind}/`, { token: read });
    const listed = new Set(res.body.data.map((t) => t.slug));
    const hidden = acme[kind].filter((t) => !termsWithPublishedPosts(acme, kind).includes(t));
    expect(hidden.length).toBeGreaterThan(0);
    for (const term of hidden) expect(listed.has(term.slug), term.slug).toBe(false);
  });

  it('include=recent_posts adds up to 10 published posts per term, newest first', async () => {
    const res = await api.get<{ data: TermRecord[] }>(`/${kind}/`, { token: read, query: { include: 'recent_posts' } });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(termsWithPublishedPosts(acme, kind).length);
    for (const term of res.body.data) {
      expect(Object.keys(term).sort()).toStrictEqual(['name', 'recent_posts', 'slug']);
      expect(term.recent_posts, term.slug).toStrictEqual(recent(acme, (p) => p[kind].includes(term.slug)));
    }
  });

  it('include=other is a 400', async () => {
    expectDetail(await api.get(`/${kind}/`, { token: read, query: { include: 'other' } }), 400, messages.includeParam);
  });

  it('needs a token', async () => {
    expectDetail(await api.get(`/${kind}/`), 401, messages.noCredentials);
  });
});

describe.each<TermKind>(['categories', 'tags'])('GET /%s/{slug}/', (kind) => {
  it('returns {data: {name, slug}} for every term with published posts', async () => {
    for (const term of termsWithPublishedPosts(acme, kind)) {
      const res = await api.get(`/${kind}/${encodeURIComponent(term.slug)}/`, { token: read });
      expect(res.status).toBe(200);
      expect(res.body).toStrictEqual({ data: { name: term.name, slug: term.slug } });
    }
  });

  it('include=recent_posts holds at most 10 published posts, newest first, and truncates a busy term', async () => {
    const counts = acme[kind].map((t) => ({ term: t, count: publishedPosts(acme, (p) => p[kind].includes(t.slug)).length }));
    const busiest = counts.sort((a, b) => b.count - a.count)[0]!;
    const res = await api.get<{ data: TermRecord }>(`/${kind}/${busiest.term.slug}/`, { token: read, query: { include: 'recent_posts' } });
    expect(res.status).toBe(200);
    const expected = recent(acme, (p) => p[kind].includes(busiest.term.slug));
    expect(res.body.data).toStrictEqual({ name: busiest.term.name, slug: busiest.term.slug, recent_posts: expected });
    if (busiest.count > 10) expect(res.body.data.recent_posts).toHaveLength(10);
  });

  it('a term with only unpublished posts is 200 with an empty recent_posts', async () => {
    for (const term of termsWithOnlyUnpublishedPosts(kind)) {
      const res = await api.get(`/${kind}/${term.slug}/`, { token: read, query: { include: 'recent_posts' } });
      expect(res.status, term.slug).toBe(200);
      expect(res.body).toStrictEqual({ data: { name: term.name, slug: term.slug, recent_posts: [] } });
    }
  });

  it('include=other is a 400', async () => {
    const term = termsWithPublishedPosts(acme, kind)[0]!;
    expectDetail(await api.get(`/${kind}/${term.slug}/`, { token: read, query: { include: 'other' } }), 400, messages.includeParam);
  });

  it('an unknown term is a 404', async () => {
    expectDetail(await api.get(`/${kind}/no-such-term/`, { token: read }), 404, messages.notFound);
  });
});

describe('GET /categories/{slug}/ of a category without posts', () => {
  it('is 200 with an empty recent_posts', async () => {
    const term = acme.categories.find((c) => !acme.posts.some((p) => p.categories.includes(c.slug)));
    expect(term, 'the demo fixture has an acme category without posts').toBeDefined();
    const res = await api.get(`/categories/${term!.slug}/`, { token: read, query: { include: 'recent_posts' } });
    expect(res.status).toBe(200);
    expect(res.body).toStrictEqual({ data: { name: term!.name, slug: term!.slug, recent_posts: [] } });
  });
});

describe('terms created by post writes', () => {
  const write = (): string => api.tokens['acme']!.write;

  async function termBySlugOf(postSlug: string, kind: TermKind): Promise<TermRecord> {
    const res = await api.get<{ data: PostRecord }>(`/posts/${postSlug}/`, { token: read });
    expect(res.status).toBe(200);
    expect(res.body.data[kind]).toHaveLength(1);
    return res.body.data[kind][0]!;
  }

  async function listed(kind: TermKind): Promise<string[]> {
    const res = await api.get<{ data: TermRecord[] }>(`/${kind}/`, { token: read });
    expect(res.status).toBe(200);
    return res.body.data.map((t) => t.slug);
  }

  function deleteAfterTest(slug: string): void {
    onTestFinished(async () => {
      await api.request('DELETE', `/posts/${slug}/`, { headerToken: write() });
      await api.idle();
    });
  }

  it('a category and tag created by a draft post are listed only once that post is published, and leave with it', async () => {
    const slug = 'taxonomy-probe-draft';
    deleteAfterTest(slug);
    const created = await api.request('POST', '/posts/', {
      headerToken: write(),
      body: { title: 'Taxonomy probe (draft)', slug, status: 'draft', categories: ['Probe Category Draft'], tags: ['Probe Tag Draft'] },
    });
    expect(created.status).toBe(202);
    await api.idle();

    const category = await termBySlugOf(slug, 'categories');
    const tag = await termBySlugOf(slug, 'tags');
    expect(category.name).toBe('Probe Category Draft');
    expect(tag.name).toBe('Probe Tag Draft');
    expect(await listed('categories')).not.toContain(category.slug);
    expect(await listed('tags')).not.toContain(tag.slug);
    // The terms exist, so their single reads work, with nothing published yet.
    const single = await api.get(`/categories/${category.slug}/`, { token: read, query: { include: 'recent_posts' } });
    expect(single.status).toBe(200);
    expect(single.body).toStrictEqual({ data: { name: category.name, slug: category.slug, recent_posts: [] } });

    const published = await api.request('PATCH', `/posts/${slug}/`, { headerToken: write(), body: { status: 'published' } });
    expect(published.status).toBe(202);
    await api.idle();
    expect(await listed('categories')).toContain(category.slug);
    expect(await listed('tags')).toContain(tag.slug);
    const withPost = await api.get<{ data: TermRecord }>(`/tags/${tag.slug}/`, { token: read, query: { include: 'recent_posts' } });
    expect(withPost.body.data.recent_posts!.map((p) => p.slug)).toStrictEqual([slug]);

    const deleted = await api.request('DELETE', `/posts/${slug}/`, { headerToken: write() });
    expect(deleted.status).toBe(204);
    expect(await listed('categories')).not.toContain(category.slug);
    expect(await listed('tags')).not.toContain(tag.slug);
  });

  it('a category created by a published post is listed after the write finished', async () => {
    const slug = 'taxonomy-probe-published';
    deleteAfterTest(slug);
    const created = await api.request('POST', '/posts/', {
      headerToken: write(),
      body: { title: 'Taxonomy probe (published)', slug, status: 'published', categories: ['Probe Category Published'] },
    });
    expect(created.status).toBe(202);
    await api.idle();
    const category = await termBySlugOf(slug, 'categories');
    const res = await api.get<{ data: TermRecord[] }>('/categories/', { token: read, query: { include: 'recent_posts' } });
    const entry = res.body.data.find((t) => t.slug === category.slug);
    expect(entry?.name).toBe('Probe Category Published');
    expect(entry?.recent_posts?.map((p) => p.slug)).toStrictEqual([slug]);
    expect(entry?.recent_posts?.[0]?.status).toBe('published');
  });
});

describe('organization isolation', () => {
  const nwRead = (): string => api.tokens['northwind']!.read;

  it("northwind's lists hold only northwind's authors and terms", async () => {
    const authors = await api.get<{ data: AuthorRecord[] }>('/authors/', { token: nwRead() });
    expect(authors.status).toBe(200);
    expect([...authors.body.data].sort(bySlug)).toStrictEqual(northwind.authors.map(authorRecord).sort(bySlug));
    for (const kind of ['categories', 'tags'] as const) {
      const res = await api.get<{ data: TermRecord[] }>(`/${kind}/`, { token: nwRead() });
      expect(res.status).toBe(200);
      const expected = termsWithPublishedPosts(northwind, kind).map((t) => ({ name: t.name, slug: t.slug }));
      expect([...res.body.data].sort(bySlug)).toStrictEqual(expected.sort(bySlug));
    }
  });

  it("northwind's recent_posts never hold acme posts", async () => {
    const res = await api.get<{ data: AuthorRecord[] }>('/authors/', { token: nwRead(), query: { include: 'recent_posts' } });
    expect(res.status).toBe(200);
    const prefix = northwind.blog.url.replace(/\/+$/, '') + '/';
    for (const author of res.body.data) {
      expect(author.recent_posts).toStrictEqual(recent(northwind, (p) => p.author === author.slug));
      for (const post of author.recent_posts!) expect(post.url.startsWith(prefix)).toBe(true);
    }
  });

  it("acme-only slugs are 404 with northwind's token", async () => {
    const acmeOnly = <T extends { slug: string }>(mine: T[], theirs: T[]): T[] =>
      mine.filter((m) => !theirs.some((t) => t.slug === m.slug));
    const cases: [string, { slug: string }[]][] = [
      ['authors', acmeOnly(acme.authors, northwind.authors)],
      ['categories', acmeOnly(acme.categories, northwind.categories)],
      ['tags', acmeOnly(acme.tags, northwind.tags)],
    ];
    for (const [resource, records] of cases) {
      expect(records.length, resource).toBeGreaterThan(0);
      for (const { slug } of records) {
        expect((await api.get(`/${resource}/${encodeURIComponent(slug)}/`, { token: read })).status, `${resource}/${slug} with acme`).toBe(
          200,
        );
        expectDetail(await api.get(`/${resource}/${encodeURIComponent(slug)}/`, { token: nwRead() }), 404, messages.notFound);
      }
    }
  });
});
