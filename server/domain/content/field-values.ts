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
  /**
   * Loading the data file: where the input is already in stored form, return it (and its nested
   * objects) instead of a copy, so a large file is not copied value by value. Writes leave this
   * off: their stored values never share objects with the request they came from.
   */
  keepStoredForm?: boolean;
  /**
   * The keys of each list of definitions, kept across the values checked with this object
   * (loading checks thousands of values against the same definitions; none change meanwhile).
   */
  definedKeys?: Map<readonly FieldDef[], ReadonlySet<string>>;
}

const MEDIA_ALT_MAX = 255;

function fail(check: ValueCheck, path: string, message: string): undefined {
  (check.errors[path] ??= []).push(message);
  return undefined;
}

const isEmpty = (value: unknown): boolean => value === '' || value === null || (Array.isArray(value) && value.length === 0);

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function definedKeys(defs: readonly FieldDef[], check: ValueCheck): ReadonlySet<string> {
  let keys = check.definedKeys?.get(defs);
  if (!keys) {
    keys = new Set(defs.map((d) => d.key));
    check.definedKeys?.set(defs, keys);
  }
  return keys;
}

/** Checks `input` against `defs`; returns the stored form of the values given. */
export function checkFieldValues(defs: readonly FieldDef[], input: Record<string, unknown>, path: string, check: ValueCheck): FieldValues {
  return checkObject(defs, input, path, check, check.mode);
}

/**
 * The stored form has the defined keys given, in the order of the definitions. With
 * keepStoredForm, `out` stays null while the input matches it key for key (`kept` keys so far);
 * at the first difference the kept keys are copied and the rest is built as usual.
 */
function checkObject(
  defs: readonly FieldDef[],
  input: Record<string, unknown>,
  path: string,
  check: ValueCheck,
  mode: ValueCheck['mode'],
): FieldValues {
  const keys = Object.keys(input);
  const known = definedKeys(defs, check);
  for (const key of keys) {
    if (!known.has(key)) fail(check, `${path}.${key}`, messages.unknownField);
  }
  let out: FieldValues | null = check.keepStoredForm ? null : {};
  let kept = 0;
  for (const def of defs) {
    if (!(def.key in input)) {
      if (mode === 'all-keys' || (mode === 'required-keys' && def.required)) fail(check, `${path}.${def.key}`, messages.required);
      continue;
    }
    const raw = input[def.key];
    let value: unknown;
    if (def.required && (isEmpty(raw) || raw === undefined)) value = fail(check, `${path}.${def.key}`, messages.blank);
    else value = checkValue(def, raw, path, check);
    if (out === null) {
      if (value === raw && value !== undefined && keys[kept] === def.key) {
        kept += 1;
        continue;
      }
      out = copyKept(input, keys, kept);
    }
    if (value !== undefined) out[def.key] = value;
  }
  if (out === null) return kept === keys.length ? input : copyKept(input, keys, kept);
  return out;
}

function copyKept(input: Record<string, unknown>, keys: readonly string[], kept: number): FieldValues {
  const out: FieldValues = {};
  for (let i = 0; i < kept; i++) out[keys[i]!] = input[keys[i]!];
  return out;
}

/** `path` is the path of the object holding the value: its own path is built only when needed. */
function checkValue(def: FieldDef, raw: unknown, path: string, check: ValueCheck): unknown {
  switch (def.type) {
    case 'short_text':
    case 'long_text':
    case 'html':
      if (raw === null) return '';
      return typeof raw === 'string' ? raw : fail(check, `${path}.${def.key}`, messages.notString);
    case 'number':
      if (isEmpty(raw)) return null;
      if (typeof raw === 'number' && Number.isFinite(raw)) return raw;
      if (typeof raw === 'string' && raw.trim() !== '' && Number.isFinite(Number(raw))) return Number(raw);
      return fail(check, `${path}.${def.key}`, messages.notNumber);
    case 'date':
      if (isEmpty(raw)) return null;
      return typeof raw === 'string' && isIsoDate(raw) ? raw : fail(check, `${path}.${def.key}`, messages.notDate);
    case 'boolean':
      if (isEmpty(raw)) return null;
      return typeof raw === 'boolean' ? raw : fail(check, `${path}.${def.key}`, messages.notBoolean);
    case 'dropdown':
      if (isEmpty(raw)) return '';
      return typeof raw === 'string' && def.options.includes(raw)
        ? raw
        : fail(check, `${path}.${def.key}`, messages.invalidChoice(String(raw)));
    case 'media':
      return checkMedia(raw, `${path}.${def.key}`, check);
    case 'reference':
      return checkReference(def, raw, `${path}.${def.key}`, check);
    case 'component':
      if (isEmpty(raw)) return null;
      if (!isPlainObject(raw)) return fail(check, `${path}.${def.key}`, messages.notObject(typeName(raw)));
      return checkObject(def.fields, raw, `${path}.${def.key}`, check, 'partial');
    case 'repeater': {
      if (isEmpty(raw)) return [];
      const at = `${path}.${def.key}`;
      if (!Array.isArray(raw)) return fail(check, at, messages.notList(typeName(raw)));
      const out = raw.map((entry: unknown, i) =>
        isPlainObject(entry)
          ? checkObject(def.fields, entry, `${at}[${i}]`, check, 'partial')
          : fail(check, `${at}[${i}]`, messages.notObject(typeName(entry))),
      );
      return check.keepStoredForm && sameItems(raw, out) ? raw : out;
    }
  }
}

const sameItems = (a: readonly unknown[], b: readonly unknown[]): boolean => a.every((value, i) => value !== undefined && value === b[i]);

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
  if (check.keepStoredForm && isPlainObject(raw) && raw['alt'] === alt && isMediaShape(raw)) return raw;
  return { url, alt };
}

/** Exactly `{url, alt}`, in that order: the stored form of a media value. */
function isMediaShape(value: Record<string, unknown>): boolean {
  const keys = Object.keys(value);
  return keys.length === 2 && keys[0] === 'url' && keys[1] === 'alt';
}

function checkReference(def: ReferenceFieldDef, raw: unknown, at: string, check: ValueCheck): unknown {
  // Spec: clear a reference with "", [] or null by field type.
  if (isEmpty(raw)) return def.multiple ? [] : null;
  if (def.multiple) {
    const list = Array.isArray(raw) ? raw : [raw];
    const out = list.map((one, i) => checkOneReference(def, one, Array.isArray(raw) ? `${at}[${i}]` : at, check));
    if (out.some((v) => v === undefined)) return undefined;
    return check.keepStoredForm && Array.isArray(raw) && sameItems(raw, out) ? raw : out;
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
