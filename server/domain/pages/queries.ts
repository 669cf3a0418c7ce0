/**
 * Page lists (spec: GET /pages/{page_type}/): visibility, `fields.*` filters and `order`.
 * Filters and order exist only for real page types, not for `*` (Single Pages).
 * Lists come from the organization's read index (content/read-index.ts): the pages a read sees
 * and their order are kept per revision, so only `fields.*` filters look at each page.
 */
import type { FieldDef, Organization, Page } from '../../store/schema.js';
import { badRequest, notFound } from '../errors.js';
import type { ContentReader } from '../content/reader.js';
import { messages } from '../messages.js';
import { checkFilterPath, compareForOrder, parseOrder, type FieldFilter, type Order } from '../content/list-options.js';
import { pagesOfType, remember } from '../content/read-index.js';

export interface PageListRequest {
  pageType: string;
  filters: FieldFilter[];
  order: string | undefined;
}

/** Pages a list shows, in order; throws the spec's 404 for an unknown page type. */
export function listPages(org: Organization, reader: ContentReader, request: PageListRequest): readonly Page[] {
  const single = request.pageType === '*';
  let defs: readonly FieldDef[] = [];
  if (single) {
    if (request.filters.length > 0 || request.order !== undefined) throw badRequest(messages.singlePageFilters);
  } else {
    const type = org.page_types.find((t) => t.key === request.pageType);
    if (!type) throw notFound(messages.pageTypeNotFound);
    defs = type.fields;
    for (const filter of request.filters) checkFilterPath(org, defs, filter, `page type "${type.key}"`);
  }
  const order = parseOrder(request.order, defs, ['published', 'updated']);
  const pages = order ? orderedPages(reader, request.pageType, order) : visiblePages(reader, single ? null : request.pageType);
  if (request.filters.length === 0) return pages;
  // Filtering keeps the order: filtering an ordered list gives what ordering the filtered one gives.
  return pages.filter((page) => {
    const values = reader.pageValues(page)!;
    return request.filters.every((f) => reader.matches(defs, values, f.path, f.value));
  });
}

/** The live pages of a type that this read sees (with or without preview), in file order. */
function visiblePages(reader: ContentReader, pageType: string | null): readonly Page[] {
  const key = JSON.stringify(['pages', pageType, reader.options.preview]);
  return remember(reader.index, key, () => pagesOfType(reader.index, pageType).filter((page) => reader.visibleVersion(page) !== null));
}

/** Ties, and pages without a value, keep the order of their ids. */
function orderedPages(reader: ContentReader, pageType: string, order: Order): readonly Page[] {
  const { preview, locale } = reader.options;
  const key = JSON.stringify(['pages', pageType, preview, locale, order.key, order.descending]);
  return remember(reader.index, key, () => {
    const sortKey = (page: Page): unknown => {
      if (order.key === 'published' || order.key === 'updated') return page[order.key];
      return reader.pageValues(page)?.[order.key];
    };
    return visiblePages(reader, pageType)
      .map((page) => ({ page, key: sortKey(page) }))
      .sort((a, b) => compareForOrder(a.key, b.key, order.descending) || a.page.id - b.page.id)
      .map((entry) => entry.page);
  });
}
