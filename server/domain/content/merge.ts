/**
 * Applying written values to stored content (spec: PATCH /pages/ rules 1-2; PATCH /content/):
 * unlisted fields and locales keep their values, repeaters are replaced whole, components merge.
 */
import type { FieldDef, FieldValues, Organization } from '../../store/schema.js';
import { isPlainObject } from './field-values.js';
import { isLocalized } from './locales.js';

/** Values to write, per locale (null: an organization without locales). */
export type LocaleChanges = { locale: string | null; values: FieldValues }[];

/** Repeaters and every other value are replaced; components merge, so unlisted subfields stay. */
function mergeValues(defs: readonly FieldDef[], current: FieldValues, changes: FieldValues): FieldValues {
  const out: FieldValues = { ...current };
  for (const [key, value] of Object.entries(changes)) {
    const def = defs.find((d) => d.key === key);
    const old = current[key];
    out[key] = def?.type === 'component' && isPlainObject(old) && isPlainObject(value) ? mergeValues(def.fields, old, value) : value;
  }
  return out;
}

export function applyChanges(org: Organization, defs: readonly FieldDef[], content: FieldValues, changes: LocaleChanges): FieldValues {
  let out: FieldValues = structuredClone(content);
  for (const { locale, values } of changes) {
    if (locale === null || !isLocalized(org)) {
      out = mergeValues(defs, out, values);
    } else {
      const current = isPlainObject(out[locale]) ? out[locale] : {};
      out[locale] = mergeValues(defs, current, values);
    }
  }
  return out;
}

/** Replaces whole locales (or the whole flat content): PUT of collection items. */
export function replaceContent(org: Organization, content: FieldValues, changes: LocaleChanges): FieldValues {
  if (!isLocalized(org)) return structuredClone(changes[0]?.values ?? {});
  const out: FieldValues = structuredClone(content);
  for (const { locale, values } of changes) if (locale !== null) out[locale] = structuredClone(values);
  return out;
}
