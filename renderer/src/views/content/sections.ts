/** Names of the sections, as the section list and the record list say them. */
import type { Section } from './contentRoute.js';
import type { CollectionSummary } from './data.js';
import type { PageType } from '../../api/types.js';

export const FLAT_LABELS = {
  posts: 'Posts',
  authors: 'Authors',
  categories: 'Categories',
  tags: 'Tags',
  media: 'Media library',
  webhooks: 'Webhooks',
} as const;

export function sectionLabel(section: Section, pageTypes: PageType[] = [], collections: CollectionSummary[] = []): string {
  switch (section.kind) {
    case 'pages':
      return pageTypes.find((t) => t.key === section.pageType)?.name ?? section.pageType;
    case 'single-pages':
      return 'Single Pages';
    case 'items':
      return collections.find((c) => c.key === section.collection)?.name ?? section.collection;
    default:
      return FLAT_LABELS[section.kind];
  }
}

/** The id a record has in the URL. */
export function keyOfRecord(section: Section, record: unknown): string {
  const r = record as { slug?: string; id?: string | number };
  switch (section.kind) {
    case 'items':
    case 'media':
    case 'webhooks':
      return String(r.id);
    default:
      return String(r.slug);
  }
}
