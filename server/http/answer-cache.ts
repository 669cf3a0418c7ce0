/**
 * Answers kept while the store's revision holds (the post reads' cache, api/posts-cache.ts; the
 * read replay, read-replay.ts): all of them go when the revision moves, and they start over when
 * they reach a number or a size in bytes, since a suite's distinct searches are one-off answers.
 */
export class AnswerCache<Answer extends { body: Buffer }> {
  readonly #answers = new Map<string, Answer>();
  #revision = -1;
  #bytes = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxBytes: number,
  ) {}

  /** The answer kept for `key` at `revision`; asked at a newer revision, the old answers go. */
  get(revision: number, key: string): Answer | undefined {
    if (revision !== this.#revision) this.#startOver(revision);
    return this.#answers.get(key);
  }

  set(revision: number, key: string, answer: Answer): void {
    if (revision !== this.#revision || this.#answers.size >= this.maxEntries || this.#bytes + answer.body.length > this.maxBytes) {
      this.#startOver(revision);
    }
    this.#answers.set(key, answer);
    this.#bytes += answer.body.length;
  }

  #startOver(revision: number): void {
    this.#answers.clear();
    this.#bytes = 0;
    this.#revision = revision;
  }
}
