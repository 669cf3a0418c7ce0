/**
 * The Content view's place in the URL: #/content/<org>/<section>/<id…>. Page groups and
 * collections take one more segment than the flat sections:
 *   #/content/acme/pages/landing_page/home       a page of page type landing_page
 *   #/content/acme/single-pages/contact          a Single Page (page_type null)
 *   #/content/acme/collections/products/6        item 6 of collection products
 *   #/content/acme/posts/welcome                 (authors, categories, tags, media, webhooks alike)
 */
import { href } from '../../state/route.js';

export const FLAT_SECTIONS = ['posts', 'authors', 'categories', 'tags', 'media', 'webhooks'] as const;
export type FlatSection = (typeof FLAT_SECTIONS)[number];

/** What the list shows: one group of pages, one collection's items, or a flat section. */
export type Section =
  { kind: 'pages'; pageType: string } | { kind: 'single-pages' } | { kind: 'items'; collection: string } | { kind: FlatSection };

export interface ContentPlace {
  org: string | null;
  section: Section | null;
  /** The selected record: a slug, an id. */
  id: string | null;
}

export function parsePlace(rest: string[]): ContentPlace {
  const [org = null, name, a, b] = rest;
  switch (name) {
    case 'pages':
      return { org, section: a ? { kind: 'pages', pageType: a } : null, id: b ?? null };
    case 'collections':
      return { org, section: a ? { kind: 'items', collection: a } : null, id: b ?? null };
    case 'single-pages':
      return { org, section: { kind: 'single-pages' }, id: a ?? null };
    default:
      if ((FLAT_SECTIONS as readonly string[]).includes(name ?? '')) return { org, section: { kind: name as FlatSection }, id: a ?? null };
      return { org, section: null, id: null };
  }
}

/** The URL segments of a section (after the organization). */
export function sectionSegments(section: Section): string[] {
  switch (section.kind) {
    case 'pages':
      return ['pages', section.pageType];
    case 'items':
      return ['collections', section.collection];
    default:
      return [section.kind];
  }
}

export function placeHref(org: string, section: Section, id?: string | number | null): string {
  return href('content', org, ...sectionSegments(section), ...(id === null || id === undefined ? [] : [id]));
}

export function sameSection(a: Section | null, b: Section | null): boolean {
  return a !== null && b !== null && sectionSegments(a).join('/') === sectionSegments(b).join('/');
}

/** Where the dashboard actions of a record live, if it has any. */
export function actionPath(org: string, section: Section, id: string): string | null {
  const o = encodeURIComponent(org);
  const i = encodeURIComponent(id);
  if (section.kind === 'posts') return `organizations/${o}/posts/${i}`;
  if (section.kind === 'pages' || section.kind === 'single-pages') return `organizations/${o}/pages/${i}`;
  if (section.kind === 'items') return `organizations/${o}/collections/${encodeURIComponent(section.collection)}/items/${i}`;
  return null;
}
