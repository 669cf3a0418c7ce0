/**
 * Field values of pages and collection items, checked against their definitions and brought
 * to their stored form. Used by writes (with reference checks) and when loading the data file.
 *
 * Stored forms: text types are strings; number a number or null; date an ISO string or null;
 * boolean a boolean or null; dropdown an option or ""; media `{url, alt}` or null; a single
 * reference a page slug / item id or null, a multiple one an array; component an object or
 * null; repeater an array of objects. "Unused optional fields are sent as empty strings"
 * (spec: POST /pages/ rule 1), so "" is the empty value of every type.
 */
import type { FieldDef, FieldValues, ReferenceFieldDef } from '../../store/schema.js';
import type { FieldErrors } from '../errors.js';
import { typeName } from '../field-errors.js';
import { mediaIdOf } from '../media/library.js';
import { messages } from '../messages.js';

export interface ReferenceCheck {
  pageExists(pageType: string, slug: string): boolean;
  itemExists(collection: string, id: number): boolean;
  /** A `media:<id>` value must name a file of the organization's library. */
  mediaExists(id: string): boolean;
}

export interface ValueCheck {
  /**
   * `all-keys`: every defined key must be present (page creation, spec rule 1);
   * `required-keys`: required keys must be present (collection item create and replace);
   * `partial`: only the keys given are checked (updates).
   */
  mode: 'all-keys' | 'required-keys' | 'partial';
  /** Existence of referenced pages and items; null skips the check (loading the data file). */
  references: ReferenceCheck | null;
  errors: FieldErrors;
}

const MEDIA_ALT_MAX = 255;

function fail(check: ValueCheck, path: string, message: string): undefined {
  (check.errors[path] ??= []).push(message);
  return undefined;
}

const isEmpty = (value: unknown): boolean => value === '' || value === null || (Array.isArray(value) && value.length === 0);

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Checks `input` against `defs`; returns the stored form of the values given. */
export function checkFieldValues(defs: readonly FieldDef[], input: Record<string, unknown>, path: string, check: ValueCheck): FieldValues {
  const out: FieldValues = {};
  const known = new Set(defs.map((d) => d.key));
  for (const key of Object.keys(input)) {
    if (!known.has(key)) fail(check, `${path}.${key}`, messages.unknownField);
  }
  for (const def of defs) {
    const at = `${path}.${def.key}`;
    if (!(def.key in input)) {
      if (check.mode === 'all-keys' || (check.mode === 'required-keys' && def.required)) fail(check, at, messages.required);
      continue;
    }
    const raw = input[def.key];
    if (def.required && (isEmpty(raw) || raw === undefined)) {
      fail(check, at, messages.blank);
      continue;
    }
    const value = checkValue(def, raw, at, check);
    if (value !== undefined) out[def.key] = value;
  }
  return out;
}

function checkValue(def: FieldDef, raw: unknown, at: string, check: ValueCheck): unknown {
  switch (def.type) {
    case 'short_text':
    case 'long_text':
    case 'html':
      if (raw === null) return '';
      return typeof raw === 'string' ? raw : fail(check, at, messages.notString);
    case 'number':
      if (isEmpty(raw)) return null;
      if (typeof raw === 'number' && Number.isFinite(raw)) return raw;
      if (typeof raw === 'string' && raw.trim() !== '' && Number.isFinite(Number(raw))) return Number(raw);
      return fail(check, at, messages.notNumber);
    case 'date':
      if (isEmpty(raw)) return null;
      return typeof raw === 'string' && isIsoDate(raw) ? raw : fail(check, at, messages.notDate);
    case 'boolean':
      if (isEmpty(raw)) return null;
      return typeof raw === 'boolean' ? raw : fail(check, at, messages.notBoolean);
    case 'dropdown':
      if (isEmpty(raw)) return '';
      return typeof raw === 'string' && def.options.includes(raw) ? raw : fail(check, at, messages.invalidChoice(String(raw)));
    case 'media':
      return checkMedia(raw, at, check);
    case 'reference':
      return checkReference(def, raw, at, check);
    case 'component':
      if (isEmpty(raw)) return null;
      if (!isPlainObject(raw)) return fail(check, at, messages.notObject(typeName(raw)));
      return checkFieldValues(def.fields, raw, at, { ...check, mode: 'partial' });
    case 'repeater': {
      if (isEmpty(raw)) return [];
      if (!Array.isArray(raw)) return fail(check, at, messages.notList(typeName(raw)));
      return raw.map((entry, i) =>
        isPlainObject(entry)
          ? checkFieldValues(def.fields, entry, `${at}[${i}]`, { ...check, mode: 'partial' })
          : fail(check, `${at}[${i}]`, messages.notObject(typeName(entry))),
      );
    }
  }
}

