/**
 * Validation of page writes (spec: POST /pages/ and its 400 table; PATCH and PUT
 * /pages/{page_type}/{page_slug}/). Errors are an object keyed by the offending field, each an
 * array of strings; page-type fields are keyed by their path (`fields.hero.title`,
 * `fields.es.title` for a locale).
 */
import type { Organization, Page } from '../../store/schema.js';
import { fieldErrors, type FieldErrors } from '../errors.js';
import { checkFieldValues, isPlainObject, mediaUrls, type ReferenceCheck } from '../content/field-values.js';
import { splitWrittenFields } from '../content/locales.js';
import type { LocaleChanges } from '../content/merge.js';
import { typeName } from '../field-errors.js';
import { messages } from '../messages.js';

const SLUG = /^[\p{L}\p{N}_-]+$/u;

export interface PageCreateInput {
  title: string;
  slug: string;
  pageType: string;
  status: 'draft' | 'published';
  changes: LocaleChanges;
}

export interface PagePatchInput {
  status?: 'draft' | 'published';
  changes: LocaleChanges;
}

/** A media URL of the write, keyed by the path its error would have (for the 404 check). */
export type MediaToProbe = { path: string; url: string }[];

export interface PageWriteContext {
  org: Organization;
  /** `locale` from the query string. */
  locale: string | undefined;
  references: ReferenceCheck;
}

function text(body: Record<string, unknown>, key: string, errors: FieldErrors): string | undefined {
  const value = body[key];
  if (value === undefined || value === null) {
    errors[key] = [value === null ? messages.notNull : messages.required];
    return undefined;
  }
  if (typeof value !== 'string') {
    errors[key] = [messages.notString];
    return undefined;
  }
  if (value.trim() === '') {
    errors[key] = [messages.blank];
    return undefined;
  }
  return value;
}

function status(body: Record<string, unknown>, errors: FieldErrors): 'draft' | 'published' | undefined {
  const value = body['status'];
  if (value === undefined) return undefined;
  if (value === 'draft' || value === 'published') return value;
  errors['status'] = [messages.pageStatusChoice(String(value))];
  return undefined;
}

function changesOf(
  ctx: PageWriteContext,
  fields: Record<string, unknown>,
  defs: Parameters<typeof checkFieldValues>[0],
  mode: 'all-keys' | 'partial',
  errors: FieldErrors,
): { changes: LocaleChanges; media: MediaToProbe } {
  const byLocale = splitWrittenFields(
    ctx.org,
    fields,
    new Set(defs.map((d) => d.key)),
    { locale: ctx.locale, defaultLocale: mode === 'all-keys' },
    errors,
  );
  if (!byLocale) return { changes: [], media: [] };
  const nested = !(byLocale.size === 1 && [...byLocale.values()][0] === fields);
  const media: MediaToProbe = [];
  const changes = [...byLocale].map(([locale, written]) => {
    const path = nested && locale !== null ? `fields.${locale}` : 'fields';
    const values = checkFieldValues(defs, written, path, { mode, references: ctx.references, errors });
    media.push(...mediaUrls(defs, values, path));
    return { locale, values };
  });
  return { changes, media };
}

export function parsePageCreate(
  ctx: PageWriteContext,
  body: Record<string, unknown>,
  slugTaken: (slug: string) => boolean,
): { input: PageCreateInput; media: MediaToProbe } {
  const errors: FieldErrors = {};
  // The reference material shows `page-type` in older samples: accept both spellings.
  const rawType = body['page_type'] ?? body['page-type'];
  let pageType: string | undefined;
  if (rawType === undefined || rawType === null || rawType === '') errors['page_type'] = [messages.required];
  else if (rawType === '*') errors['page_type'] = [messages.singlePagesRefused];
  else if (typeof rawType !== 'string') errors['page_type'] = [messages.notString];
  else if (!ctx.org.page_types.some((t) => t.key === rawType)) errors['page_type'] = [messages.pageTypeUnknown(rawType)];
  else pageType = rawType;

  const title = text(body, 'title', errors);
  const slug = text(body, 'slug', errors);
  if (slug !== undefined) {
    if (!SLUG.test(slug) || slug.length > 200) errors['slug'] = [messages.pageSlugFormat];
    else if (slugTaken(slug)) errors['slug'] = [messages.pageSlugTaken];
  }
  const pageStatus = status(body, errors);
  if ('scheduled' in body) errors['scheduled'] = [messages.pageSchedulingOnCreate];

  const fields = body['fields'];
  let written: { changes: LocaleChanges; media: MediaToProbe } = { changes: [], media: [] };
  if (fields === undefined || fields === null) errors['fields'] = [fields === null ? messages.notNull : messages.required];
  else if (!isPlainObject(fields)) errors['fields'] = [messages.notObject(typeName(fields))];
  else if (pageType !== undefined) {
    const defs = ctx.org.page_types.find((t) => t.key === pageType)?.fields ?? [];
    written = changesOf(ctx, fields, defs, 'all-keys', errors);
  }

  if (Object.keys(errors).length > 0 || !pageType || !title || !slug) throw fieldErrors(errors);
  return { input: { title, slug, pageType, status: pageStatus ?? 'draft', changes: written.changes }, media: written.media };
}

export function parsePagePatch(
  ctx: PageWriteContext,
  page: Page,
  defs: Parameters<typeof checkFieldValues>[0],
  body: Record<string, unknown>,
): { input: PagePatchInput; media: MediaToProbe } {
  const errors: FieldErrors = {};
  // Spec rule 1: title and slug cannot be changed (sending the current value is harmless).
  if ('title' in body && body['title'] !== page.name) errors['title'] = [messages.pageTitleImmutable];
  if ('slug' in body && body['slug'] !== page.slug) errors['slug'] = [messages.pageSlugImmutable];
  const pageStatus = status(body, errors);
  // Spec rule 3: scheduling parameters are ignored, so `scheduled` is not even looked at.

  const fields = body['fields'];
  let written: { changes: LocaleChanges; media: MediaToProbe } = { changes: [], media: [] };
  if (fields !== undefined && fields !== null) {
    if (!isPlainObject(fields)) errors['fields'] = [messages.notObject(typeName(fields))];
    else if (Object.keys(fields).length > 0) written = changesOf(ctx, fields, defs, 'partial', errors);
  }
  if (Object.keys(errors).length > 0) throw fieldErrors(errors);
  const { changes, media } = written;
  return { input: pageStatus ? { status: pageStatus, changes } : { changes }, media };
}
