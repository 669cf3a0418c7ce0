/**
 * The answers kept while the store's revision holds (server/http/answer-cache.ts): gone when the
 * revision moves, and started over at their number or their size in bytes.
 */
import { describe, expect, it } from 'vitest';
import { AnswerCache } from '../../server/http/answer-cache.js';

const answer = (bytes: number) => ({ body: Buffer.alloc(bytes) });

describe('AnswerCache', () => {
  it('keeps answers for their revision only', () => {
    const cache = new AnswerCache(10, 1000);
    const a = answer(10);
    cache.set(1, 'a', a);
    expect(cache.get(1, 'a')).toBe(a);
    expect(cache.get(2, 'a')).toBeUndefined();
    // Asked at the newer revision, the old answers are gone for good.
    expect(cache.get(1, 'a')).toBeUndefined();
  });

  it('starts over when full by number or by bytes', () => {
    const byCount = new AnswerCache(2, 1000);
    byCount.set(1, 'a', answer(1));
    byCount.set(1, 'b', answer(1));
    byCount.set(1, 'c', answer(1));
    expect([byCount.get(1, 'a'), byCount.get(1, 'b')]).toEqual([undefined, undefined]);
    expect(byCount.get(1, 'c')).toBeDefined();

    const byBytes = new AnswerCache(10, 100);
    byBytes.set(1, 'a', answer(60));
    byBytes.set(1, 'b', answer(30));
    expect(byBytes.get(1, 'a')).toBeDefined();
    byBytes.set(1, 'c', answer(20));
    expect([byBytes.get(1, 'a'), byBytes.get(1, 'b')]).toEqual([undefined, undefined]);
    expect(byBytes.get(1, 'c')).toBeDefined();
  });
});
