/**
 * Unicode slugification (spec: POST /posts/, "generated from the title (unicode slugification)").
 * Latin, Greek, Cyrillic and other scripts with a transliteration become ASCII through
 * @sindresorhus/slugify; words it would drop (Chinese, Japanese, Korean, Thai…) keep their own
 * letters, so "山の日 hiking" gives "山の日-hiking" rather than a lossy "hiking".
 */
import slugify from '@sindresorhus/slugify';

const NOT_ALNUM = /[^\p{L}\p{N}]+/gu;
const alnumCount = (s: string): number => s.replace(NOT_ALNUM, '').length;

/** Lower-case letters and digits of any script, other runs folded into one dash. */
function unicodeSlug(word: string): string {
  return word
    .normalize('NFKC')
    .toLowerCase()
    .replace(NOT_ALNUM, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * A word that is already a slug: lower-case ASCII letters and digits, single dashes between them.
 * Both slugify() and unicodeSlug() give it back unchanged (no transliteration or replacement
 * applies to ASCII letters, digits or dashes, and nothing is upper case), so it skips both.
 */
const SLUG_WORD = /^[a-z\d]+(?:-[a-z\d]+)*$/;

/** Words slugified lately: titles repeat their words, and a post's title is slugified twice (request, job). */
const wordSlugs = new Map<string, string>();
const WORD_SLUGS_KEPT = 10_000;

/** The slug of one word: transliterated to ASCII, or in its own script when transliteration lost letters. */
function wordSlug(word: string): string {
  if (SLUG_WORD.test(word)) return word;
  let slug = wordSlugs.get(word);
  if (slug === undefined) {
    // slugify() builds a Map and three regular expressions a call (8 KB allocated per post
    // written, issue 10): it runs once per word kept here.
    const ascii = slugify(word);
    const native = unicodeSlug(word);
    slug = alnumCount(ascii) < alnumCount(native) ? native : ascii;
    if (wordSlugs.size >= WORD_SLUGS_KEPT) wordSlugs.clear();
    wordSlugs.set(word, slug);
  }
  return slug;
}

/** The slug of `text`, or '' when it has no letters or digits at all (emoji, punctuation). */
export function slugifyText(text: string, maxLength = 100): string {
  const parts = text.split(/\s+/u).filter(Boolean).map(wordSlug);
  return truncateSlug(parts.filter(Boolean).join('-'), maxLength);
}

export function truncateSlug(slug: string, maxLength: number): string {
  const chars = Array.from(slug);
  if (chars.length <= maxLength) return slug;
  return chars.slice(0, maxLength).join('').replace(/-+$/, '');
}

/** `base`, or `base-2`, `base-3`… (trimmed to `maxLength`) — the first that `isTaken` refuses. */
export function uniqueSlug(base: string, isTaken: (slug: string) => boolean, maxLength = 100): string {
  if (!isTaken(base)) return base;
  for (let n = 2; ; n += 1) {
    const suffix = `-${n}`;
    const candidate = truncateSlug(base, maxLength - suffix.length) + suffix;
    if (!isTaken(candidate)) return candidate;
  }
}
