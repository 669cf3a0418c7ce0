/**
 * What the background jobs do to an organization's posts once a write was accepted. Each
 * function checks everything first and only then changes the organization, so a failure
 * leaves the store exactly as it was.
 */
import type { Organization, Post, Term } from '../../store/schema.js';
import { WriteFailure } from '../errors.js';
import { messages } from '../messages.js';
import { slugifyText, uniqueSlug } from '../slugs.js';
import type { AuthorRef, PostCreateInput, PostPatchInput } from './input.js';
import { findLivePostById } from './queries.js';
import { postSlugs } from './slug-index.js';

function resolveAuthor(org: Organization, ref: AuthorRef | null | undefined): string {
  if (!ref) return org.owner;
  if (ref.slug !== undefined) {
    const found = org.authors.find((a) => a.slug === ref.slug);
    if (!found) throw new WriteFailure(messages.jobAuthorNotFound('slug', ref.slug));
    return found.slug;
  }
  const email = (ref.email ?? '').toLowerCase();
  const found = org.authors.find((a) => a.email.toLowerCase() === email);
  if (!found) throw new WriteFailure(messages.jobAuthorNotFound('email', ref.email ?? ''));
  return found.slug;
}

/** Slugs of the terms named, creating the missing ones (spec: "missing ones are created"). */
function ensureTerms(terms: Term[], names: string[]): string[] {
  return names.map((name) => {
    const wanted = name.trim();
    const existing = terms.find((t) => t.name.toLowerCase() === wanted.toLowerCase());
    if (existing) return existing.slug;
    const base = slugifyText(wanted) || 'term';
    const slug = uniqueSlug(base, (s) => terms.some((t) => t.slug === s));
    terms.push({ slug, name: wanted });
    return slug;
  });
}

function assertSlugFree(org: Organization, slug: string, exceptId: number | null): void {
  const holder = postSlugs(org).liveHolder(slug);
  if (holder && holder.id !== exceptId) throw new WriteFailure(messages.jobSlugTaken(slug));
}

export function applyPostCreate(org: Organization, input: PostCreateInput, now: string): Post {
  const author = resolveAuthor(org, input.author);
  assertSlugFree(org, input.slug, null);
  const post: Post = {
    id: postSlugs(org).highestId() + 1,
    slug: input.slug,
    title: input.title,
    status: input.status,
    author,
    categories: ensureTerms(org.categories, input.categories),
    tags: ensureTerms(org.tags, input.tags),
    featured_image: input.featured_image,
    featured_image_alt: input.featured_image_alt,
    body: input.body,
    summary: input.summary,
    seo_title: input.seo_title,
    meta_description: input.meta_description,
    created: now,
    updated: now,
    published: input.status === 'published' ? now : null,
    scheduled: null,
    deleted: null,
  };
  org.posts.push(post);
  return post;
}

export function applyPostPatch(
  org: Organization,
  postId: number,
  originalSlug: string,
  input: PostPatchInput,
  now: string,
): { before: Post; after: Post } {
  const post = findLivePostById(org, postId);
  if (!post) throw new WriteFailure(messages.jobPostGone(originalSlug));
  const author = input.author ? resolveAuthor(org, input.author) : post.author;
  if (input.slug !== undefined) assertSlugFree(org, input.slug, post.id);
  const before = structuredClone(post);

  const { author: _author, categories, tags, status, upload_images_to_media_library: _upload, ...fields } = input;
  Object.assign(post, fields, { author });
  if (categories) post.categories = ensureTerms(org.categories, categories);
  if (tags) post.tags = ensureTerms(org.tags, tags);
  if (status !== undefined) {
    post.status = status;
    post.scheduled = null; // an explicit status replaces any schedule
    if (status === 'published' && post.published === null) post.published = now;
  }
  post.updated = now;
  return { before, after: structuredClone(post) };
}

export function applyPostDelete(post: Post, now: string): Post {
  post.deleted = now;
  post.updated = now;
  return structuredClone(post);
}
