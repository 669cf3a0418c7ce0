/**
 * Page lists (spec: GET /pages/{page_type}/): visibility, `fields.*` filters and `order`.
 * Filters and order exist only for real page types, not for `*` (Single Pages).
 */
import type { FieldDef, Organization, Page } from '../../store/schema.js';
import { badRequest, notFound } from '../errors.js';
import type { ContentReader } from '../content/reader.js';
import { messages } from '../messages.js';
import { checkFilterPath, compareForOrder, parseOrder, type FieldFilter } from '../content/list-options.js';

export interface PageListRequest {
  pageType: string;
  filters: FieldFilter[];
  order: string | undefined;
}

/** Pages a list shows, in order; throws the spec's 404 for an unknown page type. */
export function listPages(org: Organization, reader: ContentReader, request: PageListRequest): Page[] {
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

  const pages = org.pages.filter((page) => {
    if (single ? page.page_type !== null : page.page_type !== request.pageType) return false;
    const values = reader.pageValues(page);
    if (values === null) return false;
    return request.filters.every((f) => reader.matches(defs, values, f.path, f.value));
  });
  if (!order) return pages;
  const key = (page: Page): unknown => {
    if (order.key === 'published' || order.key === 'updated') return page[order.key];
    return reader.pageValues(page)?.[order.key];
  };
  return pages
    .map((page) => ({ page, key: key(page) }))
    .sort((a, b) => compareForOrder(a.key, b.key, order.descending) || a.page.id - b.page.id)
    .map((entry) => entry.page);
}
