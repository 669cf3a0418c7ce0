/**
 * State changes the spec leaves to the service's dashboard ("Transitions caused by the dashboard
 * …: not shown"): publish, unpublish, schedule and delete posts, pages and collection items.
 * Pure functions over a record; each returns the record before and after for the events.
 */
import type { CollectionItem, Page, Post } from '../store/schema.js';
import { detailError } from './errors.js';

export type PostAction = 'publish' | 'unpublish' | 'schedule' | 'delete';
export type PageAction = PostAction;
export type ItemAction = 'publish' | 'unpublish' | 'delete';

const conflict = (detail: string) => detailError(409, detail);

export function actOnPost(post: Post, action: PostAction, now: string, at: string | null): { before: Post; after: Post } {
  const before = structuredClone(post);
  switch (action) {
    case 'publish':
      post.status = 'published';
      post.scheduled = null;
      post.published ??= now;
      break;
    case 'unpublish':
      if (post.status === 'draft') throw conflict('The post is already a draft.');
      post.status = 'draft';
      post.scheduled = null;
      break;
    case 'schedule':
      if (at === null) throw detailError(400, 'schedule needs "at", an ISO 8601 date-time.');
      post.status = 'scheduled';
      post.scheduled = at;
      break;
    case 'delete':
      post.deleted = now;
      break;
  }
  post.updated = now;
  return { before, after: structuredClone(post) };
}

export function actOnPage(page: Page, action: PageAction, now: string, at: string | null, editor: string): { before: Page; after: Page } {
  const before = structuredClone(page);
  const latest = page.draft_version ?? page.published_version;
  switch (action) {
    case 'publish':
      page.published_version = latest ? { ...latest, saved: now, editor } : null;
      page.draft_version = null;
      page.scheduled = null;
      page.published ??= now;
      page.updated = now;
      break;
    case 'unpublish':
      if (!page.published_version) throw conflict('The page is not published.');
      page.draft_version = page.draft_version ?? page.published_version;
      page.published_version = null;
      page.scheduled = null;
      page.published = null;
      break;
    case 'schedule':
      if (at === null) throw detailError(400, 'schedule needs "at", an ISO 8601 date-time.');
      // What gets published at that time is the latest version: a draft, or a copy of the live one.
      page.draft_version = page.draft_version ?? (latest ? structuredClone(latest) : null);
      page.scheduled = at;
      break;
    case 'delete':
      page.deleted = now;
      break;
  }
  return { before, after: structuredClone(page) };
}

export function actOnItem(item: CollectionItem, action: ItemAction, now: string): { before: CollectionItem; after: CollectionItem } {
  const before = structuredClone(item);
  if (action === 'publish') item.status = 'published';
  if (action === 'unpublish') {
    if (item.status === 'draft') throw conflict('The item is already a draft.');
    item.status = 'draft';
  }
  if (action === 'delete') item.deleted = now;
  item.updated = now;
  return { before, after: structuredClone(item) };
}
