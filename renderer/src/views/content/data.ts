/**
 * What the section list and the detail pane need about an organization: its summary (counts,
 * locales), page types, collections (with item counts) and, until the server can filter pages by
 * page type (/tmp/requests-content.md), every page, grouped in the browser.
 */
import type { Collection, OrganizationSummary, Page, PageType } from '../../api/types.js';
import { call } from '../../api/client.js';
import type { ContentChange } from '../../state/live.js';
import type { Section } from './contentRoute.js';
import { readPage, useControlData, type Loaded } from './useControlData.js';

/** A collection as content/collections lists it: its items are paged on their own. */
export type CollectionSummary = Omit<Collection, 'items'> & { item_count: number };

export const sectionPath = (org: string, section: string) => `organizations/${encodeURIComponent(org)}/content/${section}`;
export const itemsPath = (org: string, collection: string) =>
  `organizations/${encodeURIComponent(org)}/content/collections/${encodeURIComponent(collection)}/items`;

/** The most the browsing endpoints give in one answer. */
export const MAX_LIMIT = 1000;

export function useOrganizations(): Loaded<OrganizationSummary[]> {
  return useControlData<OrganizationSummary[]>('organizations', {}, { keep: true });
}

/**
 * Which content changes can touch what a section shows (the `change` events of the live stream:
 * post.*, page.*, item.*, media.*). Page types and webhooks change only with the whole state.
 */
export function relevantTo(org: string | null, what: Section['kind'] | 'collections' | 'page-types') {
  return (change: ContentChange): boolean => {
    if (change.organization !== org) return false;
    const group = change.type.split('.')[0];
    switch (what) {
      case 'pages':
      case 'single-pages':
        return group === 'page';
      case 'items':
      case 'collections':
        return group === 'item';
      case 'posts':
      case 'authors':
      case 'categories':
      case 'tags':
        // A post written through the API may create its author's terms.
        return group === 'post';
      case 'media':
        return group === 'media';
      case 'webhooks':
      case 'page-types':
        return false;
    }
  };
}

export function usePageTypes(org: string | null): Loaded<PageType[]> {
  return useControlData<PageType[]>(
    org && sectionPath(org, 'page-types'),
    { limit: MAX_LIMIT },
    { keep: true, relevant: relevantTo(org, 'page-types') },
  );
}

export function useCollections(org: string | null): Loaded<CollectionSummary[]> {
  return useControlData<CollectionSummary[]>(
    org && sectionPath(org, 'collections'),
    { limit: MAX_LIMIT },
    { keep: true, relevant: relevantTo(org, 'collections') },
  );
}

/** Every page of an organization, read in chunks of the largest page the server gives. */
async function readAllPages(path: string, _query: unknown, signal: AbortSignal): Promise<Page[]> {
  const pages: Page[] = [];
  for (;;) {
    const chunk = await readPage<Page>(path, { limit: MAX_LIMIT, offset: pages.length }, signal);
    pages.push(...chunk.data);
    if (chunk.data.length === 0 || pages.length >= chunk.total) return pages;
  }
}

export function useAllPages(org: string | null): Loaded<Page[]> {
  return useControlData<Page[]>(
    org && sectionPath(org, 'pages'),
    {},
    { keep: true, read: readAllPages, relevant: relevantTo(org, 'pages') },
  );
}

/** The same substring match the server's `q` makes on pages (slug, name, page type). */
export function pageMatches(page: Page, q: string): boolean {
  const needle = q.trim().toLowerCase();
  return needle === '' || `${page.slug} ${page.name} ${page.page_type ?? ''}`.toLowerCase().includes(needle);
}

/** Pages per page type key; Single Pages under null. */
export function groupPages(pages: Page[]): Map<string | null, Page[]> {
  const groups = new Map<string | null, Page[]>();
  for (const page of pages) {
    const list = groups.get(page.page_type);
    if (list) list.push(page);
    else groups.set(page.page_type, [page]);
  }
  return groups;
}

/** Runs a dashboard action; the record after it comes back. */
export function runAction<T>(path: string, action: string, body?: unknown): Promise<T> {
  return call<{ data: T }>(`${path}/${action}`, { method: 'POST', body: body ?? {} }).then((r) => r.data);
}
