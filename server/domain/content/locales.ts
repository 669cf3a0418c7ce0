/**
 * Locales of structured content (spec: Page, rules for `fields`). Without locales, content is
 * one flat object; with them it is nested under locale slugs. Writes may use either form on a
 * localized organization: flat plus a locale (query `locale`), or nested by locale.
 */
import type { FieldValues, Organization } from '../../store/schema.js';
import { badRequest, type FieldErrors } from '../errors.js';
import { messages } from '../messages.js';
import { isPlainObject } from './field-values.js';

export const isLocalized = (org: Organization): boolean => org.locales.length > 0;

/** The locale a read uses: the one asked for, else the default; null without locales. */
export function readLocale(org: Organization, asked: string | undefined): string | null {
  if (!isLocalized(org)) {
    if (asked !== undefined) throw badRequest(messages.noLocalesRead);
    return null;
  }
  if (asked === undefined) return org.default_locale;
  if (!org.locales.some((l) => l.slug === asked)) throw badRequest(messages.unknownLocale(asked, localeList(org)));
  return asked;
}

/** Values of one locale from stored content; flat content is returned as it is. */
export function valuesIn(org: Organization, content: FieldValues, locale: string | null): FieldValues {
  if (!isLocalized(org) || locale === null) return content;
  const values = content[locale];
  return isPlainObject(values) ? values : {};
}

/** Written values split by locale; the key is null for an organization without locales. */
export type WrittenByLocale = Map<string | null, Record<string, unknown>>;

export interface SplitOptions {
  /** `locale` from the query, for the single-locale form. */
  locale: string | undefined;
  /** Page creation defaults a missing locale; updates need it (spec: PATCH /pages/ rule 4). */
  defaultLocale: boolean;
}

/**
 * Detects the form of a written `fields` object: nested when it is non-empty, every value is an
 * object and no key is a field key; flat otherwise. Errors go to `errors` under `fields`/`locale`.
 */
export function splitWrittenFields(
  org: Organization,
  fields: Record<string, unknown>,
  fieldKeys: ReadonlySet<string>,
  options: SplitOptions,
  errors: FieldErrors,
): WrittenByLocale | null {
  const keys = Object.keys(fields);
  const nested = keys.length > 0 && keys.every((k) => !fieldKeys.has(k) && isPlainObject(fields[k]));
  const configured = new Set(org.locales.map((l) => l.slug));

  if (nested) {
    const known = keys.filter((k) => configured.has(k));
    if (known.length === 0) {
      errors['fields'] = [messages.noConfiguredLocale(keys, localeList(org))];
      return null;
    }
    const unknown = keys.filter((k) => !configured.has(k));
    if (unknown.length > 0) {
      errors['fields'] = [messages.unknownLocaleKeys(unknown, localeList(org))];
      return null;
    }
    return new Map(known.map((k) => [k, fields[k] as Record<string, unknown>]));
  }

  if (!isLocalized(org)) {
    if (options.locale !== undefined) {
      errors['locale'] = [messages.noLocales];
      return null;
    }
    return new Map([[null, fields]]);
  }
  if (options.locale === undefined && !options.defaultLocale) {
    errors['locale'] = [messages.localeNeeded];
    return null;
  }
  const locale = options.locale ?? org.default_locale;
  if (locale === null || !configured.has(locale)) {
    errors['locale'] = [messages.unknownLocale(String(locale), localeList(org))];
    return null;
  }
  return new Map([[locale, fields]]);
}

function localeList(org: Organization): string {
  return org.locales.map((l) => l.slug).join(', ') || '(none)';
}
