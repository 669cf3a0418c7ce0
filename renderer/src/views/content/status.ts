/** The state a record is in, in the words of the dashboard, for badges and list rows. */
import type { CollectionItem, Page, Post } from '../../api/types.js';

export interface RecordState {
  /** A StateBadge word: published, draft, scheduled (deleted records are not browsed). */
  state: string;
  /** A second badge, e.g. a page whose live version has a newer draft. */
  extra?: string;
}

export function pageState(page: Page): RecordState {
  if (page.scheduled) return page.published_version ? { state: 'published', extra: 'scheduled' } : { state: 'scheduled' };
  if (page.published_version) return page.draft_version ? { state: 'published', extra: 'changes' } : { state: 'published' };
  return { state: 'draft' };
}

export function postState(post: Post): RecordState {
  return { state: post.status };
}

export function itemState(item: CollectionItem): RecordState {
  return { state: item.status };
}

/** The first text value of a record's fields: a readable title for an item. */
export function titleOf(values: Record<string, unknown> | undefined): string | null {
  for (const value of Object.values(values ?? {}))
    if (typeof value === 'string' && value.trim() && !value.startsWith('media:')) return value;
  return null;
}
