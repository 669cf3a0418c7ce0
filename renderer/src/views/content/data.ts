/**
 * What the section list and the detail pane read about an organization: its summary (counts,
 * locales), page types, collections (with item counts), and where the records of a section and
 * one record are read (docs/control-api.md, "Browsing").
 */
import type { Collection, OrganizationSummary, PageType } from '../../api/types.js';
import { call } from '../../api/client.js';
import type { ContentChange } from '../../state/live.js';
import type { Section } from './contentRoute.js';
import { useControlData, type Loaded } from './useControlData.js';

/** A collection as content/collections lists it: its items are paged on their own. */
export type CollectionSummary = Omit<Collection, 'items'> & { item_count: number };
/** A page type as content/page-types lists it (the nav counts come from the organization's summary). */
export type PageTypeSummary = PageType & { page_count: number };

export const sectionPath = (org: string, section: string) => `organizations/${encodeURIComponent(org)}/content/${section}`;

/** The most the browsing endpoints give in one answer. */
export const MAX_LIMIT = 1000;

/** Where the records of a section are listed, and the filter that narrows them to it. */
export function listSource(org: string, section: Section): { path: string; filter: Record<string, string> } {
  switch (section.kind) {
    case 'pages':
      return { path: sectionPath(org, 'pages'), filter: { page_type: section.pageType } };
    case 'single-pages':
      return { path: sectionPath(org, 'pages'), filter: { single: '1' } };
    case 'items':
      return { path: `${sectionPath(org, 'collections')}/${encodeURIComponent(section.collection)}/items`, filter: {} };
    default:
      return { path: sectionPath(org, section.kind), filter: {} };
  }
}

/** Where one record of a section is read: pages and posts by slug, items, media and webhooks by id, terms by slug. */
export function recordPath(org: string, section: Section, id: string): string {
  return `${listSource(org, section).path}/${encodeURIComponent(id)}`;
}

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

export function usePageTypes(org: string | null): Loaded<PageTypeSummary[]> {
  return useControlData<PageTypeSummary[]>(
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

/** Runs a dashboard action; the record after it comes back. */
export function runAction<T>(path: string, action: string, body?: unknown): Promise<T> {
  return call<{ data: T }>(`${path}/${action}`, { method: 'POST', body: body ?? {} }).then((r) => r.data);
}
