/**
 * Which posts a read sees, and in what order. Soft-deleted posts are invisible to every read
 * (spec: DELETE /posts/{slug}/). Lists are newest publication first (spec: GET /posts/); reads
 * take them from the index of read-index.ts, writes look records up here.
 */
import type { Organization, Post } from '../../store/schema.js';

export interface PostFilters {
  author_slug?: string | undefined;
  category_slug?: string | undefined;
  tag_slug?: string | undefined;
}

export const isLive = (post: Post): boolean => post.deleted === null;
export const isPublished = (post: Post): boolean => post.deleted === null && post.status === 'published';

/** Newest first by publication time; unpublished posts by their scheduled or creation time. */
function sortKey(post: Post): string {
  return post.published ?? post.scheduled ?? post.created;
}

export function byPublicationDesc(a: Post, b: Post): number {
  const ka = sortKey(a);
  const kb = sortKey(b);
  if (ka !== kb) return ka < kb ? 1 : -1;
  return b.id - a.id;
}

export function matchesFilters(post: Post, filters: PostFilters): boolean {
  if (filters.author_slug !== undefined && post.author !== filters.author_slug) return false;
  if (filters.category_slug !== undefined && !post.categories.includes(filters.category_slug)) return false;
  if (filters.tag_slug !== undefined && !post.tags.includes(filters.tag_slug)) return false;
  return true;
}

/** A live post by slug, whatever its status (spec: GET /posts/{slug}/). */
export function findLivePost(org: Organization, slug: string): Post | undefined {
  return org.posts.find((p) => p.slug === slug && isLive(p));
}

export function findLivePostById(org: Organization, id: number): Post | undefined {
  return org.posts.find((p) => p.id === id && isLive(p));
}