/** Spec: a media field is written as a URL string or `{url, alt}` (alt at most 255). */
function checkMedia(raw: unknown, at: string, check: ValueCheck): unknown {
  if (isEmpty(raw)) return null;
  const url = typeof raw === 'string' ? raw : isPlainObject(raw) ? raw['url'] : undefined;
  const alt = isPlainObject(raw) ? (raw['alt'] ?? null) : null;
  if (typeof url !== 'string' || !(isHttpUrl(url) || mediaIdOf(url) !== null))
    return fail(check, isPlainObject(raw) ? `${at}.url` : at, messages.invalidUrl);
  if (alt !== null && typeof alt !== 'string') return fail(check, `${at}.alt`, messages.notString);
  if (typeof alt === 'string' && alt.length > MEDIA_ALT_MAX) return fail(check, `${at}.alt`, messages.maxLength(MEDIA_ALT_MAX));
  const libraryId = mediaIdOf(url);
  if (libraryId !== null && check.references && !check.references.mediaExists(libraryId)) {
    return fail(check, isPlainObject(raw) ? `${at}.url` : at, messages.mediaMissing(libraryId));
  }
  return { url, alt };
}

function checkReference(def: ReferenceFieldDef, raw: unknown, at: string, check: ValueCheck): unknown {
  // Spec: clear a reference with "", [] or null by field type.
  if (isEmpty(raw)) return def.multiple ? [] : null;
  if (def.multiple) {
    const list = Array.isArray(raw) ? raw : [raw];
    const out = list.map((one, i) => checkOneReference(def, one, Array.isArray(raw) ? `${at}[${i}]` : at, check));
    return out.some((v) => v === undefined) ? undefined : out;
  }
  if (Array.isArray(raw)) return fail(check, at, messages.singleReference);
  return checkOneReference(def, raw, at, check);
}

function checkOneReference(def: ReferenceFieldDef, raw: unknown, at: string, check: ValueCheck): string | number | undefined {
  if ('page_type' in def.to) {
    const pageType = def.to.page_type;
    if (typeof raw !== 'string' || raw === '') return fail(check, at, messages.pageReferenceType);
    if (check.references && !check.references.pageExists(pageType, raw))
      return fail(check, at, messages.pageReferenceMissing(pageType, raw));
    return raw;
  }
  const collection = def.to.collection;
  const id = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id) || id <= 0) return fail(check, at, messages.itemReferenceType);
  if (check.references && !check.references.itemExists(collection, id))
    return fail(check, at, messages.itemReferenceMissing(collection, id));
  return id;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** A date (`2026-05-01`) or a date-time with a zone (`2026-05-01T09:00:00Z`). */
function isIsoDate(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2}))?$/.test(value) && !Number.isNaN(Date.parse(value));
}

export interface MediaUse {
  path: string;
  url: string;
  alt: string | null;
}

/** Every media URL in stored values, with its path and alt: for the 404 check and for downloads. */
export function mediaUrls(defs: readonly FieldDef[], values: FieldValues, path: string): MediaUse[] {
  const found: MediaUse[] = [];
  for (const def of defs) {
    const value = values[def.key];
    const at = `${path}.${def.key}`;
    if (def.type === 'media' && isPlainObject(value) && typeof value['url'] === 'string') {
      found.push({ path: at, url: value['url'], alt: typeof value['alt'] === 'string' ? value['alt'] : null });
    }
    if (def.type === 'component' && isPlainObject(value)) found.push(...mediaUrls(def.fields, value, at));
    if (def.type === 'repeater' && Array.isArray(value)) {
      value.forEach((entry, i) => {
        if (isPlainObject(entry)) found.push(...mediaUrls(def.fields, entry, `${at}[${i}]`));
      });
    }
  }
  return found;
}

export { isPlainObject };
