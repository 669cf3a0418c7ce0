/**
 * Answers kept while the store's revision holds (the post reads' cache, api/posts-cache.ts; the
 * read replay, read-replay.ts): all of them go when the revision moves.
 *
 * Until session 5 a full cache started over: a stream of distinct reads (a suite's one-off
 * searches) filled it in 8 MiB and then emptied it, the list pages and posts read again and again
 * with them, so those were built again every couple of hundred searches; and every answer kept
 * and then dropped had been promoted, garbage for a full collection. So:
 * - a full cache (by number or by bytes) keeps what it has and takes nothing more until the
 *   revision moves; the answers it does not take die young;
 * - with `admitOnSecondAsk`, an answer is taken only when its key has been offered before at
 *   this revision: a key asked once (a distinct search) never takes room from the lists and posts
 *   a suite reads again and again. The keys seen are bounded too, and forgotten when full.
 */
export interface AnswerCacheOptions {
  maxEntries: number;
  maxBytes: number;
  /** Take an answer only the second time its key is offered at a revision. */
  admitOnSecondAsk?: boolean;
}

/** Keys remembered as offered once, per entry the cache may hold. */
const SEEN_PER_ENTRY = 4;

export class AnswerCache<Answer extends { body: Buffer }> {
  readonly #answers = new Map<string, Answer>();
  readonly #seen = new Set<string>();
  readonly #options: AnswerCacheOptions;
  #revision = -1;
  #bytes = 0;

  constructor(options: AnswerCacheOptions) {
    this.#options = options;
  }

  /** The answer kept for `key` at `revision`; asked at a newer revision, the old answers go. */
  get(revision: number, key: string): Answer | undefined {
    if (revision !== this.#revision) this.#startOver(revision);
    return this.#answers.get(key);
  }

  /** Offers the answer built for `key` at `revision`; true when the cache keeps it. */
  offer(revision: number, key: string, answer: Answer): boolean {
    if (!this.admits(revision, key, answer.body.length)) return false;
    this.keep(key, answer);
    return true;
  }

  /**
   * Whether an answer of `bytes` for `key` at `revision` is one to keep (and keep() it then, at
   * once), told before the answer is made into a Buffer: the answers not kept are sent as text.
   * A key offered for the first time is remembered, as offer() does.
   */
  admits(revision: number, key: string, bytes: number): boolean {
    if (revision !== this.#revision) this.#startOver(revision);
    // Two requests for the same key can miss together (the replay learns at the end of each).
    if (this.#answers.has(key)) return true;
    const { maxEntries, maxBytes, admitOnSecondAsk } = this.#options;
    if (this.#answers.size >= maxEntries || this.#bytes + bytes > maxBytes) return false;
    if (admitOnSecondAsk && !this.#seen.delete(key)) {
      if (this.#seen.size >= maxEntries * SEEN_PER_ENTRY) this.#seen.clear();
      this.#seen.add(key);
      return false;
    }
    return true;
  }

  /** Keeps `answer` for `key` (admits() said so, in the same turn); an answer already kept for it stays. */
  keep(key: string, answer: Answer): void {
    if (this.#answers.has(key)) return;
    this.#answers.set(key, answer);
    this.#bytes += answer.body.length;
  }

  #startOver(revision: number): void {
    this.#answers.clear();
    this.#seen.clear();
    this.#bytes = 0;
    this.#revision = revision;
  }
}
