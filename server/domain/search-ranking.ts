/**
 * The documents a search matched, ranked only as far as a caller reads them. A common word
 * matches most of a large blog (7,000 of 10,000 posts in the benchmark store) while a request
 * shows one page: ordering every match and building a record for each cost more than the
 * search itself. `top(n)` selects the best n (quickselect), then orders just those.
 */

export interface ScoredDocument<T> {
  document: T;
  score: number;
}

export class Ranking<T> {
  /**
   * `slots[i]` matched with `scores[i]`; `documentAt` resolves a slot; `tieOrder` orders equal
   * scores (then the slot), so the order is total and the same however the matches were found.
   */
  constructor(
    private readonly slots: Int32Array,
    private readonly scores: Float64Array,
    private readonly documentAt: (slot: number) => T,
    private readonly tieOrder: (a: T, b: T) => number,
  ) {}

  get count(): number {
    return this.slots.length;
  }

  /** The best `n` matches (all of them if fewer), best first. */
  top(n: number): ScoredDocument<T>[] {
    const k = Math.max(0, Math.min(n, this.count));
    const order = new Int32Array(this.count);
    for (let i = 0; i < order.length; i++) order[i] = i;
    const before = (a: number, b: number): number =>
      this.scores[b]! - this.scores[a]! ||
      this.tieOrder(this.documentAt(this.slots[a]!), this.documentAt(this.slots[b]!)) ||
      this.slots[a]! - this.slots[b]!;
    if (k < order.length) selectFirst(order, k, before);
    const best = order.subarray(0, k).sort(before);
    return Array.from(best, (i) => ({ document: this.documentAt(this.slots[i]!), score: this.scores[i]! }));
  }
}

/** Reorders `order` so that its first `k` entries are the k smallest by `compare` (in any order). */
function selectFirst(order: Int32Array, k: number, compare: (a: number, b: number) => number): void {
  let low = 0;
  let high = order.length - 1;
  while (low < high) {
    const pivot = order[(low + high) >>> 1]!;
    let i = low;
    let j = high;
    while (i <= j) {
      while (compare(order[i]!, pivot) < 0) i++;
      while (compare(order[j]!, pivot) > 0) j--;
      if (i <= j) {
        const swap = order[i]!;
        order[i] = order[j]!;
        order[j] = swap;
        i++;
        j--;
      }
    }
    // [low, j] ≤ pivot ≤ [i, high]; keep narrowing the side that holds position k.
    if (k <= j) high = j;
    else if (k >= i) low = i;
    else return;
  }
}
