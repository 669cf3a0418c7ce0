/**
 * RSS 2.0, Atom 1.0 and sitemap feeds (spec: Feeds; docs/spec-gaps.md "Feeds"). Expectations
 * come from the demo fixture; tests that write use their own new category, filter the feeds by
 * it, and delete their posts afterwards, so the fixture-derived tests stay independent.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { messages } from '../../server/domain/messages.js';
import type { Organization, Post, StoreData } from '../../server/store/schema.js';
import { liveBodyMedia, liveMediaUrl } from '../../server/domain/media/library.js';
import { loadFixture, startTestEmulator, type ApiResponse, type TestEmulator } from '../helpers/emulator.js';

type Feed = 'rss' | 'atom' | 'sitemap';
const FEEDS: Feed[] = ['rss', 'atom', 'sitemap'];
/** docs/spec-gaps.md: RSS and Atom carry the 50 newest posts. */
const FEED_LIMIT = 50;

/** Text of an element that may carry attributes (then the parser gives `#text` beside them). */
type XmlText = string | { '#text'?: string; [attribute: `@_${string}`]: string | undefined };

interface RssItem {
  title: XmlText;
  link: XmlText;
  'media:content'?: { '@_url': string };
  'dc:creator': XmlText;
  pubDate: XmlText;
  guid: XmlText;
  description: XmlText;
  'content:encoded': XmlText;
}

interface RssChannel {
  title: XmlText;
  link: XmlText;
  description: XmlText;
  'atom:link': { '@_href': string; '@_rel': string };
  language: XmlText;
  lastBuildDate: XmlText;
  item?: RssItem[];
}

interface AtomLink {
  '@_rel'?: string;
  '@_href': string;
}

interface AtomEntry {
  title: XmlText;
  link: AtomLink[];
  published: XmlText;
  updated: XmlText;
  author: { name: XmlText };
  id: XmlText;
  summary: XmlText;
}

interface AtomFeed {
  title: XmlText;
  link: AtomLink[];
  id: XmlText;
  updated: XmlText;
  entry?: AtomEntry[];
}

interface SitemapUrl {
  loc: XmlText;
  lastmod: XmlText;
}

const ARRAY_PATHS = new Set(['rss.channel.item', 'feed.link', 'feed.entry', 'feed.entry.link', 'urlset.url']);
const parser = new XMLParser({
  ignoreAttributes: false,
  // fast-xml-parser decodes numeric character references (`&#60;`) only with this option; they are plain XML.
  htmlEntities: true,
  parseTagValue: false,
  parseAttributeValue: false,
  isArray: (_name, jPath) => ARRAY_PATHS.has(String(jPath)),
});

const RFC_822 =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} (GMT|UT|[+-]\d{4})$/;
const RFC_3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

let api: TestEmulator;
let fixture: StoreData;
let acme: Organization;
let read: string;
let write: string;

/** CDN base URL of the running emulator: stored `media:<id>` values read as `${cdnUrl}/<id>`. */
let cdnUrl = '';

beforeAll(async () => {
  fixture = await loadFixture();
  const org = fixture.organizations.find((o) => o.slug === 'acme');
  if (!org) throw new Error('the demo fixture has no organization "acme"');
  acme = org;
  api = await startTestEmulator();
  cdnUrl = api.cdnUrl;
  read = api.tokens['acme']!.read;
  write = api.tokens['acme']!.write;
});

afterAll(async () => {
  await api?.close();
});

function text(value: XmlText | undefined): string {
  if (value === undefined) return '';
  return typeof value === 'string' ? value : (value['#text'] ?? '');
}

const isPublished = (p: Post): boolean => p.status === 'published' && p.deleted === null;

/** Published posts matching `keep`, newest publication first; ties: higher id first. */
function publishedPosts(org: Organization, keep: (p: Post) => boolean = () => true): Post[] {
  return org.posts
    .filter((p) => isPublished(p) && keep(p))
    .sort((a, b) => (a.published === b.published ? b.id - a.id : a.published! < b.published! ? 1 : -1));
}

const postUrl = (org: Organization, slug: string): string => `${org.blog.url.replace(/\/+$/, '')}/${encodeURIComponent(slug)}`;

