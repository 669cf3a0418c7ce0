/**
 * Publication of scheduled content when the clock passes its time (spec: "Transitions caused …
 * by a scheduler (… reaching the scheduled time): not shown"; docs/spec-gaps.md). A scheduled
 * post becomes published at its scheduled time; a page's scheduled draft becomes its live version.
 */
import type { Organization, Page, Post } from '../store/schema.js';

export function duePosts(org: Organization, now: Date): Post[] {
  return org.posts.filter(
    (p) => p.deleted === null && p.status === 'scheduled' && p.scheduled !== null && Date.parse(p.scheduled) <= now.getTime(),
  );
}

export function duePages(org: Organization, now: Date): Page[] {
  return org.pages.filter(
    (p) => p.deleted === null && p.scheduled !== null && p.draft_version !== null && Date.parse(p.scheduled) <= now.getTime(),
  );
}

export function publishScheduledPost(post: Post): { before: Post; after: Post } {
  const before = structuredClone(post);
  const at = new Date(post.scheduled!).toISOString();
  post.status = 'published';
  post.published ??= at;
  post.updated = at;
  post.scheduled = null;
  return { before, after: structuredClone(post) };
}

export function publishScheduledPage(page: Page): { before: Page; after: Page } {
  const before = structuredClone(page);
  const at = new Date(page.scheduled!).toISOString();
  page.published_version = page.draft_version;
  page.draft_version = null;
  page.published ??= at;
  page.updated = at;
  page.scheduled = null;
  return { before, after: structuredClone(page) };
}
