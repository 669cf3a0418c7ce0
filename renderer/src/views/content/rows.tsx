/** One line of the record list per kind of record: text only, two lines, fixed height. */
import type { Author, CollectionItem, MediaRecord, Page, Post, Term, Webhook } from '../../api/types.js';
import { bytesOf } from '../../components/format.js';
import { localized } from './fields.js';
import { RecordBadge } from './RecordBadge.js';
import { itemState, pageState, postState, titleOf, type RecordState } from './status.js';

/** A day in the list (the detail has the time). */
export function dayOf(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
}

function Line({ state, title, meta, aside }: { state?: RecordState; title: string; meta: string; aside?: string | null | undefined }) {
  return (
    <>
      {state && (
        <span class="row-state">
          <RecordBadge state={state.state} />
        </span>
      )}
      <span class="row-main">
        <span class="row-title" title={title}>
          {title}
        </span>
        <span class="row-line">
          <span class="row-meta mono" title={meta}>
            {meta}
          </span>
          {aside && <span class="row-aside">{aside}</span>}
        </span>
      </span>
    </>
  );
}

export const PostRow = ({ post }: { post: Post }) => (
  <Line
    state={postState(post)}
    title={post.title}
    meta={post.slug}
    aside={post.status === 'scheduled' ? dayOf(post.scheduled) : post.published ? dayOf(post.published) : dayOf(post.updated)}
  />
);

export function PageRow({ page }: { page: Page }) {
  const state = pageState(page);
  return (
    <Line
      state={state}
      title={page.name}
      meta={`/${page.slug}`}
      aside={state.extra === 'changes' ? 'draft changes' : state.extra === 'scheduled' ? 'scheduled' : dayOf(page.updated ?? page.created)}
    />
  );
}

export const ItemRow = ({ item, locale }: { item: CollectionItem; locale: string | null }) => (
  <Line
    state={itemState(item)}
    title={titleOf(localized(item.fields, locale)) ?? `Item ${item.id}`}
    meta={`#${item.id}`}
    aside={dayOf(item.updated)}
  />
);

export const AuthorRow = ({ author }: { author: Author }) => (
  <Line title={`${author.first_name} ${author.last_name}`.trim() || author.slug} meta={author.slug} aside={author.title} />
);

export const TermRow = ({ term }: { term: Term }) => <Line title={term.name} meta={term.slug} />;

export const WebhookRow = ({ webhook }: { webhook: Webhook }) => (
  <Line
    state={{ state: webhook.enabled ? 'enabled' : 'disabled' }}
    title={webhook.id}
    meta={webhook.url}
    aside={`${webhook.events.length} events`}
  />
);

export const MediaRow = ({ media }: { media: MediaRecord }) => (
  <Line title={media.alt || media.id} meta={media.id} aside={bytesOf(media.size)} />
);
