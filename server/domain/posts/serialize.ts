/**
 * The Blog post, Author, Category and Tag records as the API returns them (spec: Resources and
 * their fields). The store keeps references by slug; reads expand them here.
 */
import type { Author, Organization, Post, Term } from '../../store/schema.js';
import { perRevision } from '../per-revision.js';
import { liveBodyMedia, liveMediaUrl } from '../media/library.js';

export interface AuthorRecord {
  slug: string;
  first_name: string;
  last_name: string;
  email: string;
  bio: string;
  title: string;
  linkedin_url: string;
  facebook_url: string;
  pinterest_url: string;
  instagram_url: string;
  twitter_handle: string;
  profile_image: string;
}

export interface TermRecord {
  name: string;
  slug: string;
}

export interface PostRecord {
  url: string;
  created: string;
  published: string | null;
  author: AuthorRecord;
  categories: TermRecord[];
  tags: TermRecord[];
  featured_image: string | null;
  featured_image_alt: string;
  slug: string;
  title: string;
  body?: string;
  summary: string;
  seo_title: string;
  meta_description: string;
  status: Post['status'];
  /** Only in the single-post form, as the real service sends them. */
  updated?: string;
  deleted?: null;
  /** Only in search results: the relevance score (spec gap: name of the score field). */
  rank?: number;
}

export interface SerializeOptions {
  excludeBody?: boolean;
  single?: boolean;
}

export function postUrl(org: Organization, post: Pick<Post, 'slug'>): string {
  return `${org.blog.url.replace(/\/+$/, '')}/${encodeURIComponent(post.slug)}`;
}

export function authorRecord(author: Author): AuthorRecord {
  return {
    slug: author.slug,
    first_name: author.first_name,
    last_name: author.last_name,
    email: author.email,
    bio: author.bio,
    title: author.title,
    linkedin_url: author.linkedin_url,
    facebook_url: author.facebook_url,
    pinterest_url: author.pinterest_url,
    instagram_url: author.instagram_url,
    twitter_handle: author.twitter_handle,
    profile_image: author.profile_image,
  };
}

export function authorName(author: Author): string {
  return `${author.first_name} ${author.last_name}`.trim() || author.slug;
}

export function termRecord(term: Term): TermRecord {
  return { name: term.name, slug: term.slug };
}

/** Lookup tables for one organization, built once per read rather than once per post. */
/** An organization's authors, categories and tags by slug. */
interface TermTables {
  authors: Map<string, Author>;
  categories: Map<string, Term>;
  tags: Map<string, Term>;
}

/**
 * The tables of each organization, built once per store revision: every post read built them
 * anew, ~100 KB of garbage a request on the large store's 500 of each (docs/performance.md,
 * session 10).
 */
const tablesOf = perRevision((org): TermTables => ({
  authors: new Map(org.authors.map((a) => [a.slug, a])),
  categories: new Map(org.categories.map((c) => [c.slug, c])),
  tags: new Map(org.tags.map((t) => [t.slug, t])),
}));

export class OrgIndex {
  readonly authors: Map<string, Author>;
  readonly categories: Map<string, Term>;
  readonly tags: Map<string, Term>;

  /**
   * `cdnUrl`: base URL of the CDN, to show library media (`media:<id>`) as URLs; `revision`: the
   * store's revision now (the tables by slug are shared by the reads of one revision).
   */
  constructor(
    readonly org: Organization,
    readonly cdnUrl: string,
    revision: number,
  ) {
    const tables = tablesOf(org, revision);
    this.authors = tables.authors;
    this.categories = tables.categories;
    this.tags = tables.tags;
  }

  author(slug: string): Author {
    // The schema guarantees the reference; a stand-in keeps a read alive if it is ever broken.
    return this.authors.get(slug) ?? { ...MISSING_AUTHOR, slug };
  }
}

const MISSING_AUTHOR: Author = {
  slug: '',
  first_name: '',
  last_name: '',
  email: '',
  bio: '',
  title: '',
  linkedin_url: '',
  facebook_url: '',
  pinterest_url: '',
  instagram_url: '',
  twitter_handle: '',
  profile_image: '',
};

export function serializePost(index: OrgIndex, post: Post, options: SerializeOptions = {}): PostRecord {
  const terms = (slugs: string[], table: Map<string, Term>): TermRecord[] =>
    slugs.flatMap((slug) => {
      const term = table.get(slug);
      return term ? [termRecord(term)] : [];
    });
  const record: PostRecord = {
    url: postUrl(index.org, post),
    created: post.created,
    published: post.published,
    author: authorRecord(index.author(post.author)),
    categories: terms(post.categories, index.categories),
    tags: terms(post.tags, index.tags),
    featured_image: post.featured_image === null ? null : liveMediaUrl(post.featured_image, index.cdnUrl),
    featured_image_alt: post.featured_image_alt,
    slug: post.slug,
    title: post.title,
    body: liveBodyMedia(post.body, index.cdnUrl),
    summary: post.summary,
    seo_title: post.seo_title,
    meta_description: post.meta_description,
    status: post.status,
  };
  if (options.excludeBody) delete record.body;
  if (options.single) {
    record.updated = post.updated;
    record.deleted = null;
  }
  return record;
}

/** `next_post` / `previous_post` of the single-post read (spec gap: their shape). */
export function neighbourRecord(index: OrgIndex, post: Post | null): { slug: string; title: string; featured_image: string | null } | null {
  if (!post) return null;
  return {
    slug: post.slug,
    title: post.title,
    featured_image: post.featured_image === null ? null : liveMediaUrl(post.featured_image, index.cdnUrl),
  };
}
