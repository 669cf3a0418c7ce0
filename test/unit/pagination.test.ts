import { describe, expect, it } from 'vitest';
import { ApiError } from '../../server/domain/errors.js';
import { pageRequest, paginate } from '../../server/domain/pagination.js';

const items = Array.from({ length: 25 }, (_, i) => i + 1);
const id = (n: number) => n;

describe('pageRequest', () => {
  it('defaults to page 1 of 10', () => {
    expect(pageRequest({})).toEqual({ style: 'page', page: 1, pageSize: 10 });
  });
  it('uses offset style when limit or offset is given', () => {
    expect(pageRequest({ offset: 5 })).toEqual({ style: 'offset', limit: 10, offset: 5 });
  });
  it('refuses mixing the two pairs', () => {
    expect(() => pageRequest({ page: 1, limit: 5 })).toThrow(ApiError);
  });
});

describe('paginate', () => {
  it('builds page meta', () => {
    expect(paginate(items, { style: 'page', page: 2, pageSize: 10 }, id)).toEqual({
      meta: { count: 25, next_page: 3, previous_page: 1 },
      data: [11, 12, 13, 14, 15, 16, 17, 18, 19, 20],
    });
    expect(paginate(items, { style: 'page', page: 3, pageSize: 10 }, id).meta).toEqual({ count: 25, next_page: null, previous_page: 2 });
  });

  it('answers 404 past the last page but 200 for page 1 of nothing', () => {
    const past = () => paginate(items, { style: 'page', page: 4, pageSize: 10 }, id);
    expect(past).toThrow(expect.objectContaining({ status: 404 }));
    expect(paginate([], { style: 'page', page: 1, pageSize: 10 }, id).meta).toEqual({ count: 0, next_page: null, previous_page: null });
  });

  it('builds offset meta', () => {
    expect(paginate(items, { style: 'offset', limit: 10, offset: 0 }, id).meta).toEqual({
      count: 25,
      next_offset: 10,
      previous_offset: null,
    });
    expect(paginate(items, { style: 'offset', limit: 10, offset: 5 }, id).meta).toEqual({ count: 25, next_offset: 15, previous_offset: 0 });
    expect(paginate(items, { style: 'offset', limit: 10, offset: 20 }, id)).toEqual({
      meta: { count: 25, next_offset: null, previous_offset: 10 },
      data: [21, 22, 23, 24, 25],
    });
  });

  it('gives an empty page past the end in offset style', () => {
    expect(paginate(items, { style: 'offset', limit: 10, offset: 40 }, id)).toEqual({
      meta: { count: 25, next_offset: null, previous_offset: 15 },
      data: [],
    });
  });

  it('maps only the items of the page', () => {
    let calls = 0;
    paginate(items, { style: 'page', page: 1, pageSize: 3 }, (n) => ((calls += 1), n));
    expect(calls).toBe(3);
  });
});
