import { describe, expect, it } from 'vitest';
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
