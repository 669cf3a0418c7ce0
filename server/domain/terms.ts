/**
 * Authors, categories and tags reads (spec: Author, category and tag reads). Category and tag
 * lists hold only terms with published posts; a single read finds any term of the organization.
 */
import type { Organization, Post } from '../store/schema.js';
import { isPublished, recentPosts, type PostFilters } from './posts/queries.js';

export type TermKind = 'categories' | 'tags';

const filterKey: Record<TermKind, keyof PostFilters> = { categories: 'category_slug', tags: 'tag_slug' };

export function termsWithPublishedPosts(org: Organization, kind: TermKind): Organization[TermKind] {
  const used = new Set<string>();
  const field: keyof Pick<Post, 'categories' | 'tags'> = kind;
  for (const post of org.posts) if (isPublished(post)) for (const slug of post[field]) used.add(slug);
  return org[kind].filter((term) => used.has(term.slug));
}

export function findTerm(org: Organization, kind: TermKind, slug: string): Organization[TermKind][number] | undefined {
  return org[kind].find((t) => t.slug === slug);
}

export function recentPostsOfTerm(org: Organization, kind: TermKind, slug: string): Post[] {
  return recentPosts(org, { [filterKey[kind]]: slug });
}

export function recentPostsOfAuthor(org: Organization, slug: string): Post[] {
  return recentPosts(org, { author_slug: slug });
}
