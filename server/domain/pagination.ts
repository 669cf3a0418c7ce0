/**
 * Pagination envelopes (spec: Pagination envelope). Page-based meta is `{count, next_page,
 * previous_page}`; offset-based meta is `{count, next_offset, previous_offset}`. The two pairs
 * of parameters are mutually exclusive; a page number past the last page is a 404.
 */
import { badRequest, notFound } from './errors.js';
import { messages } from './messages.js';

export const DEFAULT_PAGE_SIZE = 10;

export type PageRequest = { style: 'page'; page: number; pageSize: number } | { style: 'offset'; limit: number; offset: number };

export type PageMeta = { count: number; next_page: number | null; previous_page: number | null };
export type OffsetMeta = { count: number; next_offset: number | null; previous_offset: number | null };
export type ListEnvelope<T> = { meta: PageMeta | OffsetMeta; data: T[] };

export function pageRequest(q: { page?: number; page_size?: number; limit?: number; offset?: number }): PageRequest {
  const pageStyle = q.page !== undefined || q.page_size !== undefined;
  const offsetStyle = q.limit !== undefined || q.offset !== undefined;
  if (pageStyle && offsetStyle) throw badRequest(messages.paginationConflict);
  if (offsetStyle) return { style: 'offset', limit: q.limit ?? DEFAULT_PAGE_SIZE, offset: q.offset ?? 0 };
  return { style: 'page', page: q.page ?? 1, pageSize: q.page_size ?? DEFAULT_PAGE_SIZE };
}

/** Slices `items` and builds the matching meta; `map` runs only on the items of the page. */
export function paginate<T, U>(items: readonly T[], request: PageRequest, map: (item: T) => U): ListEnvelope<U> {
  const count = items.length;
  if (request.style === 'offset') {
    const { limit, offset } = request;
    return {
      meta: {
        count,
        next_offset: offset + limit < count ? offset + limit : null,
        previous_offset: offset > 0 ? Math.max(0, Math.min(offset, count) - limit) : null,
      },
      data: items.slice(offset, offset + limit).map(map),
    };
  }
  const { page, pageSize } = request;
  const lastPage = Math.max(1, Math.ceil(count / pageSize));
  if (page > lastPage) throw notFound(messages.invalidPage);
  return {
    meta: {
      count,
      next_page: page < lastPage ? page + 1 : null,
      previous_page: page > 1 ? page - 1 : null,
    },
    data: items.slice((page - 1) * pageSize, page * pageSize).map(map),
  };
}
