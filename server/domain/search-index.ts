/**
 * An inverted index of documents with three weighted text fields, scored as MiniSearch scores
 * them (BM25+ with k 1.2, b 0.7, d 0.5; field boosts; prefix and fuzzy expansions weighted
 * 0.375 and 0.45 by their distance; every query term must match and the score is multiplied by
 * the number of distinct query terms). It replaced MiniSearch for two reasons measured on the
 * large benchmark store (docs/performance.md): MiniSearch keeps a Map per term and field and
 * builds an object per matching document, so a common word over 10,000 posts took 10–30 ms;
 * and the post search rebuilt it whole after every write (2–3 s). Here postings are typed
 * arrays, scores accumulate in work arrays kept between searches, a later query term only
 * scores documents that matched the earlier ones, matches are ranked only as far as they are
 * read (search-ranking.ts), and documents are added and removed one by one; a removed document
 * leaves a hole until the owner rebuilds (see `holes`).
 */
import { Ranking } from './search-ranking.js';
import { boundedDistance, queryTerms, tokens } from './search-terms.js';

/** Relative weight of each field: title, body, summary (the order of `add`'s texts). */
const BOOSTS = [3, 1, 1.5] as const;
const FIELDS = BOOSTS.length;
const BM25 = { k: 1.2, b: 0.7, d: 0.5 };
const PREFIX_WEIGHT = 0.375;
const FUZZY_WEIGHT = 0.45;
const MAX_FUZZY = 6;

/** The documents holding one term in one field, and how often each holds it. */
class Postings {
  slots = new Int32Array(4);
  counts = new Uint16Array(4);
  length = 0;
  /** Live documents among them, as counted when the index had made `countedAt` changes. */
  live = 0;
  countedAt = -1;

  push(slot: number, count: number): void {
    if (this.length === this.slots.length) {
      const slots = new Int32Array(this.length * 2);
      slots.set(this.slots);
      this.slots = slots;
      const counts = new Uint16Array(this.length * 2);
      counts.set(this.counts);
      this.counts = counts;
    }
    this.slots[this.length] = slot;
    this.counts[this.length] = Math.min(count, 0xffff);
    this.length += 1;
  }
}

/**
 * Per-slot work arrays of a search: summed scores, query terms matched, last term that touched
 * it; and the slots touched, once per query term, `touchedLength` of them (grown as needed). Kept
 * between searches: a search on the large store touches thousands of slots, and arrays of them
 * made per search were most of its ~0.8 MB of garbage (docs/performance.md, session 10).
 */
interface Scratch {
  total: Float64Array;
  matched: Uint16Array;
  seen: Int32Array;
  touched: Int32Array;
  touchedLength: number;
}

/** How a query term reaches into the dictionary: `prefix` for the last term, `fuzzy` as a share of its length. */
export interface TermOptions {
  prefix: boolean;
  fuzzy: number;
}

export class SearchIndex<T> {
  /** Slot → document; null once removed (a hole in every posting that names the slot). */
  private readonly documents: (T | null)[] = [];
  /** Per field, per slot: distinct raw tokens (MiniSearch's field length). */
  private readonly lengths: number[][] = Array.from({ length: FIELDS }, () => []);
  private readonly totalLengths = new Array<number>(FIELDS).fill(0);
  private live = 0;
  private readonly terms = new Map<string, (Postings | undefined)[]>();
  /** Terms by length, for fuzzy matching; terms sorted (plus those added since), for prefixes. */
  private readonly byLength = new Map<number, string[]>();
  private sorted: string[] = [];
  private unsorted: string[] = [];
  private scratch: Scratch | null = null;
  /** Bumped per query term (marks slots already touched by it) and per add or remove. */
  private stamp = 0;
  private changes = 0;

  /** `tieOrder` orders documents of equal score, so the answer never depends on the index's history. */
  constructor(private readonly tieOrder: (a: T, b: T) => number) {}

  get size(): number {
    return this.live;
  }

  /** Removed documents still taking room in the postings. */
  get holes(): number {
    return this.documents.length - this.live;
  }