function authorName(org: Organization, slug: string): string {
  const author = org.authors.find((a) => a.slug === slug)!;
  return `${author.first_name} ${author.last_name}`.trim();
}

/** Second precision: RFC 822 dates carry no milliseconds. */
const seconds = (iso: string): number => Math.floor(Date.parse(iso) / 1000) * 1000;

/**
 * Entity references XML 1.0 does not declare (`&nbsp;`, `&copy;`…): a document using them is not
 * well-formed ("Entity Declared" constraint), though XMLValidator does not check it.
 */
function undeclaredEntities(xml: string): string[] {
  const predefined = new Set(['amp', 'lt', 'gt', 'quot', 'apos']);
  return [...xml.matchAll(/&([A-Za-z_:][\w.:-]*);/g)].map((m) => m[1]!).filter((name) => !predefined.has(name));
}

async function feed(kind: Feed, query: Record<string, string> = {}, token = read): Promise<ApiResponse> {
  const res = await api.get(`/feeds/${kind}/`, { token, query });
  expect(res.status, res.text).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/xml/);
  expect(XMLValidator.validate(res.text)).toBe(true);
  expect(undeclaredEntities(res.text), 'undeclared entity references').toStrictEqual([]);
  return res;
}

async function rss(query: Record<string, string> = {}): Promise<RssChannel> {
  const doc = parser.parse((await feed('rss', query)).text) as { rss: { '@_version': string; channel: RssChannel } };
  expect(doc.rss['@_version']).toBe('2.0');
  return doc.rss.channel;
}

async function atom(query: Record<string, string> = {}): Promise<AtomFeed> {
  const doc = parser.parse((await feed('atom', query)).text) as { feed: AtomFeed & { '@_xmlns': string } };
  expect(doc.feed['@_xmlns']).toBe('http://www.w3.org/2005/Atom');
  return doc.feed;
}

async function sitemap(query: Record<string, string> = {}): Promise<SitemapUrl[]> {
  const doc = parser.parse((await feed('sitemap', query)).text) as { urlset: { '@_xmlns': string; url?: SitemapUrl[] } };
  expect(doc.urlset['@_xmlns']).toBe('http://www.sitemaps.org/schemas/sitemap/0.9');
  return doc.urlset.url ?? [];
}

async function linksOf(kind: Feed, query: Record<string, string> = {}): Promise<string[]> {
  if (kind === 'rss') return ((await rss(query)).item ?? []).map((i) => text(i.link));
  if (kind === 'atom')
    return ((await atom(query)).entry ?? []).map((e) => e.link.find((l) => (l['@_rel'] ?? 'alternate') === 'alternate')!['@_href']);
  return (await sitemap(query)).map((u) => text(u.loc));
}

const newestUrls = (org: Organization, keep: (p: Post) => boolean, limit = FEED_LIMIT): string[] =>
  publishedPosts(org, keep)
    .slice(0, limit)
    .map((p) => postUrl(org, p.slug));

/** Creates posts (write token in the header), waits for them, and deletes them after the test. */
async function createPosts(bodies: Record<string, unknown>[]): Promise<void> {
  onTestFinished(async () => {
    for (const body of bodies) await api.request('DELETE', `/posts/${String(body['slug'])}/`, { headerToken: write });
    await api.idle();
  });
  for (const body of bodies) {
    const res = await api.request('POST', '/posts/', { headerToken: write, body });
    expect(res.status, res.text).toBe(202);
  }
  await api.idle();
}

async function categorySlugOf(postSlug: string): Promise<string> {
  const res = await api.get<{ data: { categories: { slug: string }[] } }>(`/posts/${postSlug}/`, { token: read });
  expect(res.status).toBe(200);
  return res.body.data.categories[0]!.slug;
}

