/**
 * Request checks of collection writes (spec: POST /content/, PUT and PATCH
 * /content/{collection_key}/{item_id}/). The spec answers these writes with 202 and lists no
 * 400 for them: "validation … finish[es] in the background". So only the request's shape is
 * checked here (the collection key, `status`, `fields` as an object in a known locale form);
 * field values and references are validated by the job (collections/apply.ts).
 */
import type { Collection, Organization } from '../../store/schema.js';
import { fieldErrors, notFound, type FieldErrors } from '../errors.js';
import { isPlainObject } from '../content/field-values.js';
import { splitWrittenFields } from '../content/locales.js';
import type { LocaleChanges } from '../content/merge.js';
import { typeName } from '../field-errors.js';
import { messages } from '../messages.js';

export interface ItemWriteInput {
  status?: 'published' | 'draft';
  /** Unvalidated values per locale; the job checks them against the schema. */
  changes: LocaleChanges;
}

export function findCollection(org: Organization, key: string): Collection {
  const collection = org.collections.find((c) => c.key === key);
  if (!collection) throw notFound(messages.collectionNotFound(key));
  return collection;
}

function status(body: Record<string, unknown>, errors: FieldErrors): 'published' | 'draft' | undefined {
  const value = body['status'];
  if (value === undefined) return undefined;
  if (value === 'published' || value === 'draft') return value;
  errors['status'] = [messages.itemStatusChoice(String(value))];
  return undefined;
}

/** `fieldsRequired`: POST and PUT need `fields`; PATCH may omit it. */
export function parseItemWrite(
  org: Organization,
  collection: Collection,
  body: Record<string, unknown>,
  locale: string | undefined,
  fieldsRequired: boolean,
): ItemWriteInput {
  const errors: FieldErrors = {};
  const itemStatus = status(body, errors);
  const fields = body['fields'];
  let changes: LocaleChanges = [];
  if (fields === undefined || fields === null) {
    if (fieldsRequired) errors['fields'] = [fields === null ? messages.notNull : messages.required];
  } else if (!isPlainObject(fields)) {
    errors['fields'] = [messages.notObject(typeName(fields))];
  } else {
    const keys = new Set(collection.fields.map((d) => d.key));
    // Collections have no "needs the locale" rule: a flat body goes to the default locale.
    const byLocale = splitWrittenFields(org, fields, keys, { locale, defaultLocale: true }, errors);
    if (byLocale) changes = [...byLocale].map(([loc, values]) => ({ locale: loc, values }));
  }
  if (Object.keys(errors).length > 0) throw fieldErrors(errors);
  return itemStatus ? { status: itemStatus, changes } : { changes };
}

/** POST /content/ names its collection with a body field `key` (the official SDKs send it). */
export function collectionKeyOf(body: Record<string, unknown>): string {
  const key = body['key'];
  if (key === undefined || key === null || key === '') throw fieldErrors({ key: [messages.required] });
  if (typeof key !== 'string') throw fieldErrors({ key: [messages.notString] });
  return key;
}
