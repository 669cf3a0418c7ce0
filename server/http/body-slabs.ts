/**
 * Where the request log keeps its copies of bodies: slabs of SLAB_BYTES filled one after the
 * other, each copy a view into the current one. A slab is freed by the garbage collector once no
 * entry holds a copy in it.
 *
 * Why copies, and why slabs (docs/performance.md, session 8): the log used to keep the very
 * Buffers that were sent. Those answers (36–150 KB on a large store) are allocated with malloc
 * from glibc's main heap, and a few thousand of them kept alive among the short-lived ones left
 * that heap fragmented: ~105 MB resident after the bench's memory phase. Copies of their own
 * would be the same. Copies into slabs let the sent Buffers die young, and their bytes, counted by
 * V8 as external memory as the kept Buffers were, still pace V8's full collections; a ring reused
 * round and round (session 5) did not, and the V8 heap grew to several times its live size.
 */
export const SLAB_BYTES = 1024 * 1024;

export class BodySlabs {
  #slab: Buffer | null = null;
  #used = 0;
  /**
   * The copies in the current slab, per source: a cached answer is sent as the same Buffer again
   * and again, and its entries share one copy. Only within a slab, so that an answer sent all day
   * does not hold an old slab alive for its few kilobytes.
   */
  #copies = new WeakMap<Buffer, Buffer>();

  /** A copy of the first `length` bytes of `chunk`. */
  copy(chunk: Buffer, length = chunk.length): Buffer {
    const known = this.#copies.get(chunk);
    if (known && known.length === length) return known;
    // Never the case for the log's bodies (capped at 64 KiB); a body this large gets its own.
    if (length > SLAB_BYTES) return Buffer.from(chunk.subarray(0, length));
    if (this.#slab === null || this.#used + length > SLAB_BYTES) {
      this.#slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
      this.#used = 0;
      this.#copies = new WeakMap();
    }
    const copy = this.#slab.subarray(this.#used, this.#used + length);
    chunk.copy(copy, 0, 0, length);
    this.#used += length;
    this.#copies.set(chunk, copy);
    return copy;
  }
}
