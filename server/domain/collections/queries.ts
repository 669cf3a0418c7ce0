/**
 * Collection reads (docs/spec-gaps.md: the spec shows none; modelled on the real service):
 * items of one or more collections, with `preview`, `locale`, `order` and `fields.*` filters,
 * and the `keys=name[_id=123]` selector that level-1 reference URIs use.
 * Lists come from the organization's read index (content/read-index.ts): the items a read sees
 * and their order are kept per revision, so only `fields.*` filters look at each item.
 */
import type { Collection, CollectionItem, Organization } from '../../store/schema.js';
import { badRequest } from '../errors.js';
import type { ContentReader } from '../content/reader.js';
import { checkFilterPath, compareForOrder, parseOrder, type FieldFilter, type Order } from '../content/list-options.js';
import { itemIndex, remember, type ContentIndex } from '../content/read-index.js';
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

export function listItems(
  org: Organization,
  reader: ContentReader,
  collection: Collection,
  request: ItemListRequest,
): readonly CollectionItem[] {
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

  let items: readonly CollectionItem[];
  if (byId !== null) {
    // Item ids are unique: the selector's item, if this read sees it.
    const item = itemIndex(reader.index, collection).byId.get(byId);
    items = item && reader.itemVisible(item) ? [item] : [];
  } else {
    items = order ? orderedItems(reader, collection, order) : visibleItems(reader, collection);
  }
  if (filters.length === 0) return items;
  // Filtering keeps the order: filtering an ordered list gives what ordering the filtered one gives.
  return items.filter((item) => filters.every((f) => reader.matches(collection.fields, reader.itemValues(item), f.path, f.value)));
}

/** A live (not deleted) item of a collection by id, whatever its status. */
export function findLiveItem(index: ContentIndex, collection: Collection, id: number): CollectionItem | undefined {
  return itemIndex(index, collection).byId.get(id);
}

/** Live items this read sees (drafts only with preview), in file order. */
function visibleItems(reader: ContentReader, collection: Collection): readonly CollectionItem[] {
  const key = JSON.stringify(['items', collection.key, reader.options.preview]);
  return remember(reader.index, key, () => itemIndex(reader.index, collection).live.filter((item) => reader.itemVisible(item)));
}

/** `published` orders by creation (the real service's name for it); ties keep the order of ids. */
function orderedItems(reader: ContentReader, collection: Collection, order: Order): readonly CollectionItem[] {
  const { preview, locale } = reader.options;
  const key = JSON.stringify(['items', collection.key, preview, locale, order.key, order.descending]);
  return remember(reader.index, key, () => {
    const sortKey = (item: CollectionItem): unknown =>
      order.key === 'published' ? item.created : order.key === 'updated' ? item.updated : reader.itemValues(item)[order.key];
    return visibleItems(reader, collection)
      .map((item) => ({ item, key: sortKey(item) }))
      .sort((a, b) => compareForOrder(a.key, b.key, order.descending) || a.item.id - b.item.id)
      .map((entry) => entry.item);
  });
}
