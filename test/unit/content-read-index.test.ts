/**
 * The page and collection read index (server/domain/content/read-index.ts): lists read through it
 * are the lists a scan of the organization gives, for every combination of preview, locale,
 * order and filter; plus the rules no API test can show (ties and empty values in ordered lists,
 * lookups among deleted twins, one index per revision).
 */
import { describe, expect, it } from 'vitest';
import { generateLargeStore, LARGE_ORG } from '../../bench/generate-store.js';
import { findLiveItem, listItems } from '../../server/domain/collections/queries.js';
import { compareForOrder, parseOrder, type FieldFilter } from '../../server/domain/content/list-options.js';
import { contentIndex } from '../../server/domain/content/read-index.js';
import { ContentReader, type ReadOptions } from '../../server/domain/content/reader.js';
import { findLivePage } from '../../server/domain/pages/apply.js';
import { listPages } from '../../server/domain/pages/queries.js';
import type { Collection, CollectionItem, Organization, Page } from '../../server/store/schema.js';

const at = '2026-01-01T00:00:00.000Z';
const options = (preview: boolean, locale: string | null): ReadOptions => ({
  preview,
  locale,
  altMediaText: false,
  levels: 2,
  basePath: '/v2',
  cdnUrl: 'http://cdn.test',
});

function page(id: number, fields: Partial<Page> & { values?: Record<string, unknown> } = {}): Page {
  const { values = {}, ...rest } = fields;
  return {
    id,
    slug: `page-${id}`,
    name: `Page ${id}`,
    page_type: 'article',
    created: at,
    published: at,
    updated: at,
    scheduled: null,
    published_version: { fields: values, saved: at, editor: '' },
    draft_version: null,
    deleted: null,
    ...rest,
  };
}

function item(id: number, fields: Partial<CollectionItem> = {}): CollectionItem {
  return { id, status: 'published', fields: {}, created: at, updated: at, deleted: null, ...fields };
}

function organization(pages: Page[], items: CollectionItem[] = []): Organization {
  return {
    locales: [],
    default_locale: null,
    page_types: [
      {
        key: 'article',
        name: 'Article',
        fields: [
          { key: 'rank', type: 'number', required: false },
          { key: 'title', type: 'short_text', required: false },
        ],
      },
    ],
    pages,
    collections: [{ key: 'things', name: 'Things', fields: [{ key: 'rank', type: 'number', required: false }], items }],
    media: [],
  } as unknown as Organization;
}

const reader = (org: Organization, revision: number, preview = false, locale: string | null = null) =>
  new ContentReader(org, options(preview, locale), contentIndex(org, revision));
const ids = (records: readonly { id: number }[]) => records.map((r) => r.id);

describe('ordered page lists', () => {
  it('order ties by ascending id, in both directions and whatever the file order', () => {
    const org = organization([page(3, { values: { rank: 1 } }), page(1, { values: { rank: 1 } }), page(2, { values: { rank: 0 } })]);
    expect(ids(listPages(org, reader(org, 1), { pageType: 'article', filters: [], order: 'rank' }))).toEqual([2, 1, 3]);
    expect(ids(listPages(org, reader(org, 1), { pageType: 'article', filters: [], order: '-rank' }))).toEqual([1, 3, 2]);
  });

  it('put pages without a value last in both directions', () => {
    const org = organization([
      page(1),
      page(2, { values: { rank: 5 } }),
      page(3, { values: { rank: '' } }),
      page(4, { values: { rank: 9 } }),
    ]);
    expect(ids(listPages(org, reader(org, 1), { pageType: 'article', filters: [], order: 'rank' }))).toEqual([2, 4, 1, 3]);
    expect(ids(listPages(org, reader(org, 1), { pageType: 'article', filters: [], order: '-rank' }))).toEqual([4, 2, 1, 3]);
  });

  it('keep their order when filtered', () => {
    const org = organization([1, 2, 3, 4, 5, 6].map((id) => page(id, { values: { rank: id % 3, title: id % 2 ? 'odd' : 'even' } })));
    const filters: FieldFilter[] = [{ param: 'fields.title', path: ['title'], value: 'odd' }];
    expect(ids(listPages(org, reader(org, 1), { pageType: 'article', filters, order: '-rank' }))).toEqual([5, 1, 3]);
  });
});

describe('page lookups', () => {
  it('find the live page when a deleted one had the same slug, and any type under *', () => {
    const deleted = page(1, { slug: 'same', deleted: at });
    const live = page(2, { slug: 'same' });
    const single = page(3, { slug: 'alone', page_type: null, definition: [] });
    const index = contentIndex(organization([deleted, live, single]), 1);
    expect(findLivePage(index, 'same', 'article')).toBe(live);
    expect(findLivePage(index, 'same', '*')).toBe(live);
    expect(findLivePage(index, 'alone', '*')).toBe(single);
    expect(findLivePage(index, 'alone', 'article')).toBeUndefined();
  });

  it('show draft-only pages to preview reads alone, and Single Pages only under *', () => {
    const draft = page(2, {
      published_version: null,
      published: null,
      updated: null,
      draft_version: { fields: {}, saved: at, editor: '' },
    });
    const org = organization([page(1), draft, page(3, { page_type: null, definition: [] })]);
    expect(ids(listPages(org, reader(org, 1), { pageType: 'article', filters: [], order: undefined }))).toEqual([1]);
    expect(ids(listPages(org, reader(org, 1, true), { pageType: 'article', filters: [], order: undefined }))).toEqual([1, 2]);
    expect(ids(listPages(org, reader(org, 1), { pageType: '*', filters: [], order: undefined }))).toEqual([3]);
  });
});

