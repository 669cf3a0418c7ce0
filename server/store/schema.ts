/**
 * The data file's shape: one zod schema, checked on load (and, later, on every external edit).
 * Everything the real service keeps outside the API (organizations, tokens, owner, blog settings)
 * lives here beside the content. Types are inferred from this schema; there is no hand-written twin.
 * The human-facing description of this format is docs/data-file.md: keep the two in step.
 */
import { z } from 'zod';
import { collectionSchema, pageSchema, slugSchema, timestamp } from './schema-content.js';
import { localeSchema, pageTypeSchema } from './schema-fields.js';
import { mediaRecordSchema } from './schema-media.js';
import { inboxSchema, webhookSchema } from './schema-webhooks.js';

export * from './schema-content.js';
export * from './schema-fields.js';
export * from './schema-media.js';
export * from './schema-webhooks.js';

/** Version of the file format; bumped with a migration whenever the shape changes incompatibly. */
export const FORMAT_VERSION = 1;

const slug = slugSchema;

export const authorSchema = z.object({
  slug,
  first_name: z.string().default(''),
  last_name: z.string().default(''),
  email: z.string().default(''),
  bio: z.string().default(''),
  title: z.string().default(''),
  linkedin_url: z.string().default(''),
  facebook_url: z.string().default(''),
  pinterest_url: z.string().default(''),
  instagram_url: z.string().default(''),
  twitter_handle: z.string().default(''),
  profile_image: z.string().default(''),
});

/** Categories and tags share one shape. */
export const termSchema = z.object({ slug, name: z.string().min(1) });

export const postStatusSchema = z.enum(['draft', 'published', 'scheduled']);

export const postSchema = z.object({
  /** Numeric id: the `_id` of post webhooks. Unique within the organization. */
  id: z.int().positive(),
  slug: slug.max(100),
  title: z.string().min(1).max(200),
  status: postStatusSchema,
  /** Slug of an author of the same organization. */
  author: slug,
  /** Slugs of categories and tags of the same organization. */
  categories: z.array(slug).default([]),
  tags: z.array(slug).default([]),
  featured_image: z.string().nullable().default(null),
  featured_image_alt: z.string().max(250).default(''),
  body: z.string().default(''),
  summary: z.string().max(2000).default(''),
  seo_title: z.string().max(100).default(''),
  meta_description: z.string().default(''),
  created: timestamp,
  updated: timestamp,
  /** First publication; null while the post has never been published. */
  published: timestamp.nullable().default(null),
  /** Publication time of a scheduled post; null otherwise. */
  scheduled: timestamp.nullable().default(null),
  /** Soft delete: set when deleted; the record is kept for recovery (spec: DELETE /posts/). */
  deleted: timestamp.nullable().default(null),
});

export const blogSettingsSchema = z.object({
  title: z.string().min(1),
  description: z.string().default(''),
  /** Public URL of the blog; a post's `url` is this plus `/<slug>`. */
  url: z.url(),
  /** RSS `language`, e.g. `en-us`. */
  language: z.string().default('en-us'),
});

export const organizationSchema = z.object({
  slug,
  name: z.string().min(1),
  tokens: z.object({
    read: z.string().min(8),
    write: z.string().min(8),
  }),
  /** Slug of the author that new posts get when a write names none. */
  owner: slug,
  blog: blogSettingsSchema,
  /** Page-creation cap of the plan; null means no cap. */
  page_limit: z.int().nonnegative().nullable().default(null),
  /** Locales of structured content; empty means content is flat (not localized). */
  locales: z.array(localeSchema).default([]),
  /** Slug of the locale used when a request names none; required when there are locales. */
  default_locale: z.string().nullable().default(null),
  page_types: z.array(pageTypeSchema).default([]),
  /** Pages of every page type, and Single Pages (`page_type: null`). */
  pages: z.array(pageSchema).default([]),
  collections: z.array(collectionSchema).default([]),
  /** The media library: files downloaded for this organization or shipped with the fixture. */
  media: z.array(mediaRecordSchema).default([]),
  /** Where this organization's events are delivered (spec: Events). */
  webhooks: z.array(webhookSchema).default([]),
  authors: z.array(authorSchema).default([]),
  categories: z.array(termSchema).default([]),
  tags: z.array(termSchema).default([]),
  /** Compiled: see schema-content.ts. */
  posts: z.compile(z.array(postSchema)).default([]),
});

