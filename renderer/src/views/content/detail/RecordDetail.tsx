/**
 * The selected record. Pages come from the organization's page read; other records are found
 * with a `q` search and an exact match (the browsing API has no read of one record).
 */
import type { Author, CollectionItem, MediaRecord, OrganizationSummary, Page, PageType, Post, Term, Webhook } from '../../../api/types.js';
import { navigate } from '../../../state/route.js';
import { notify } from '../../../state/toasts.js';
import { sectionSegments, type Section } from '../contentRoute.js';
import { MAX_LIMIT, relevantTo, sectionPath, type CollectionSummary } from '../data.js';
import { keyOfRecord, serverPath } from '../sections.js';
import { readPage, useControlData, type Loaded } from '../useControlData.js';
import { ItemDetail } from './ItemDetail.js';
import { MediaDetail } from './MediaDetail.js';
import { PageDetail } from './PageDetail.js';
import { PostDetail } from './PostDetail.js';
import { AuthorDetail, TermDetail, WebhookDetail } from './SimpleDetails.js';

interface DetailProps {
  orgSlug: string;
  org: OrganizationSummary | undefined;
  section: Section;
  id: string;
  pages: Loaded<Page[]>;
  pageTypes: PageType[];
  collections: CollectionSummary[];
}

/** The `q` that finds a record: items are searched in their JSON, which starts with their id. */
function searchFor(section: Section, id: string): string {
  return section.kind === 'items' ? `{"id":${id},` : id;
}

function useRecord(
  orgSlug: string,
  section: Section,
  id: string,
  pages: Loaded<Page[]>,
): { record: unknown; loading: boolean; error: string | null } {
  const path = serverPath(section);
  const found = useControlData<{ data: unknown[]; total: number }>(
    path && sectionPath(orgSlug, path),
    { q: searchFor(section, id), limit: MAX_LIMIT },
    { read: readPage, relevant: relevantTo(orgSlug, section.kind) },
  );
  if (path === null) {
    // A live page first: a deleted page may have left its slug to a new one.
    const matches = (pages.data ?? []).filter((p) => p.slug === id);
    const record = matches.find((p) => p.deleted === null) ?? matches[0];
    return { record, loading: pages.loading && !pages.data, error: pages.error };
  }
  const record = found.data?.data.find((r) => keyOfRecord(section, r) === id);
  return { record, loading: found.loading && !found.data, error: found.error };
}

export function RecordDetail({ orgSlug, org, section, id, pages, pageTypes, collections }: DetailProps) {
  const { record, loading, error } = useRecord(orgSlug, section, id, pages);
  if (error) return <p role="alert">{error}</p>;
  if (loading) return <p class="muted">Loading…</p>;
  if (!record) return <p class="muted">Nothing here by the id “{id}”: it may have been deleted.</p>;

  const back = (what: string) => () => {
    notify(`Deleted ${what}`);
    navigate('content', orgSlug, ...sectionSegments(section));
  };

  switch (section.kind) {
    case 'pages':
    case 'single-pages': {
      const page = record as Page;
      const defs = page.page_type === null ? (page.definition ?? []) : (pageTypes.find((t) => t.key === page.page_type)?.fields ?? []);
      return <PageDetail page={page} org={org} orgSlug={orgSlug} defs={defs} onDeleted={back(page.slug)} />;
    }
    case 'items':
      return (
        <ItemDetail
          item={record as CollectionItem}
          collection={collections.find((c) => c.key === section.collection)}
          collectionKey={section.collection}
          org={org}
          orgSlug={orgSlug}
          onDeleted={back(`item ${id}`)}
        />
      );
    case 'posts':
      return <PostDetail post={record as Post} org={orgSlug} onDeleted={back((record as Post).slug)} />;
    case 'authors':
      return <AuthorDetail author={record as Author} org={orgSlug} />;
    case 'categories':
      return <TermDetail term={record as Term} kind="category" />;
    case 'tags':
      return <TermDetail term={record as Term} kind="tag" />;
    case 'media':
      return <MediaDetail media={record as MediaRecord} />;
    case 'webhooks':
      return <WebhookDetail webhook={record as Webhook} />;
  }
}
