/**
 * What collection jobs do (spec: POST, PUT, PATCH, DELETE /content/): validate the values
 * against the collection's schema (with references), then create, replace or merge. A job that
 * fails leaves the store untouched and records every field problem in its reason.
 */
import type { Collection, CollectionItem, FieldValues, Organization } from '../../store/schema.js';
import { WriteFailure, type FieldErrors } from '../errors.js';
import { checkFieldValues } from '../content/field-values.js';
import { applyChanges, replaceContent, type LocaleChanges } from '../content/merge.js';
import { referenceCheck } from '../content/references.js';
import { messages } from '../messages.js';
import type { ItemWriteInput } from './input.js';

function collectionOf(org: Organization, key: string): Collection {
  const collection = org.collections.find((c) => c.key === key);
  if (!collection) throw new WriteFailure(messages.collectionNotFound(key));
  return collection;
}

function validated(org: Organization, collection: Collection, changes: LocaleChanges, mode: 'required-keys' | 'partial'): LocaleChanges {
  const errors: FieldErrors = {};
  const references = referenceCheck(org);
  const out = changes.map(({ locale, values }) => ({
    locale,
    values: checkFieldValues(collection.fields, values, locale === null ? 'fields' : `fields.${locale}`, { mode, references, errors }),
  }));
  const problems = Object.entries(errors).map(([path, list]) => `${path}: ${list.join(' ')}`);
  if (problems.length > 0) throw new WriteFailure(messages.itemValidationFailed(problems.join('; ')));
  return out;
}

/** The item and the validated values written (whose remote media the caller downloads). */
/** The next free item id, counting ids already reserved by accepted creates. */
export function nextItemId(org: Organization, reserved: readonly number[]): number {
  const highest = org.collections.flatMap((c) => c.items).reduce((max, i) => Math.max(max, i.id), 0);
  return Math.max(highest, ...reserved) + 1;
}

export function applyItemCreate(
  org: Organization,
  collectionKey: string,
  id: number,
  input: ItemWriteInput,
  now: string,
): { item: CollectionItem; changes: LocaleChanges } {
  const collection = collectionOf(org, collectionKey);
  if (org.collections.some((c) => c.items.some((i) => i.id === id))) throw new WriteFailure(messages.jobItemExists(id));
  const changes = validated(org, collection, input.changes, 'required-keys');
  const item: CollectionItem = {
    id,
    status: input.status ?? 'draft',
    fields: applyChanges(org, collection.fields, {}, changes),
    created: now,
    updated: now,
    deleted: null,
  };
  collection.items.push(item);
  return { item, changes };
}

export function applyItemUpdate(
  org: Organization,
  collectionKey: string,
  itemId: number,
  input: ItemWriteInput,
  replace: boolean,
  now: string,
): { before: CollectionItem; after: CollectionItem; changes: LocaleChanges } {
  const collection = collectionOf(org, collectionKey);
  const item = collection.items.find((i) => i.id === itemId && i.deleted === null);
  if (!item) throw new WriteFailure(messages.jobItemGone);
  const changes = validated(org, collection, input.changes, replace ? 'required-keys' : 'partial');
  const before = structuredClone(item);
  const fields: FieldValues = replace
    ? replaceContent(org, item.fields, changes)
    : applyChanges(org, collection.fields, item.fields, changes);
  item.fields = fields;
  if (input.status) item.status = input.status;
  item.updated = now;
  return { before, after: structuredClone(item), changes };
}

export function applyItemDelete(item: CollectionItem, now: string): CollectionItem {
  item.deleted = now;
  item.updated = now;
  return structuredClone(item);
}