export const storeSchema = z
  .object({
    format_version: z.literal(FORMAT_VERSION),
    organizations: z.array(organizationSchema).min(1),
    /** Built-in webhook receivers at /__emulator/inboxes/<name>. */
    inboxes: z.array(inboxSchema).default([]),
  })
  .superRefine(checkReferences);

export type StoreData = z.infer<typeof storeSchema>;
export type Organization = z.infer<typeof organizationSchema>;
export type Author = z.infer<typeof authorSchema>;
export type Term = z.infer<typeof termSchema>;
export type Post = z.infer<typeof postSchema>;
export type PostStatus = z.infer<typeof postStatusSchema>;
export type BlogSettings = z.infer<typeof blogSettingsSchema>;

type Ctx = z.RefinementCtx<z.output<z.ZodObject<{ organizations: z.ZodArray<typeof organizationSchema> }>>>;

/** Cross-record rules a per-field schema cannot express; each issue names the exact path. */
function checkReferences(data: { organizations: Organization[] }, ctx: Ctx): void {
  const tokens = new Map<string, string>();
  const orgSlugs = new Set<string>();
  data.organizations.forEach((org, o) => {
    const at = (...rest: (string | number)[]) => ['organizations', o, ...rest];
    if (orgSlugs.has(org.slug)) ctx.addIssue({ code: 'custom', path: at('slug'), message: `duplicate organization slug "${org.slug}"` });
    orgSlugs.add(org.slug);
    for (const kind of ['read', 'write'] as const) {
      const token = org.tokens[kind];
      const owner = tokens.get(token);
      if (owner !== undefined) ctx.addIssue({ code: 'custom', path: at('tokens', kind), message: `token already used by ${owner}` });
      tokens.set(token, `organizations[${o}].tokens.${kind}`);
    }
    const authors = uniqueSlugs(org.authors, at('authors'), ctx);
    const categories = uniqueSlugs(org.categories, at('categories'), ctx);
    const tags = uniqueSlugs(org.tags, at('tags'), ctx);
    if (!authors.has(org.owner)) ctx.addIssue({ code: 'custom', path: at('owner'), message: `no author with slug "${org.owner}"` });
    const ids = new Set<number>();
    const liveSlugs = new Set<string>();
    // Plain loops: this runs over every post of a large store at each load.
    for (let p = 0; p < org.posts.length; p++) {
      const post = org.posts[p]!;
      if (ids.has(post.id)) ctx.addIssue({ code: 'custom', path: at('posts', p, 'id'), message: `duplicate post id ${post.id}` });
      ids.add(post.id);
      if (post.deleted === null) {
        if (liveSlugs.has(post.slug))
          ctx.addIssue({ code: 'custom', path: at('posts', p, 'slug'), message: `duplicate post slug "${post.slug}"` });
        liveSlugs.add(post.slug);
      }
      if (!authors.has(post.author))
        ctx.addIssue({ code: 'custom', path: at('posts', p, 'author'), message: `no author with slug "${post.author}"` });
      for (let i = 0; i < post.categories.length; i++) {
        const c = post.categories[i]!;
        if (!categories.has(c))
          ctx.addIssue({ code: 'custom', path: at('posts', p, 'categories', i), message: `no category with slug "${c}"` });
      }
      for (let i = 0; i < post.tags.length; i++) {
        const t = post.tags[i]!;
        if (!tags.has(t)) ctx.addIssue({ code: 'custom', path: at('posts', p, 'tags', i), message: `no tag with slug "${t}"` });
      }
      if (post.status === 'published' && post.published === null) {
        ctx.addIssue({ code: 'custom', path: at('posts', p, 'published'), message: 'a published post needs its publication time' });
      }
      if (post.status === 'scheduled' && post.scheduled === null) {
        ctx.addIssue({ code: 'custom', path: at('posts', p, 'scheduled'), message: 'a scheduled post needs its scheduled time' });
      }
    }
  });
}

function uniqueSlugs(records: { slug: string }[], path: (string | number)[], ctx: Ctx): Set<string> {
  const seen = new Set<string>();
  records.forEach((r, i) => {
    if (seen.has(r.slug)) ctx.addIssue({ code: 'custom', path: [...path, i, 'slug'], message: `duplicate slug "${r.slug}"` });
    seen.add(r.slug);
  });
  return seen;
}