  /** Indexes `document` under its title, body and summary texts; returns its slot. */
  add(document: T, texts: readonly [string, string, string]): number {
    const slot = this.documents.length;
    this.documents.push(document);
    this.live += 1;
    this.changes += 1;
    texts.forEach((text, field) => {
      // Counted as written first: the field's length is its distinct raw tokens (MiniSearch's
      // measure), and each distinct token is lower-cased once rather than at every occurrence.
      const raw = new Map<string, number>();
      for (const token of tokens(text)) raw.set(token, (raw.get(token) ?? 0) + 1);
      this.lengths[field]![slot] = raw.size;
      this.totalLengths[field]! += raw.size;
      const counts = new Map<string, number>();
      for (const [token, count] of raw) {
        const term = token.toLowerCase();
        if (term !== '') counts.set(term, (counts.get(term) ?? 0) + count);
      }
      for (const [term, count] of counts) this.postingsOf(term, field).push(slot, count);
    });
    return slot;
  }

  remove(slot: number): void {
    if (this.documents[slot] == null) return;
    this.documents[slot] = null;
    this.live -= 1;
    this.changes += 1;
    for (let field = 0; field < FIELDS; field++) this.totalLengths[field]! -= this.lengths[field]![slot]!;
  }

  /** Documents matching every term of `query`, ranked on demand (equal scores in `tieOrder`). */
  search(query: string, options: (term: string, i: number, terms: string[]) => TermOptions): Ranking<T> {
    const terms = queryTerms(query);
    const scratch = this.scratchFor(this.documents.length);
    scratch.touchedLength = 0;
    for (let i = 0; i < terms.length && this.live > 0; i++) {
      // In term order, so that sums (and so ties) do not depend on the order terms were met.
      const expanded = [...this.expand(terms[i]!, options(terms[i]!, i, terms))].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      const before = scratch.touchedLength;
      this.stamp += 1;
      for (const [term, weight] of expanded) this.score(term, weight, i, scratch);
      // A slot counts as matched once per query term, however many of its expansions it holds.
      for (let t = before; t < scratch.touchedLength; t++) scratch.matched[scratch.touched[t]!]! += 1;
    }
    // Every query term matched; a slot appears once per term among the touched, so it is marked
    // taken. The found slots are gathered at the front of the touched ones (over entries already
    // read); the work arrays of the others are cleared as they are read.
    const all = terms.length;
    const touchedLength = scratch.touchedLength;
    let count = 0;
    for (let t = 0; t < touchedLength; t++) {
      const slot = scratch.touched[t]!;
      const matched = scratch.matched[slot]!;
      if (all > 0 && matched === all) {
        scratch.touched[count++] = slot;
        scratch.matched[slot] = all + 1;
      } else if (matched !== all + 1) {
        scratch.total[slot] = 0;
        scratch.matched[slot] = 0;
      }
    }
    const quality = new Set(terms).size;
    const slots = scratch.touched.slice(0, count);
    const scores = new Float64Array(count);
    for (let i = 0; i < count; i++) {
      const slot = slots[i]!;
      scores[i] = scratch.total[slot]! * quality;
      scratch.total[slot] = 0;
      scratch.matched[slot] = 0;
    }
    return new Ranking<T>(slots, scores, (slot) => this.documents[slot] as T, this.tieOrder);
  }

  /** Work arrays as long as the slots, kept between searches (a search allocates no per-slot array). */
  private scratchFor(slots: number): Scratch {
    if (!this.scratch || this.scratch.total.length < slots) {
      const size = Math.max(slots, 64) * 2;
      this.scratch = {
        total: new Float64Array(size),
        matched: new Uint16Array(size),
        seen: new Int32Array(size).fill(-1),
        touched: new Int32Array(size),
        touchedLength: 0,
      };
    }
    return this.scratch;
  }

  /** Appends `slot` to the scratch's touched slots, growing them when full. */
  private touch(scratch: Scratch, slot: number): void {
    if (scratch.touchedLength === scratch.touched.length) {
      const grown = new Int32Array(scratch.touched.length * 2);
      grown.set(scratch.touched);
      scratch.touched = grown;
    }
    scratch.touched[scratch.touchedLength++] = slot;
  }

