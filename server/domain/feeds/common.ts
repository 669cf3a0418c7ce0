/**
 * What the three feeds share (spec: Feeds): which posts they carry and how text is made safe
 * for XML.
 */
import type { Organization, Post } from '../../store/schema.js';
import type { PostFilters } from '../posts/queries.js';
import { newestMatching, type PostReadIndex } from '../posts/read-index.js';

/** RSS and Atom carry the newest posts only; the sitemap lists every published post. */
export const FEED_ITEM_LIMIT = 50;

export interface FeedRequest {
  org: Organization;
  filters: Pick<PostFilters, 'category_slug' | 'tag_slug'>;
  /** Absolute URL of the feed itself, without credentials (the self link). */
  selfUrl: string;
  /** Used for the build date of an empty feed. */
  now: Date;
  /** Base URL of the CDN, for library media. */
  cdnUrl: string;
  /** The organization's post index for this store revision. */
  posts: PostReadIndex;
  /** The store's revision now. */
  revision: number;
}

export function feedPosts(request: FeedRequest, limit = FEED_ITEM_LIMIT): Post[] {
  return newestMatching(request.posts, request.filters, limit);
}

/** The newest `updated` among the posts, or now for an empty feed. */
export function lastUpdated(posts: Post[], now: Date): Date {
  const newest = posts.reduce<string | null>((max, p) => (max === null || p.updated > max ? p.updated : max), null);
  return newest ? new Date(newest) : now;
}

/** Exactly the characters XML 1.0 forbids, lone surrogates included. */
const XML_FORBIDDEN =
  // eslint-disable-next-line no-control-regex -- control characters are the point of this pattern
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Text for an element or attribute of a feed. xmlbuilder2 escapes `<` and `>` but leaves an `&`
 * that starts something entity-like (`&amp;`, `&nbsp;`) alone: post bodies are escaped HTML,
 * so that would turn `&lt;script&gt;` into a live tag and `&nbsp;` into an undeclared entity.
 * Escaping every `&` first leaves it nothing to guess. Characters XML 1.0 forbids are dropped.
 */
export function xmlText(text: string): string {
  return text.replace(XML_FORBIDDEN, '').replace(/&/g, '&amp;');
}