describe.each(FEEDS)('GET /feeds/%s/ basics', (kind) => {
  it('is 200, application/xml, well-formed XML', async () => {
    const res = await feed(kind);
    expect(res.text.startsWith('<?xml')).toBe(true);
  });

  it('holds only published, non-deleted posts, newest first', async () => {
    const links = await linksOf(kind);
    const expected = newestUrls(acme, () => true, kind === 'sitemap' ? Infinity : FEED_LIMIT);
    if (kind === 'sitemap') expect([...links].sort()).toStrictEqual([...expected].sort());
    else expect(links).toStrictEqual(expected);
    const hidden = acme.posts.filter((p) => !isPublished(p));
    expect(hidden.some((p) => p.deleted !== null)).toBe(true);
    for (const post of hidden) expect(links).not.toContain(postUrl(acme, post.slug));
  });

  it('needs a token: none is a 401 JSON, an invalid one too', async () => {
    for (const [options, detail] of [
      [{}, messages.noCredentials],
      [{ token: 'not-a-real-token' }, messages.invalidToken],
    ] as const) {
      const res = await api.get(`/feeds/${kind}/`, options);
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.body).toStrictEqual({ detail });
    }
  });

  it('accepts the header form of the read token', async () => {
    const res = await api.get(`/feeds/${kind}/`, { headerToken: read });
    expect(res.status).toBe(200);
    expect(XMLValidator.validate(res.text)).toBe(true);
  });

  it('an unknown category_slug or tag_slug gives a valid empty feed', async () => {
    const queries: Record<string, string>[] = [
      { category_slug: 'no-such-category' },
      { tag_slug: 'no-such-tag' },
      { category_slug: 'ünïcødé-日本' },
    ];
    for (const query of queries) {
      expect(await linksOf(kind, query), JSON.stringify(query)).toStrictEqual([]);
    }
  });
});

describe('feed filters', () => {
  /** The category and the tag with the most published posts, and a pair that narrows both. */
  function filterCases(): { category: string; tag: string; both: { category: string; tag: string } } {
    const most = (kind: 'categories' | 'tags'): string => {
      const counts = acme[kind].map((t) => ({ slug: t.slug, n: publishedPosts(acme, (p) => p[kind].includes(t.slug)).length }));
      return counts.sort((a, b) => b.n - a.n)[0]!.slug;
    };
    const pairs = publishedPosts(acme).flatMap((p) => p.categories.flatMap((category) => p.tags.map((tag) => ({ category, tag }))));
    const size = (f: (p: Post) => boolean) => publishedPosts(acme, f).length;
    const both =
      pairs.find(
        ({ category, tag }) =>
          size((p) => p.categories.includes(category) && p.tags.includes(tag)) <
          Math.min(
            size((p) => p.categories.includes(category)),
            size((p) => p.tags.includes(tag)),
          ),
      ) ?? pairs[0]!;
    return { category: most('categories'), tag: most('tags'), both };
  }

  it.each(FEEDS)('%s: category_slug, tag_slug and both together narrow the items', async (kind) => {
    const { category, tag, both } = filterCases();
    const limit = kind === 'sitemap' ? Infinity : FEED_LIMIT;
    const check = async (query: Record<string, string>, keep: (p: Post) => boolean) => {
      const links = await linksOf(kind, query);
      const expected = newestUrls(acme, keep, limit);
      expect(expected.length).toBeGreaterThan(0);
      expect(expected.length).toBeLessThan(publishedPosts(acme).length);
      if (kind === 'sitemap') expect([...links].sort(), JSON.stringify(query)).toStrictEqual([...expected].sort());
      else expect(links, JSON.stringify(query)).toStrictEqual(expected);
    };
    await check({ category_slug: category }, (p) => p.categories.includes(category));
    await check({ tag_slug: tag }, (p) => p.tags.includes(tag));
    await check(
      { category_slug: both.category, tag_slug: both.tag },
      (p) => p.categories.includes(both.category) && p.tags.includes(both.tag),
    );
  });

  it.each(FEEDS)('%s: a category with only unpublished posts gives an empty feed', async (kind) => {
    const published = new Set(publishedPosts(acme).flatMap((p) => p.categories));
    const category = acme.categories.find((c) => !published.has(c.slug));
    expect(category).toBeDefined();
    expect(await linksOf(kind, { category_slug: category!.slug })).toStrictEqual([]);
  });

  it.each(FEEDS)('%s: a filter given twice is a 400 JSON', async (kind) => {
    const res = await api.get(`/feeds/${kind}/?category_slug=a&category_slug=b`, { token: read });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toStrictEqual({ detail: messages.repeatedParam('category_slug') });
  });

  it('an empty filter value is no filter', async () => {
    expect(await linksOf('rss', { category_slug: '', tag_slug: '' })).toStrictEqual(await linksOf('rss'));
  });
});

