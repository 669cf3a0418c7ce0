/**
 * What the UI's Content and Settings views read (docs/control-api.md, "Browsing"): the
 * organizations with their tokens and counts, and the stored records of one section, raw (as
 * the data file holds them, with every version), paged and filtered so a 10,000-post store
 * never travels whole. Read only: changes go through the API, dashboard actions or the file.
 */
import { Router } from 'express';
import { z } from 'zod';
import type { EmulatorContext } from '../context.js';
import { notFound } from '../domain/errors.js';
import { parseParams, parseQuery } from '../http/validate.js';
import type { Collection, Organization } from '../store/schema.js';

export const CONTENT_SECTIONS = [
  'posts',
  'pages',
  'page-types',
  'collections',
  'authors',
  'categories',
  'tags',
  'media',
  'webhooks',
] as const;
export type ContentSection = (typeof CONTENT_SECTIONS)[number];

const listQuery = z.object({
  q: z.string().max(200).optional(),
  /** Pages only: those of one page type (its key), or with `single=1` the Single Pages. */
  page_type: z.string().max(100).optional(),
  single: z.enum(['1', 'true'], { error: 'single is 1 or true.' }).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(200),
  offset: z.coerce.number().int().min(0).default(0),
});

/** Deleted records stay in the data file for recovery; browsing shows what the API would. */
const livePages = (org: Organization) => org.pages.filter((p) => p.deleted === null);
const liveItems = (collection: Collection) => collection.items.filter((i) => i.deleted === null);

export type OrganizationSummary = ReturnType<typeof organizationSummary>;

function organizationSummary(org: Organization) {
  return {
    slug: org.slug,
    name: org.name,
    tokens: org.tokens,
    locales: org.locales,
    default_locale: org.default_locale,
    page_limit: org.page_limit,
    counts: {
      posts: org.posts.filter((p) => p.deleted === null).length,
      pages: livePages(org).length,
      single_pages: livePages(org).filter((p) => p.page_type === null).length,
      pages_by_type: Object.fromEntries(org.page_types.map((t) => [t.key, livePages(org).filter((p) => p.page_type === t.key).length])),
      page_types: org.page_types.length,
      collections: org.collections.length,
      items: org.collections.reduce((n, c) => n + liveItems(c).length, 0),
      authors: org.authors.length,
      categories: org.categories.length,
      tags: org.tags.length,
      media: org.media.length,
      webhooks: org.webhooks.length,
    },
  };
}

/** The records of a section, and the text a `q` filter looks in for each. */
function sectionRecords(org: Organization, section: ContentSection): { record: unknown; text: string }[] {
  switch (section) {
    case 'posts':
      // Newest first (ids only grow), as a person browsing expects; the file keeps creation order.
      return org.posts
        .filter((p) => p.deleted === null)
        .toSorted((a, b) => b.id - a.id)
        .map((p) => ({ record: p, text: `${p.slug} ${p.title}` }));
    case 'pages':
      return livePages(org)
        .toSorted((a, b) => b.id - a.id)
        .map((p) => ({ record: p, text: `${p.slug} ${p.name} ${p.page_type ?? ''}` }));
    case 'page-types':
      return org.page_types.map((t) => ({
        record: { ...t, page_count: livePages(org).filter((p) => p.page_type === t.key).length },
        text: `${t.key} ${t.name}`,
      }));
    case 'collections':
      // Items are paged on their own: a collection here says how many it holds.
      return org.collections.map((c) => {
        const { items: _items, ...rest } = c;
        return { record: { ...rest, item_count: liveItems(c).length }, text: `${c.key} ${c.name}` };
      });
    case 'authors':
      return org.authors.map((a) => ({ record: a, text: `${a.slug} ${a.first_name} ${a.last_name} ${a.email}` }));
    case 'categories':
      return org.categories.map((t) => ({ record: t, text: `${t.slug} ${t.name}` }));
    case 'tags':
      return org.tags.map((t) => ({ record: t, text: `${t.slug} ${t.name}` }));
    case 'media':
      // Newest first, like posts and pages: what a write just imported is on top.
      return org.media
        .toSorted((a, b) => (a.created < b.created ? 1 : a.created > b.created ? -1 : 0))
        .map((m) => ({ record: m, text: `${m.id} ${m.file} ${m.original_url ?? ''} ${m.alt ?? ''}` }));
    case 'webhooks':
      return org.webhooks.map((w) => ({ record: w, text: JSON.stringify(w) }));
  }
}

