/** Field values as stored: flat, or nested by locale slug when the organization has locales. */
import type { FieldDef } from '../../api/types.js';
import { isObject } from './media.js';

export type Values = Record<string, unknown>;

/** The values of one locale (or the flat values of an organization without locales). */
export function localized(fields: Values | undefined, locale: string | null): Values {
  if (!fields) return {};
  if (locale === null) return fields;
  const values = fields[locale];
  return isObject(values) ? values : {};
}

export function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The definitions in order, then any stored key no definition names (shown, not hidden). */
export function rowsOf(defs: FieldDef[], ...values: Values[]): { key: string; def: FieldDef | null }[] {
  const rows: { key: string; def: FieldDef | null }[] = defs.map((def) => ({ key: def.key, def }));
  const known = new Set(defs.map((d) => d.key));
  for (const v of values)
    for (const key of Object.keys(v))
      if (!known.has(key)) {
        known.add(key);
        rows.push({ key, def: null });
      }
  return rows;
}

export const labelOf = (key: string, def: FieldDef | null) => def?.name ?? key;