describe('GET /feeds/rss/', () => {
  it('has a channel with title, link, description, atom self link, language and lastBuildDate', async () => {
    const channel = await rss();
    expect(text(channel.title)).toBe(acme.blog.title);
    expect(text(channel.link)).toBe(acme.blog.url);
    expect(text(channel.description)).toBe(acme.blog.description);
    expect(text(channel.language)).toBe(acme.blog.language);
    expect(channel['atom:link']['@_rel']).toBe('self');
    expect(new URL(channel['atom:link']['@_href']).pathname).toMatch(/\/feeds\/rss\/$/);
    const lastBuild = text(channel.lastBuildDate);
    expect(lastBuild).toMatch(RFC_822);
    // docs/spec-gaps.md: the newest `updated` among the feed's posts.
    const newest = publishedPosts(acme).reduce((max, p) => (p.updated > max ? p.updated : max), '');
    expect(Date.parse(lastBuild)).toBe(seconds(newest));
  });

  it('items carry title, link, media:content, dc:creator, pubDate, guid, description and content:encoded', async () => {
    const items = (await rss()).item ?? [];
    const posts = publishedPosts(acme).slice(0, FEED_LIMIT);
    expect(items).toHaveLength(posts.length);
    posts.forEach((post, i) => {
      const item = items[i]!;
      const url = postUrl(acme, post.slug);
      expect(text(item.title)).toBe(post.title);
      expect(text(item.link)).toBe(url);
      if (post.featured_image) expect(item['media:content']?.['@_url'], post.slug).toBe(liveMediaUrl(post.featured_image, cdnUrl));
      else expect(item['media:content'], post.slug).toBeUndefined();
      expect(text(item['dc:creator'])).toBe(authorName(acme, post.author));
      expect(text(item.pubDate)).toMatch(RFC_822);
      expect(Date.parse(text(item.pubDate))).toBe(seconds(post.published!));
      expect(text(item.guid)).toBe(url);
      expect(text(item.description)).toBe(post.summary.trim());
      // content:encoded holds the body HTML escaped as text: parsing gives the original back.
      expect(text(item['content:encoded'])).toBe(liveBodyMedia(post.body, cdnUrl).trim());
    });
    expect(posts.some((p) => p.featured_image) && posts.some((p) => !p.featured_image)).toBe(true);
  });

  it('the self link never carries the token, and keeps the filters', async () => {
    for (const options of [{ token: read }, { headerToken: read }]) {
      const category = acme.categories[0]!.slug;
      const res = await api.get('/feeds/rss/', { ...options, query: { category_slug: category, tag_slug: 'no-such-tag' } });
      expect(res.status).toBe(200);
      const href = (parser.parse(res.text) as { rss: { channel: RssChannel } }).rss.channel['atom:link']['@_href'];
      expect(href).not.toContain('auth_token');
      expect(href).not.toContain(read);
      const url = new URL(href);
      expect(url.searchParams.get('category_slug')).toBe(category);
      expect(url.searchParams.get('tag_slug')).toBe('no-such-tag');
    }
  });

  it('an empty feed still has its channel', async () => {
    const channel = await rss({ tag_slug: 'no-such-tag' });
    expect(channel.item).toBeUndefined();
    expect(text(channel.title)).toBe(acme.blog.title);
    expect(text(channel.lastBuildDate)).toMatch(RFC_822);
  });
});

