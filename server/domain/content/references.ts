/**
 * References between structured content: existence checks for writes, and the cleanup that
 * follows a delete (spec: DELETE /content/ "reference cleanup run in the background").
 */
import type { FieldDef, FieldValues, Organization } from '../../store/schema.js';
import type { ReferenceCheck } from './field-values.js';
import { isPlainObject } from './field-values.js';

/** References may point to drafts: only deleted pages and items are missing. */
export function referenceCheck(org: Organization): ReferenceCheck {
  return {
    pageExists: (pageType, slug) => org.pages.some((p) => p.page_type === pageType && p.slug === slug && p.deleted === null),
    itemExists: (collection, id) =>
      org.collections.some((c) => c.key === collection && c.items.some((i) => i.id === id && i.deleted === null)),
    mediaExists: (id) => org.media.some((m) => m.id === id),
  };
}

export type Target = { collection: string; id: number } | { page_type: string; slug: string };

function pointsAt(def: FieldDef, target: Target): boolean {
  if (def.type !== 'reference') return false;
  return 'collection' in target
    ? 'collection' in def.to && def.to.collection === target.collection
    : 'page_type' in def.to && def.to.page_type === target.page_type;
}

const same = (value: unknown, target: Target): boolean => ('collection' in target ? Number(value) === target.id : value === target.slug);

/** Removes references to `target` from values (in place); true when anything changed. */
function dropReferences(defs: readonly FieldDef[], values: FieldValues, target: Target): boolean {
  let changed = false;
  for (const def of defs) {
    const value = values[def.key];
    if (pointsAt(def, target)) {
      if (Array.isArray(value)) {
        const kept = value.filter((v) => !same(v, target));
        if (kept.length !== value.length) {
          values[def.key] = kept;
          changed = true;
        }
      } else if (value !== null && value !== undefined && same(value, target)) {
        values[def.key] = null;
        changed = true;
      }
    } else if (def.type === 'component' && isPlainObject(value)) {
      changed = dropReferences(def.fields, value, target) || changed;
    } else if (def.type === 'repeater' && Array.isArray(value)) {
      for (const entry of value) if (isPlainObject(entry)) changed = dropReferences(def.fields, entry, target) || changed;
    }
  }
  return changed;
}

/** Applies dropReferences to every locale of stored content. */
function dropFromContent(org: Organization, defs: readonly FieldDef[], content: FieldValues, target: Target): boolean {
  if (org.locales.length === 0) return dropReferences(defs, content, target);
  let changed = false;
  for (const values of Object.values(content)) if (isPlainObject(values)) changed = dropReferences(defs, values, target) || changed;
  return changed;
}

/** Removes every reference to `target` in the organization's pages and items; counts what changed. */
export function cleanUpReferences(org: Organization, target: Target): { pages: number; items: number } {
  let pages = 0;
  let items = 0;
  for (const page of org.pages) {
    const defs = page.page_type === null ? (page.definition ?? []) : (org.page_types.find((t) => t.key === page.page_type)?.fields ?? []);
    let changed = false;
    for (const version of [page.published_version, page.draft_version]) {
      if (version) changed = dropFromContent(org, defs, version.fields, target) || changed;
    }
    if (changed) pages += 1;
  }
  for (const collection of org.collections) {
    for (const item of collection.items) if (dropFromContent(org, collection.fields, item.fields, target)) items += 1;
  }
  return { pages, items };
}
