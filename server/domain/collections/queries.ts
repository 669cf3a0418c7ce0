/**
 * Collection reads (docs/spec-gaps.md: the spec shows none; modelled on the real service):
 * items of one or more collections, with `preview`, `locale`, `order` and `fields.*` filters,
 * and the `keys=name[_id=123]` selector that level-1 reference URIs use.
 */
import type { Collection, CollectionItem, Organization } from '../../store/schema.js';
import { badRequest } from '../errors.js';
import type { ContentReader } from '../content/reader.js';
import { checkFilterPath, compareForOrder, parseOrder, type FieldFilter } from '../content/list-options.js';
import { messages } from '../messages.js';
import { findCollection } from './input.js';

export interface KeySelector {
  key: string;
  /** `name[field=value]`: `_id` selects by item ID, anything else is a field filter. */
  filter: { field: string; value: string } | null;
}

/** Parses `a,b[_id=12]` into selectors; unknown collections are the real service's 404. */
export function parseKeys(org: Organization, keys: string): { collection: Collection; selector: KeySelector }[] {
  const parts = keys
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  return parts.map((part) => {
    const match = /^([^[\]]+)(?:\[([^=\]]+)=([^\]]*)\])?$/.exec(part);
    if (!match) throw badRequest(messages.keysParam(part));
    const [, key, field, value] = match;
    const collection = findCollection(org, key!);
    return { collection, selector: { key: key!, filter: field === undefined ? null : { field, value: value ?? '' } } };
  });
}

export interface ItemListRequest {
  filters: FieldFilter[];
  order: string | undefined;
  selector?: KeySelector['filter'];
}

export function listItems(org: Organization, reader: ContentReader, collection: Collection, request: ItemListRequest): CollectionItem[] {
  const filters = [...request.filters];
  let byId: number | null = null;
  if (request.selector) {
    if (request.selector.field === '_id') byId = Number(request.selector.value);
    else
      filters.push({
        param: `${collection.key}[${request.selector.field}]`,
        path: request.selector.field.split('.'),
        value: request.selector.value,
      });
  }
  for (const filter of filters) checkFilterPath(org, collection.fields, filter, `collection "${collection.key}"`);
  const order = parseOrder(request.order, collection.fields, ['published', 'updated']);

  const items = collection.items.filter(
    (item) =>
      reader.itemVisible(item) &&
      (byId === null || item.id === byId) &&
      filters.every((f) => reader.matches(collection.fields, reader.itemValues(item), f.path, f.value)),
  );
  if (!order) return items;
  const key = (item: CollectionItem): unknown =>
    order.key === 'published' ? item.created : order.key === 'updated' ? item.updated : reader.itemValues(item)[order.key];
  return items
    .map((item) => ({ item, key: key(item) }))
    .sort((a, b) => compareForOrder(a.key, b.key, order.descending) || a.item.id - b.item.id)
    .map((entry) => entry.item);
}
