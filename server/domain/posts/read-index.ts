/**
 * Indexes of an organization's posts for reads (issue 7: "reads do not scan the whole store").
 * Built once per store revision and reused by every read until the next write: the published
 * list already sorted, live posts by slug, and each published post's position for neighbours.
 * Writes keep scanning (inside a mutation the revision has not moved yet, so an index could be
 * stale there).
 */
import type { Post } from '../../store/schema.js';
import { perRevision } from '../per-revision.js';
import { byPublicationDesc, isLive, isPublished, matchesFilters, type PostFilters } from './queries.js';

export interface PostReadIndex {
  /** Published posts, newest first. */
  published: Post[];
  /** Every live post (any status), newest first. */
  live: Post[];
  liveBySlug: Map<string, Post>;
  /** Position of each published post in `published`. */
  position: Map<number, number>;
}

/** The organization's live and published posts in publication order, per store revision. */
export const postReadIndex = perRevision((org): PostReadIndex => {
  const live = org.posts.filter(isLive).sort(byPublicationDesc);
  const published = live.filter(isPublished);
  return {
    published,
    live,
    liveBySlug: new Map(live.map((p) => [p.slug, p])),
    position: new Map(published.map((p, i) => [p.id, i])),
  };
});

const noFilters = (f: PostFilters) => f.author_slug === undefined && f.category_slug === undefined && f.tag_slug === undefined;

/** Published posts matching `filters`, newest first, stopping at `limit` (include=recent_posts, feeds). */
export function newestMatching(index: PostReadIndex, filters: PostFilters, limit: number): Post[] {
  if (noFilters(filters)) return index.published.slice(0, limit);
  const found: Post[] = [];
  for (const post of index.published) {
    if (found.length >= limit) break;
    if (matchesFilters(post, filters)) found.push(post);
  }
  return found;
}

/** Posts of a list read: published (or, with preview, every live post), filtered, newest first. */
export function indexedPosts(index: PostReadIndex, filters: PostFilters, preview: boolean): Post[] {
  const base = preview ? index.live : index.published;
  return noFilters(filters) ? base : base.filter((p) => matchesFilters(p, filters));
}

/** The published posts around `post`: `next` is the newer one, `previous` the older; none for unpublished posts. */
export function indexedNeighbours(index: PostReadIndex, post: Post): { next: Post | null; previous: Post | null } {
  const i = index.position.get(post.id);
  if (i === undefined || !isPublished(post)) return { next: null, previous: null };
  return { next: index.published[i - 1] ?? null, previous: index.published[i + 1] ?? null };
}