describe('GET /feeds/atom/', () => {
  it('has a feed with title, alternate and self links, id and updated', async () => {
    const doc = await atom();
    expect(text(doc.title)).toBe(acme.blog.title);
    const alternate = doc.link.find((l) => l['@_rel'] === 'alternate');
    const self = doc.link.find((l) => l['@_rel'] === 'self');
    expect(alternate?.['@_href']).toBe(acme.blog.url);
    expect(new URL(self!['@_href']).pathname).toMatch(/\/feeds\/atom\/$/);
    expect(self!['@_href']).not.toContain('auth_token');
    expect(self!['@_href']).not.toContain(read);
    expect(text(doc.id)).not.toBe('');
    expect(text(doc.updated)).toMatch(RFC_3339);
    const newest = publishedPosts(acme).reduce((max, p) => (p.updated > max ? p.updated : max), '');
    expect(Date.parse(text(doc.updated))).toBe(Date.parse(newest));
  });

  it('entries carry title, link, published, updated, author name, id and an html summary', async () => {
    const entries = (await atom()).entry ?? [];
    const posts = publishedPosts(acme).slice(0, FEED_LIMIT);
    expect(entries).toHaveLength(posts.length);
    const ids = new Set<string>();
    posts.forEach((post, i) => {
      const entry = entries[i]!;
      expect(text(entry.title)).toBe(post.title);
      expect(entry.link.find((l) => (l['@_rel'] ?? 'alternate') === 'alternate')?.['@_href']).toBe(postUrl(acme, post.slug));
      expect(text(entry.published)).toMatch(RFC_3339);
      expect(Date.parse(text(entry.published))).toBe(Date.parse(post.published!));
      expect(text(entry.updated)).toMatch(RFC_3339);
      expect(Date.parse(text(entry.updated))).toBe(Date.parse(post.updated));
      expect(text(entry.author.name)).toBe(authorName(acme, post.author));
      expect(text(entry.id)).not.toBe('');
      ids.add(text(entry.id));
      expect(typeof entry.summary === 'object' && entry.summary['@_type']).toBe('html');
      expect(text(entry.summary)).toBe(post.summary.trim());
    });
    expect(ids.size).toBe(posts.length);
  });

  it('the self link keeps the filters but not the token', async () => {
    const tag = acme.tags[0]!.slug;
    const doc = await atom({ tag_slug: tag });
    const href = doc.link.find((l) => l['@_rel'] === 'self')!['@_href'];
    expect(new URL(href).searchParams.get('tag_slug')).toBe(tag);
    expect(href).not.toContain(read);
  });
});

describe('GET /feeds/sitemap/', () => {
  it('has one url per published post, with loc and lastmod as YYYY-MM-DD', async () => {
    const urls = await sitemap();
    const posts = publishedPosts(acme);
    expect(urls).toHaveLength(posts.length);
    const bySlugUrl = new Map(posts.map((p) => [postUrl(acme, p.slug), p]));
    for (const entry of urls) {
      const post = bySlugUrl.get(text(entry.loc));
      expect(post, text(entry.loc)).toBeDefined();
      expect(text(entry.lastmod)).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(text(entry.lastmod)).toBe(post!.updated.slice(0, 10));
    }
  });
});

describe('feed item limit', () => {
  it('RSS and Atom carry the 50 newest posts, the sitemap every one', async () => {
    const count = FEED_LIMIT + 2;
    const bodies = Array.from({ length: count }, (_, i) => ({
      title: `Feed limit probe ${i + 1}`,
      slug: `feed-limit-probe-${i + 1}`,
      status: 'published',
      categories: ['Feed Limit Probe'],
      summary: `Probe ${i + 1}`,
    }));
    await createPosts(bodies);
    const query = { category_slug: await categorySlugOf('feed-limit-probe-1') };
    // Created one after the other: the last one is the newest.
    const newestFirst = bodies.map((b) => postUrl(acme, b.slug)).reverse();
    expect(await linksOf('rss', query)).toStrictEqual(newestFirst.slice(0, FEED_LIMIT));
    expect(await linksOf('atom', query)).toStrictEqual(newestFirst.slice(0, FEED_LIMIT));
    expect((await linksOf('sitemap', query)).sort()).toStrictEqual([...newestFirst].sort());
  });
});

