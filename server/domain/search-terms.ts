/**
 * Text handling of the post search (domain/search.ts): what a post's HTML body reads as, how
 * text splits into terms, and the edit distance that lets a long word tolerate a typo. Terms
 * split and fold exactly as MiniSearch's defaults do (the engine this index replaced), so what
 * a query finds did not change.
 */

/** MiniSearch's default tokenizer: runs of spaces, line breaks and punctuation separate terms. */
const SPACE_OR_PUNCTUATION = /[\n\r\p{Z}\p{P}]+/u;

/** The raw tokens of `text` (may hold empty strings at the ends, as MiniSearch's do). */
export function tokens(text: string): string[] {
  return text.split(SPACE_OR_PUNCTUATION);
}

/** The query's terms, lower-cased, empty ones dropped. */
export function queryTerms(query: string): string[] {
  return tokens(query)
    .map((t) => t.toLowerCase())
    .filter((t) => t !== '');
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** Text of an HTML body for indexing: tags dropped, common entities decoded. */
export function htmlToText(html: string): string {
  return html
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#x?[0-9a-f]+|[a-z]+);/gi, (whole, name: string) => {
      if (name.startsWith('#')) {
        const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
        return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : ' ';
      }
      return Object.hasOwn(ENTITIES, name.toLowerCase()) ? ENTITIES[name.toLowerCase()]! : whole;
    });
}

/**
 * The two rows boundedDistance works in, kept between calls: a fuzzy query term is compared with
 * every dictionary term of a similar length, and two arrays per comparison were 60 KB of garbage
 * a search on the large store (docs/performance.md, session 10).
 */
let rows: [Int32Array, Int32Array] = [new Int32Array(64), new Int32Array(64)];

/**
 * Levenshtein distance of `a` and `b` (UTF-16 units, as MiniSearch counts), or `max + 1` as soon
 * as it is known to exceed `max` (most dictionary terms are rejected after a row or two).
 */
export function boundedDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (rows[0].length <= b.length) rows = [new Int32Array(b.length * 2 + 2), new Int32Array(b.length * 2 + 2)];
  let [previous, current] = rows;
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1);
      const value = Math.min(substitution, previous[j]! + 1, current[j - 1]! + 1);
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max) return max + 1;
    const done = previous;
    previous = current;
    current = done;
  }
  return previous[b.length]!;
}