  /** The dictionary terms a query term stands for, with their weights (MiniSearch's rules). */
  private expand(term: string, options: TermOptions): Map<string, number> {
    const found = new Map<string, number>();
    if (this.terms.has(term)) found.set(term, 1);
    if (options.prefix) {
      for (const candidate of this.withPrefix(term)) {
        const distance = candidate.length - term.length;
        if (distance > 0) found.set(candidate, (PREFIX_WEIGHT * candidate.length) / (candidate.length + 0.3 * distance));
      }
    }
    const maxDistance = options.fuzzy > 0 ? Math.min(MAX_FUZZY, Math.round(term.length * options.fuzzy)) : 0;
    for (let length = term.length - maxDistance; maxDistance > 0 && length <= term.length + maxDistance; length++) {
      for (const candidate of this.byLength.get(length) ?? []) {
        if (found.has(candidate) || candidate === term) continue;
        const distance = boundedDistance(term, candidate, maxDistance);
        if (distance <= maxDistance) found.set(candidate, (FUZZY_WEIGHT * candidate.length) / (candidate.length + distance));
      }
    }
    return found;
  }

  /**
   * Adds the weighted BM25+ score of `term` in every field to each live slot holding it, for the
   * query's `termIndex`-th term: only slots that matched every earlier term can still match, so
   * the others are skipped. The scratch's touched slots get each slot once per query term.
   */
  private score(term: string, weight: number, termIndex: number, scratch: Scratch): void {
    const fields = this.terms.get(term);
    if (!fields) return;
    for (let field = 0; field < FIELDS; field++) {
      const postings = fields[field];
      if (!postings) continue;
      const holding = this.liveCount(postings);
      if (holding === 0) continue;
      const idf = Math.log(1 + (this.live - holding + 0.5) / (holding + 0.5));
      const average = this.totalLengths[field]! / this.live;
      const factor = weight * BOOSTS[field]! * idf;
      const lengths = this.lengths[field]!;
      for (let i = 0; i < postings.length; i++) {
        const slot = postings.slots[i]!;
        if (scratch.matched[slot] !== termIndex || this.documents[slot] == null) continue;
        const count = postings.counts[i]!;
        const norm = count + BM25.k * (1 - BM25.b + (BM25.b * lengths[slot]!) / average);
        if (scratch.seen[slot] !== this.stamp) {
          scratch.seen[slot] = this.stamp;
          this.touch(scratch, slot);
        }
        scratch.total[slot]! += factor * (BM25.d + (count * (BM25.k + 1)) / norm);
      }
    }
  }

  /** How many live documents a postings list names (counted again only after adds or removes). */
  private liveCount(postings: Postings): number {
    if (postings.countedAt !== this.changes) {
      let live = 0;
      for (let i = 0; i < postings.length; i++) if (this.documents[postings.slots[i]!] != null) live += 1;
      postings.live = live;
      postings.countedAt = this.changes;
    }
    return postings.live;
  }

  private postingsOf(term: string, field: number): Postings {
    let fields = this.terms.get(term);
    if (!fields) {
      fields = new Array<Postings | undefined>(FIELDS);
      this.terms.set(term, fields);
      const sameLength = this.byLength.get(term.length);
      if (sameLength) sameLength.push(term);
      else this.byLength.set(term.length, [term]);
      this.unsorted.push(term);
    }
    return (fields[field] ??= new Postings());
  }

  /** Dictionary terms starting with `prefix` (the exact term included). */
  private withPrefix(prefix: string): string[] {
    // New terms wait in a small unsorted list; merged once it grows, so writes stay cheap.
    if (this.unsorted.length > 512) {
      this.sorted = [...this.sorted, ...this.unsorted].sort();
      this.unsorted = [];
    }
    const found = this.unsorted.filter((t) => t.startsWith(prefix));
    let low = 0;
    let high = this.sorted.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.sorted[mid]! < prefix) low = mid + 1;
      else high = mid;
    }
    for (let i = low; i < this.sorted.length && this.sorted[i]!.startsWith(prefix); i++) found.push(this.sorted[i]!);
    return found;
  }
}
