/**
 * Which webhook event kinds a change fires (spec: Events; "the mapping of each write operation
 * to individual event kinds: not shown"). The table is docs/webhooks.md; keep the two in step.
 * Every change of a group also fires its `<group>.all` (spec: "`page.all` fires on any page
 * activity").
 */
import type { CollectionItem, Page, Post, WebhookEvent } from '../../store/schema.js';
import { pageState } from '../pages/apply.js';

const isLive = (post: Post): boolean => post.status === 'published';

export function postKinds(before: Post | null, after: Post | null): WebhookEvent[] {
  if (after === null || after.deleted !== null) return ['post.delete', 'post.all'];
  if (isLive(after)) return ['post.published', 'post.all'];
  // Real service: unpublishing a post also fires post.delete (it leaves every public read).
  if (before !== null && isLive(before)) return ['post.draft', 'post.delete', 'post.all'];
  return ['post.draft', 'post.all'];
}

export function pageKinds(before: Page | null, after: Page): WebhookEvent[] {
  if (after.deleted !== null) return ['page.delete', 'page.all'];
  const wasLive = before !== null && before.published_version !== null;
  const liveChanged = after.published_version !== null && after.published_version.saved !== before?.published_version?.saved;
  if (liveChanged) return ['page.published', 'page.all'];
  if (wasLive && after.published_version === null) return ['page.unpublished', 'page.all'];
  // A draft saved (a new page, an edit of a draft, or a draft above the live version).
  return ['page.draft', 'page.all'];
}

export function itemKinds(before: CollectionItem | null, after: CollectionItem): WebhookEvent[] {
  if (after.deleted !== null) return ['collectionitem.delete', 'collectionitem.all'];
  if (after.status === 'published') return ['collectionitem.published', 'collectionitem.all'];
  if (before !== null && before.status === 'published') return ['collectionitem.unpublished', 'collectionitem.all'];
  return ['collectionitem.draft', 'collectionitem.all'];
}

/** The state a page webhook reports (spec: data.status). */
export function pageWebhookStatus(page: Page): 'draft' | 'published' | 'scheduled' | 'deleted' {
  return pageState(page);
}