function sectionOf(section: string): ContentSection {
  if (!(CONTENT_SECTIONS as readonly string[]).includes(section))
    throw notFound(`No section "${section}"; the sections are ${CONTENT_SECTIONS.join(', ')}.`);
  return section as ContentSection;
}

/** How a record is named in a URL: its slug, key or id. */
function idOf(record: unknown): string {
  const r = record as { slug?: unknown; key?: unknown; id?: unknown };
  return String(r.slug ?? r.key ?? r.id);
}

function page<T>(rows: { record: T; text: string }[], query: z.output<typeof listQuery>) {
  const needle = query.q?.trim().toLowerCase();
  if (query.page_type !== undefined || query.single !== undefined) {
    rows = rows.filter(({ record }) => {
      const type = (record as { page_type?: unknown }).page_type;
      return query.single !== undefined ? type === null : type === query.page_type;
    });
  }
  const matching = needle ? rows.filter((r) => r.text.toLowerCase().includes(needle)) : rows;
  return { data: matching.slice(query.offset, query.offset + query.limit).map((r) => r.record), total: matching.length };
}

export function contentRouter(ctx: EmulatorContext): Router {
  const router = Router({ strict: true });
  function organization(slug: string): Organization {
    const org = ctx.store.organization(slug);
    if (!org) throw notFound(`No organization "${slug}".`);
    return org;
  }

  router.get('/organizations', (_req, res) => {
    res.json({ data: ctx.store.organizations().map(organizationSummary) });
  });

  function collectionOf(org: string, key: string): Collection {
    const collection = organization(org).collections.find((c) => c.key === key);
    if (!collection) throw notFound(`No collection "${key}".`);
    return collection;
  }

  router.get('/organizations/:org/content/collections/:key/items', (req, res) => {
    const { org, key } = parseParams(z.object({ org: z.string(), key: z.string() }), req);
    const rows = liveItems(collectionOf(org, key))
      .toSorted((a, b) => b.id - a.id)
      .map((item) => ({ record: item, text: JSON.stringify(item) }));
    res.json(page(rows, parseQuery(listQuery, req)));
  });

  router.get('/organizations/:org/content/collections/:key/items/:id', (req, res) => {
    const { org, key, id } = parseParams(z.object({ org: z.string(), key: z.string(), id: z.string() }), req);
    const item = liveItems(collectionOf(org, key)).find((i) => String(i.id) === id);
    if (!item) throw notFound(`No item ${id} in "${key}".`);
    res.json({ data: item });
  });

  // One record: posts and pages by slug, page types and collections by key, authors,
  // categories and tags by slug, media and webhooks by id.
  router.get('/organizations/:org/content/:section/:id', (req, res) => {
    const { org, section, id } = parseParams(z.object({ org: z.string(), section: z.string(), id: z.string() }), req);
    const rows = sectionRecords(organization(org), sectionOf(section));
    const found = rows.find(({ record }) => idOf(record) === id);
    if (!found) throw notFound(`No ${section} record "${id}".`);
    res.json({ data: found.record });
  });

  router.get('/organizations/:org/content/:section', (req, res) => {
    const { org, section } = parseParams(z.object({ org: z.string(), section: z.string() }), req);
    res.json(page(sectionRecords(organization(org), sectionOf(section)), parseQuery(listQuery, req)));
  });

  return router;
}
