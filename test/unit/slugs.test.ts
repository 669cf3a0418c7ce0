import slugify from '@sindresorhus/slugify';
import { describe, expect, it } from 'vitest';
import { prng } from '../../bench/generate-store.js';
import { slugifyText, truncateSlug, uniqueSlug } from '../../server/domain/slugs.js';

describe('slugifyText', () => {
  it.each([
    ['Hello, World!', 'hello-world'],
    ['Café-to-Café: a coffee ride', 'cafe-to-cafe-a-coffee-ride'],
    ['Größe & Übermut', 'groesse-and-uebermut'],
    ['Привет мир', 'privet-mir'],
    ['山の日 hiking traditions', '山の日-hiking-traditions'],
    ['東京2026 marathon', '東京2026-marathon'],
    ['  spaced   out  ', 'spaced-out'],
  ])('%s → %s', (title, slug) => {
    expect(slugifyText(title)).toBe(slug);
  });

  it('gives an empty slug when nothing is left, so the caller can fall back', () => {
    expect(slugifyText('🎉 !!! 🎉')).toBe('');
  });

  it('caps the length without leaving a trailing dash', () => {
    const slug = slugifyText('word '.repeat(60));
    expect(Array.from(slug).length).toBeLessThanOrEqual(100);
    expect(slug.endsWith('-')).toBe(false);
  });
});

describe('uniqueSlug', () => {
  it('keeps a free slug and numbers a taken one', () => {
    const taken = new Set(['post', 'post-2']);
    expect(uniqueSlug('fresh', (s) => taken.has(s))).toBe('fresh');
    expect(uniqueSlug('post', (s) => taken.has(s))).toBe('post-3');
  });

  it('stays within the maximum length with its suffix', () => {
    const base = 'a'.repeat(100);
    const slug = uniqueSlug(base, (s) => s === base);
    expect(slug).toBe(`${'a'.repeat(98)}-2`);
  });

  it('truncates by characters, not UTF-16 units', () => {
    expect(truncateSlug('山'.repeat(5), 3)).toBe('山山山');
  });
});

describe('slugifyText against the slugify library, word by word', () => {
  // slugifyText skips the library for words that are already slugs and remembers the others
  // (server/domain/slugs.ts); it must still give what calling the library for every word gives.
  const NOT_ALNUM = /[^\p{L}\p{N}]+/gu;
  const count = (s: string) => s.replace(NOT_ALNUM, '').length;
  const reference = (text: string) =>
    truncateSlug(
      text
        .split(/\s+/u)
        .filter(Boolean)
        .map((word) => {
          const ascii = slugify(word);
          const native = word
            .normalize('NFKC')
            .toLowerCase()
            .replace(NOT_ALNUM, '-')
            .replace(/^-+|-+$/g, '');
          return count(ascii) < count(native) ? native : ascii;
        })
        .filter(Boolean)
        .join('-'),
      100,
    );

  it('for plain words, near misses and other scripts, repeated', () => {
    const next = prng(11);
    const pick = (chars: string, length: number) => Array.from({ length }, () => chars[Math.floor(next() * chars.length)]!).join('');
    const alphabets = ['abcdefghijklmnopqrstuvwxyz0123456789', 'abz09-', "aZz9-_&é'’ßЖ山🎉"];
    const words = [
      ...alphabets.flatMap((chars) => Array.from({ length: 300 }, () => pick(chars, 1 + Math.floor(next() * 12)))),
      ...['fooBar', 'APIs', 'don’t', "it's", 'a--b', '-a', 'a-', '2026-11-22', 'x-1-2', 'ok'],
    ];
    for (let i = 0; i < 600; i++) {
      const title = Array.from({ length: 1 + Math.floor(next() * 6) }, () => words[Math.floor(next() * words.length)]!).join(' ');
      expect(slugifyText(title), title).toBe(reference(title));
    }
  });
});
