/**
 * Authors, categories and tags reads (spec: Author, category and tag reads). Category and tag
 * lists hold only terms with published posts; a single read finds any term of the organization.
 */
import type { Organization, Post } from '../store/schema.js';
import type { PostFilters } from './posts/queries.js';
import { newestMatching, type PostReadIndex } from './posts/read-index.js';

export type TermKind = 'categories' | 'tags';

const filterKey: Record<TermKind, keyof PostFilters> = { categories: 'category_slug', tags: 'tag_slug' };

export function termsWithPublishedPosts(org: Organization, kind: TermKind, index: PostReadIndex): Organization[TermKind] {
  const used = new Set<string>();
  const field: keyof Pick<Post, 'categories' | 'tags'> = kind;
  for (const post of index.published) for (const slug of post[field]) used.add(slug);
  return org[kind].filter((term) => used.has(term.slug));
}

export function findTerm(org: Organization, kind: TermKind, slug: string): Organization[TermKind][number] | undefined {
  return org[kind].find((t) => t.slug === slug);
}

/** Spec: up to 10 most recently published posts, newest first. */
const RECENT_POSTS = 10;

export function recentPostsOfTerm(index: PostReadIndex, kind: TermKind, slug: string): Post[] {
  return newestMatching(index, { [filterKey[kind]]: slug }, RECENT_POSTS);
}

export function recentPostsOfAuthor(index: PostReadIndex, slug: string): Post[] {
  return newestMatching(index, { author_slug: slug }, RECENT_POSTS);
}
