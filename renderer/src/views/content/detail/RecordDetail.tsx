/**
 * The selected record, read by itself (GET …/content/{section}/{id}, or the item of a collection)
 * and again when a change could touch it. None by that id (404) says so: it was deleted, or never there.
 */
import type { Author, CollectionItem, MediaRecord, OrganizationSummary, Page, PageType, Post, Term, Webhook } from '../../../api/types.js';
import { navigate } from '../../../state/route.js';
import { notify } from '../../../state/toasts.js';
import { sectionSegments, type Section } from '../contentRoute.js';
import { recordPath, relevantTo, type CollectionSummary } from '../data.js';
import { readRecord, useControlData } from '../useControlData.js';
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
  pageTypes: PageType[];
  collections: CollectionSummary[];
}

export function RecordDetail({ orgSlug, org, section, id, pageTypes, collections }: DetailProps) {
  const { data: record, error } = useControlData<unknown>(
    recordPath(orgSlug, section, id),
    {},
    { read: readRecord, relevant: relevantTo(orgSlug, section.kind) },
  );
  if (error) return <p role="alert">{error}</p>;
  if (record === undefined) return <p class="muted">Loading…</p>;
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
