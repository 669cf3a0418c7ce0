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

/** The slug of `text`, or '' when it has no letters or digits at all (emoji, punctuation). */
export function slugifyText(text: string, maxLength = 100): string {
  const words = text.split(/\s+/u).filter(Boolean);
  const parts = words.map((word) => {
    const ascii = slugify(word);
    const native = unicodeSlug(word);
    // Transliteration lost letters: keep the word in its own script.
    return alnumCount(ascii) < alnumCount(native) ? native : ascii;
  });
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