describe('collection items', () => {
  it('leave deleted items out, drafts out without preview, and select by id among the visible', () => {
    const org = organization([], [item(1), item(2, { status: 'draft' }), item(3, { deleted: at }), item(4)]);
    const things = org.collections[0]!;
    const list = (preview: boolean, selector: { field: string; value: string } | null = null) =>
      ids(listItems(org, reader(org, 1, preview), things, { filters: [], order: undefined, selector }));
    expect(list(false)).toEqual([1, 4]);
    expect(list(true)).toEqual([1, 2, 4]);
    expect(list(false, { field: '_id', value: '2' })).toEqual([]);
    expect(list(true, { field: '_id', value: '2' })).toEqual([2]);
    expect(list(true, { field: '_id', value: '3' })).toEqual([]);
    expect(findLiveItem(contentIndex(org, 1), things, 3)).toBeUndefined();
    expect(findLiveItem(contentIndex(org, 1), things, 2)?.id).toBe(2);
  });
});

describe('one index per store revision', () => {
  it('is reused until the revision moves, then sees what changed', () => {
    const org = organization([page(1)]);
    const first = listPages(org, reader(org, 1), { pageType: 'article', filters: [], order: undefined });
    expect(listPages(org, reader(org, 1), { pageType: 'article', filters: [], order: undefined })).toBe(first);
    org.pages.push(page(2));
    // Changes reach reads through a mutation, which moves the revision.
    expect(ids(listPages(org, reader(org, 1), { pageType: 'article', filters: [], order: undefined }))).toEqual([1]);
    expect(ids(listPages(org, reader(org, 2), { pageType: 'article', filters: [], order: undefined }))).toEqual([1, 2]);
  });
});

/** What a list read answered before the index: a scan of the organization, then a sort. */
function scanPages(org: Organization, r: ContentReader, pageType: string, filters: FieldFilter[], orderParam?: string): Page[] {
  const defs = org.page_types.find((t) => t.key === pageType)!.fields;
  const order = parseOrder(orderParam, defs, ['published', 'updated']);
  const pages = org.pages.filter((p) => {
    if (p.page_type !== pageType) return false;
    const values = r.pageValues(p);
    return values !== null && filters.every((f) => r.matches(defs, values, f.path, f.value));
  });
  if (!order) return pages;
  const key = (p: Page) => (order.key === 'published' || order.key === 'updated' ? p[order.key] : r.pageValues(p)?.[order.key]);
  return pages
    .map((p) => ({ p, k: key(p) }))
    .sort((a, b) => compareForOrder(a.k, b.k, order.descending) || a.p.id - b.p.id)
    .map((e) => e.p);
}

function scanItems(r: ContentReader, collection: Collection, filters: FieldFilter[], orderParam?: string): CollectionItem[] {
  const order = parseOrder(orderParam, collection.fields, ['published', 'updated']);
  const items = collection.items.filter(
    (i) => r.itemVisible(i) && filters.every((f) => r.matches(collection.fields, r.itemValues(i), f.path, f.value)),
  );
  if (!order) return items;
  const key = (i: CollectionItem) =>
    order.key === 'published' ? i.created : order.key === 'updated' ? i.updated : r.itemValues(i)[order.key];
  return items
    .map((i) => ({ i, k: key(i) }))
    .sort((a, b) => compareForOrder(a.k, b.k, order.descending) || a.i.id - b.i.id)
    .map((e) => e.i);
}

describe('lists through the index are the lists a scan gives', () => {
  const data = generateLargeStore({ posts: 5, pages: 60, items: 60, authors: 3, categories: 3, tags: 3 });
  const org = data.organizations.find((o) => o.slug === LARGE_ORG.slug)!;
  // Deleted pages and items, drafts, equal values: the cases an index could get wrong.
  org.pages.forEach((p, i) => {
    if (i % 7 === 0) p.deleted = at;
    if (i % 5 === 0 && p.published_version) p.published = at;
  });
  org.collections.forEach((c) => c.items.forEach((it, i) => i % 6 === 0 && (it.deleted = at)));
  const filter = (path: string, value: string): FieldFilter => ({ param: `fields.${path}`, path: path.split('.'), value });
  const pageCases: [string, FieldFilter[], string | undefined][] = [
    ['article_page', [], undefined],
    ['article_page', [], '-published'],
    ['article_page', [], 'updated'],
    ['article_page', [], 'headline'],
    ['article_page', [filter('brand.country', 'US')], '-headline'],
    ['landing_page', [filter('theme', 'dark')], 'priority'],
    ['landing_page', [filter('featured', 'true')], '-priority'],
    ['landing_page', [], 'featured'],
  ];
  const itemCases: [string, FieldFilter[], string | undefined][] = [
    ['products', [], undefined],
    ['products', [], 'price'],
    ['products', [], '-released'],
    ['products', [filter('in_stock', 'true')], '-price'],
    ['products', [filter('brand.country', 'JP')], 'name'],
    ['brands', [], '-published'],
    ['brands', [filter('country', 'NO')], 'updated'],
  ];

  for (const preview of [false, true]) {
    for (const locale of ['en', 'es']) {
      it(`pages and items, preview ${preview}, locale ${locale}`, () => {
        const r = reader(org, 1, preview, locale);
        for (const [pageType, filters, order] of pageCases) {
          expect(ids(listPages(org, r, { pageType, filters, order })), `${pageType} ${order}`).toEqual(
            ids(scanPages(org, r, pageType, filters, order)),
          );
        }
        for (const [key, filters, order] of itemCases) {
          const collection = org.collections.find((c) => c.key === key)!;
          expect(ids(listItems(org, r, collection, { filters, order })), `${key} ${order}`).toEqual(
            ids(scanItems(r, collection, filters, order)),
          );
        }
      });
    }
  }
});
