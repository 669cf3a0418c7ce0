/**
 * Validation of post writes (spec: POST /posts/, PATCH /posts/{slug}/, Limits). What can be
 * checked from the request and the current store is checked here, synchronously, before the
 * 202; what needs the background (author lookup, creating categories and tags) is the job's.
 */
import { z } from 'zod';
import { fieldErrors, type FieldErrors } from '../errors.js';
import { toFieldErrors } from '../field-errors.js';
import { messages } from '../messages.js';
import { slugifyText, uniqueSlug } from '../slugs.js';

/** Paths under /posts/ that are endpoints, so no post may take them as its slug. */
export const RESERVED_POST_SLUGS: ReadonlySet<string> = new Set(['search']);

const httpUrl = z.url({ protocol: /^https?$/ });
const imageUrl = z.union([z.literal(''), httpUrl]).nullable();
const names = z.array(z.string().trim().min(1));
const authorRef = z
  .object({ email: z.string().trim().min(1).optional(), slug: z.string().trim().min(1).optional() })
  .refine((a) => a.email !== undefined || a.slug !== undefined, { message: messages.authorShape });

/** Fields shared by create and update, all optional here. */
const commonFields = {
  author: authorRef.optional(),
  categories: names.optional(),
  tags: names.optional(),
  featured_image: imageUrl.optional(),
  featured_image_alt: z.string().max(250).optional(),
  body: z.string().optional(),
  summary: z.string().max(2000).optional(),
  seo_title: z.string().max(100).optional(),
  meta_description: z.string().optional(),
  upload_images_to_media_library: z.boolean().optional(),
  slug: z.string().trim().min(1).max(100).optional(),
};

const createSchema = z.object({
  ...commonFields,
  title: z.string().trim().min(1).max(200),
  status: z.enum(['draft', 'published']).optional(),
});

const patchSchema = z.object({
  ...commonFields,
  title: z.string().trim().min(1).max(200).optional(),
  status: z.enum(['draft', 'published', 'scheduled']).optional(),
});

export type AuthorRef = z.infer<typeof authorRef>;

/** A validated create, with its final slug already chosen (so the 202 can promise it). */
export interface PostCreateInput {
  title: string;
  slug: string;
  status: 'draft' | 'published';
  author: AuthorRef | null;
  categories: string[];
  tags: string[];
  featured_image: string | null;
  featured_image_alt: string;
  body: string;
  summary: string;
  seo_title: string;
  meta_description: string;
  upload_images_to_media_library: boolean;
}

/** A validated partial update: only the keys present change. */
export type PostPatchInput = Partial<Omit<PostCreateInput, 'status' | 'author' | 'slug'>> & {
  slug?: string;
  status?: 'draft' | 'published';
  author?: AuthorRef;
};

export interface SlugRules {
  /** True when a live post (other than the one being updated) or an accepted create has it. */
  isTaken(slug: string): boolean;
}

export function parsePostCreate(body: Record<string, unknown>, slugs: SlugRules): PostCreateInput {
  const errors: FieldErrors = {};
  if ('scheduled' in body) errors['scheduled'] = [messages.postSchedulingOnCreate];
  const result = createSchema.safeParse(body);
  if (!result.success) Object.assign(errors, statusWording(toFieldErrors(result.error, body), body));
  // Like the real service, a taken slug is reported together with the other field errors.
  const rawSlug = body['slug'];
  const explicitSlug = typeof rawSlug === 'string' && !errors['slug'] ? checkExplicitSlug(rawSlug, slugs, errors) : undefined;
  if (!result.success || Object.keys(errors).length > 0) throw fieldErrors(errors);
  const input = result.data;

  // A title with no letters or digits (emoji only) still gets a usable slug.
  const slug = explicitSlug ?? uniqueSlug(slugifyText(input.title) || 'post', (s) => slugs.isTaken(s) || RESERVED_POST_SLUGS.has(s));

  return {
    title: input.title,
    slug,
    status: input.status ?? 'draft',
    author: input.author ?? null,
    categories: dedupe(input.categories ?? []),
    tags: dedupe(input.tags ?? []),
    featured_image: input.featured_image || null,
    featured_image_alt: input.featured_image_alt ?? '',
    body: input.body ?? '',
    summary: input.summary ?? '',
    seo_title: input.seo_title ?? '',
    meta_description: input.meta_description ?? '',
    upload_images_to_media_library: input.upload_images_to_media_library ?? false,
  };
}

export interface ParsedPatch {
  input: PostPatchInput;
  /** Ignored fields, each with its warning, added to the 202 body as `<field>_warning`. */
  warnings: Record<string, string>;
}

export function parsePostPatch(body: Record<string, unknown>, slugs: SlugRules): ParsedPatch {
  const warnings: Record<string, string> = {};
  const result = patchSchema.safeParse(body);
  if (!result.success) throw fieldErrors(toFieldErrors(result.error, body));
  const { status, slug: rawSlug, author, ...rest } = result.data;

  const input: PostPatchInput = {};
  for (const [key, value] of Object.entries(rest) as [keyof typeof rest, unknown][]) {
    if (value !== undefined) Object.assign(input, { [key]: value });
  }
  if (rest.featured_image !== undefined) input.featured_image = rest.featured_image || null;
  if (rest.categories) input.categories = dedupe(rest.categories);
  if (rest.tags) input.tags = dedupe(rest.tags);
  if (author) input.author = author;

  // Spec: PATCH /posts/: `scheduled` as a status or as a field is dropped with a warning.
  if (status === 'scheduled') warnings['status_warning'] = messages.scheduledStatusIgnored;
  else if (status !== undefined) input.status = status;
  if ('scheduled' in body) warnings['scheduled_warning'] = messages.scheduledFieldIgnored;

  if (rawSlug !== undefined) {
    const errors: FieldErrors = {};
    input.slug = checkExplicitSlug(rawSlug, slugs, errors);
    if (Object.keys(errors).length > 0) throw fieldErrors(errors);
  }
  return { input, warnings };
}

function checkExplicitSlug(raw: string, slugs: SlugRules, errors: FieldErrors): string {
  const slug = slugifyText(raw);
  if (slug === '') errors['slug'] = [messages.postSlugEmpty];
  else if (RESERVED_POST_SLUGS.has(slug)) errors['slug'] = [messages.postSlugReserved(slug)];
  else if (slugs.isTaken(slug)) errors['slug'] = [messages.postSlugTaken];
  return slug;
}

/** The real service explains why a status is refused; keep that for the `status` key. */
function statusWording(errors: FieldErrors, body: Record<string, unknown>): FieldErrors {
  const status = body['status'];
  if (errors['status'] && typeof status === 'string') errors['status'] = [messages.postStatusChoice(status)];
  return errors;
}

function dedupe(values: string[]): string[] {
  const seen = new Set<string>();
  return values.filter((v) => {
    const key = v.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
