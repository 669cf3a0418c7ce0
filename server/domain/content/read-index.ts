/**
 * Indexes of an organization's pages and collection items for reads (issue 7: "reads do not scan
 * the whole store"). Like the posts' index (posts/read-index.ts), one is built per store revision
 * and reused by every read until the next write: live pages by page type and by slug, live items
 * by id, and, computed when first asked for, the lists a read shows (visible with or without
 * preview; ordered by a field in a locale). Lists keep the file's order, so a list read through
 * the index is the list a scan would give. Writes keep scanning (inside a mutation the revision
 * has not moved yet, so an index could be stale there).
 *
 * Lookups answer what a scan for the first match in file order answers. Page ids, item ids and
 * the slugs of live pages are unique (the load checks them, writes keep them so).
 */
import type { Collection, CollectionItem, Organization, Page } from '../../store/schema.js';
import { perRevision } from '../per-revision.js';

export interface ItemIndex {
  /** Live (not deleted) items of the collection, in file order. */
  live: CollectionItem[];
  /** Live items by id. */
  byId: Map<number, CollectionItem>;
}

export interface ContentIndex {
  /** Live pages of each page type (null: Single Pages), in file order. */
  pagesByType: Map<string | null, Page[]>;
  /** Live pages by page type (null: Single Pages), then slug. */
  pagesBySlug: Map<string | null, Map<string, Page>>;
  /** Live pages by slug, whatever their type (`/pages/*\/{slug}/`). */
  anyPageBySlug: Map<string, Page>;
  /** Per collection (the object of the organization's list). */
  items: Map<Collection, ItemIndex>;
  /** Derived lists, by what they depend on; see `remember`. */
  readonly derived: Map<string, readonly unknown[]>;
}

export const contentIndex: (org: Organization, revision: number) => ContentIndex = perRevision(buildIndex);

function buildIndex(org: Organization): ContentIndex {
  const pagesByType = new Map<string | null, Page[]>();
  const pagesBySlug = new Map<string | null, Map<string, Page>>();
  const anyPageBySlug = new Map<string, Page>();
  for (const page of org.pages) {
    if (page.deleted !== null) continue;
    let ofType = pagesByType.get(page.page_type);
    let slugs = pagesBySlug.get(page.page_type);
    if (!ofType || !slugs) {
      ofType = [];
      slugs = new Map();
      pagesByType.set(page.page_type, ofType);
      pagesBySlug.set(page.page_type, slugs);
    }
    ofType.push(page);
    if (!slugs.has(page.slug)) slugs.set(page.slug, page);
    if (!anyPageBySlug.has(page.slug)) anyPageBySlug.set(page.slug, page);
  }
  const items = new Map<Collection, ItemIndex>();
  for (const collection of org.collections) {
    const live = collection.items.filter((item) => item.deleted === null);
    const byId = new Map<number, CollectionItem>();
    for (const item of live) if (!byId.has(item.id)) byId.set(item.id, item);
    items.set(collection, { live, byId });
  }
  return { pagesByType, pagesBySlug, anyPageBySlug, items, derived: new Map() };
}

/** A live page of `pageType` (`*`: any type) by slug. */
export function indexedPage(index: ContentIndex, pageType: string | null, slug: string): Page | undefined {
  return pageType === '*' ? index.anyPageBySlug.get(slug) : index.pagesBySlug.get(pageType)?.get(slug);
}

/** The live pages of a page type (null: Single Pages), in file order. */
export function pagesOfType(index: ContentIndex, pageType: string | null): readonly Page[] {
  return index.pagesByType.get(pageType) ?? [];
}

const NO_ITEMS: ItemIndex = { live: [], byId: new Map() };

/** The live items of a collection (any object not in the organization's list has none). */
export function itemIndex(index: ContentIndex, collection: Collection): ItemIndex {
  return index.items.get(collection) ?? NO_ITEMS;
}

/**
 * A list derived from the index, computed once per revision and per `key`, which must name
 * everything the list depends on (the read's preview and locale, the order). The list is shared:
 * callers never change it.
 */
export function remember<T>(index: ContentIndex, key: string, build: () => readonly T[]): readonly T[] {
  const known = index.derived.get(key) as readonly T[] | undefined;
  if (known) return known;
  const list = build();
  index.derived.set(key, list);
  return list;
}