describe('escaping', () => {
  const clean = (s: string): string => s.replaceAll('\u0001', '');

  /** Creates one published post in its own new category; returns the feed filter for it. */
  async function hostilePost(slug: string, fields: { title: string; summary: string; body: string }, category: string) {
    await createPosts([{ ...fields, slug, status: 'published', categories: [category] }]);
    return { category_slug: await categorySlugOf(slug) };
  }

  async function expectRoundTrip(slug: string, fields: { title: string; summary: string; body: string }, query: Record<string, string>) {
    const url = postUrl(acme, slug);
    const items = (await rss(query)).item ?? [];
    expect(items).toHaveLength(1);
    expect.soft(text(items[0]!.link)).toBe(url);
    expect.soft(text(items[0]!.title), 'rss title').toBe(clean(fields.title));
    expect.soft(text(items[0]!.description), 'rss description').toBe(clean(fields.summary));
    expect.soft(text(items[0]!['content:encoded']), 'rss content:encoded').toBe(clean(fields.body));

    const entries = (await atom(query)).entry ?? [];
    expect(entries).toHaveLength(1);
    expect.soft(text(entries[0]!.title), 'atom title').toBe(clean(fields.title));
    expect.soft(text(entries[0]!.summary), 'atom summary').toBe(clean(fields.summary));

    expect((await sitemap(query)).map((u) => text(u.loc))).toStrictEqual([url]);
  }

  it('markup, ampersands, "]]>", quotes and a control character keep every feed well-formed and round-trip (minus the control character)', async () => {
    const slug = 'feed-escaping-probe';
    const fields = {
      title: `Esc <script>alert("x")</script> & 'quotes' ]]> \u0001 end`,
      summary: `Summary <b>bold</b> & "double" 'single' ]]> <![CDATA[ x ]]> \u0001 done`,
      body: `<p>Tom & "Jerry" <script>alert('x')</script> ]]> \u0001</p><p title="a 'b'">second</p>`,
    };
    const query = await hostilePost(slug, fields, 'Escaping <Probe> & "Co"');
    await expectRoundTrip(slug, fields, query);
    // Unfiltered feeds stay well-formed with the hostile post in them (feed() checks it).
    for (const kind of FEEDS) await feed(kind);
  });

  it('text holding XML entity references (escaped HTML) round-trips unchanged', async () => {
    // Spec: body is "escaped HTML": an ampersand is `&amp;`, a code sample shows `&lt;script&gt;`.
    const slug = 'feed-entity-probe';
    const fields = {
      title: 'AT&amp;T &lt;b&gt; &#60;',
      summary: 'Use &lt;script&gt; with care &amp; caution',
      body: '<p>Tom &amp; Jerry</p><pre>&lt;script&gt;alert(1)&lt;/script&gt;</pre><p>&#169; &#x2014;</p>',
    };
    const query = await hostilePost(slug, fields, 'Entity Probe');
    await expectRoundTrip(slug, fields, query);
  });

  it('HTML named entities (&nbsp; &copy; &mdash;) in the content keep every feed well-formed', async () => {
    const slug = 'feed-html-entity-probe';
    const fields = {
      title: 'Fish&nbsp;&amp;&nbsp;chips &mdash; a review',
      summary: 'Prices&nbsp;in &euro; &copy; 2026',
      body: '<p>Fish&nbsp;and&nbsp;chips &mdash; &copy; 2026</p>',
    };
    const query = await hostilePost(slug, fields, 'HTML Entity Probe');
    await expectRoundTrip(slug, fields, query);
  });
});

describe('unknown feeds', () => {
  // Names of Object.prototype members must not be taken for feed renderers.
  it.each(['json', 'RSS', 'constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'])(
    '/feeds/%s/ is a 404 JSON that leaks nothing',
    async (name) => {
      const res = await api.get(`/feeds/${name}/`, { token: read });
      expect(res.status, res.text.slice(0, 200)).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.body).toStrictEqual({ detail: messages.notFound });
      expect(res.text).not.toContain(write);
    },
  );

  it('/feeds/ itself is a 404 JSON', async () => {
    const res = await api.get('/feeds/', { token: read });
    expect(res.status).toBe(404);
    expect(res.body).toStrictEqual({ detail: messages.notFound });
  });

  it('an unknown feed still needs a token', async () => {
    const res = await api.get('/feeds/json/');
    expect(res.status).toBe(401);
    expect(res.body).toStrictEqual({ detail: messages.noCredentials });
  });
});
