/**
 * The answers kept while the store's revision holds (server/http/answer-cache.ts): gone when the
 * revision moves; a full cache keeps what it has and takes nothing more; with admitOnSecondAsk an
 * answer is taken only the second time its key is offered at a revision.
 */
import { describe, expect, it } from 'vitest';
import { AnswerCache } from '../../server/http/answer-cache.js';

const answer = (bytes: number) => ({ body: Buffer.alloc(bytes) });

describe('AnswerCache', () => {
  it('keeps answers for their revision only', () => {
    const cache = new AnswerCache({ maxEntries: 10, maxBytes: 1000 });
    const a = answer(10);
    expect(cache.offer(1, 'a', a)).toBe(true);
    expect(cache.get(1, 'a')).toBe(a);
    expect(cache.get(2, 'a')).toBeUndefined();
    // Asked at the newer revision, the old answers are gone for good.
    expect(cache.get(1, 'a')).toBeUndefined();
  });

  it('when full by number, keeps what it has and takes nothing more until the revision moves', () => {
    const cache = new AnswerCache({ maxEntries: 2, maxBytes: 1000 });
    const [a, b] = [answer(1), answer(1)];
    expect(cache.offer(1, 'a', a)).toBe(true);
    expect(cache.offer(1, 'b', b)).toBe(true);
    expect(cache.offer(1, 'c', answer(1))).toBe(false);
    expect([cache.get(1, 'a'), cache.get(1, 'b'), cache.get(1, 'c')]).toEqual([a, b, undefined]);
    expect(cache.offer(2, 'c', answer(1))).toBe(true);
    expect(cache.get(2, 'c')).toBeDefined();
    expect(cache.get(2, 'a')).toBeUndefined();
  });

  it('when full by bytes, still takes an answer that fits', () => {
    const cache = new AnswerCache({ maxEntries: 10, maxBytes: 100 });
    expect(cache.offer(1, 'a', answer(60))).toBe(true);
    expect(cache.offer(1, 'b', answer(50))).toBe(false);
    expect(cache.offer(1, 'c', answer(40))).toBe(true);
    expect(cache.offer(1, 'd', answer(1))).toBe(false);
    expect([cache.get(1, 'a'), cache.get(1, 'b'), cache.get(1, 'c')].map((x) => x?.body.length)).toEqual([60, undefined, 40]);
  });

  it('keeps the first of two answers to the same key', () => {
    const cache = new AnswerCache({ maxEntries: 10, maxBytes: 100 });
    const first = answer(30);
    cache.offer(1, 'a', first);
    expect(cache.offer(1, 'a', answer(30))).toBe(true);
    expect(cache.get(1, 'a')).toBe(first);
    // Counted once: two more of 30 bytes still fit in 100.
    expect(cache.offer(1, 'b', answer(30))).toBe(true);
    expect(cache.offer(1, 'c', answer(30))).toBe(true);
  });

  it('tells whether it would keep an answer of so many bytes before it is made (admits), then keeps it', () => {
    const cache = new AnswerCache({ maxEntries: 10, maxBytes: 100, admitOnSecondAsk: true });
    // First ask: remembered, not kept; second: kept once keep() is called.
    expect(cache.admits(1, 'a', 60)).toBe(false);
    expect(cache.admits(1, 'a', 60)).toBe(true);
    const a = answer(60);
    cache.keep('a', a);
    expect(cache.get(1, 'a')).toBe(a);
    // The bytes kept count: a second answer of 60 no longer fits.
    expect(cache.admits(1, 'b', 60)).toBe(false);
    expect(cache.admits(1, 'b', 60)).toBe(false);
    // A key already kept is admitted, and keep() leaves the first answer.
    expect(cache.admits(1, 'a', 60)).toBe(true);
    cache.keep('a', answer(60));
    expect(cache.get(1, 'a')).toBe(a);
  });

  describe('admitOnSecondAsk', () => {
    it('takes an answer the second time its key is offered at a revision, not the first', () => {
      const cache = new AnswerCache({ maxEntries: 10, maxBytes: 1000, admitOnSecondAsk: true });
      expect(cache.offer(1, 'a', answer(1))).toBe(false);
      expect(cache.get(1, 'a')).toBeUndefined();
      expect(cache.offer(1, 'b', answer(1))).toBe(false);
      const a = answer(1);
      expect(cache.offer(1, 'a', a)).toBe(true);
      expect(cache.get(1, 'a')).toBe(a);
      expect(cache.get(1, 'b')).toBeUndefined();
    });

    it('forgets the keys seen when the revision moves', () => {
      const cache = new AnswerCache({ maxEntries: 10, maxBytes: 1000, admitOnSecondAsk: true });
      cache.offer(1, 'a', answer(1));
      expect(cache.offer(2, 'a', answer(1))).toBe(false);
      expect(cache.offer(2, 'a', answer(1))).toBe(true);
    });

    it('remembers a bounded number of keys seen once (four per entry), then starts them over', () => {
      const cache = new AnswerCache({ maxEntries: 2, maxBytes: 1000, admitOnSecondAsk: true });
      for (let i = 0; i < 8; i++) cache.offer(1, `once ${i}`, answer(1));
      // The ninth key seen once clears the eight before it.
      cache.offer(1, 'ninth', answer(1));
      expect(cache.offer(1, 'once 0', answer(1))).toBe(false);
      expect(cache.offer(1, 'ninth', answer(1))).toBe(true);
    });
  });
});
