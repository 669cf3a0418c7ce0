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
 *
 * Why a slab is a WebAssembly memory where there is one (session 9): 1 MiB Buffers come from
 * malloc, and glibc serves them from its main heap once its mmap threshold has risen (it rises
 * past every larger block freed). There the slabs, each alive for thousands of requests, kept that
 * heap fragmented among the short-lived answers. V8 maps a WebAssembly memory itself and unmaps it
 * when it is collected, so a slab's pages go back to the system with it; and it still counts as
 * external memory. memory-breakdown after 60,000 mixed reads on the large store: brk heap 76.2 →
 * 29.6 MB, RSS 329.5 → 300.3 MiB, V8 heap unchanged. Each such memory reserves ~10 GiB of address
 * space for its guard regions: that costs nothing resident but shows in VSZ. Where WebAssembly is
 * missing (`node --jitless`) or the reservation is refused (`ulimit -v`), slabs come from malloc.
 */
export const SLAB_BYTES = 1024 * 1024;

const WASM_PAGE_BYTES = 64 * 1024;

/** The part of the WebAssembly namespace slabs use (the project's TypeScript lib has no WebAssembly). */
export interface WasmMemories {
  Memory: new (descriptor: { initial: number }) => { buffer: ArrayBuffer };
}

const runtimeWasm = (globalThis as { WebAssembly?: WasmMemories }).WebAssembly ?? null;

export class BodySlabs {
  #slab: Buffer | null = null;
  #used = 0;
  /**
   * The copies in the current slab, per source: a cached answer is sent as the same Buffer again
   * and again, and its entries share one copy. Only within a slab, so that an answer sent all day
   * does not hold an old slab alive for its few kilobytes.
   */
  #copies = new WeakMap<Buffer, Buffer>();
  /** Where slabs come from; null once a WebAssembly memory was refused: malloc from then on. */
  #wasm: WasmMemories | null;

  constructor(wasm: WasmMemories | null = runtimeWasm) {
    this.#wasm = wasm;
  }

  /** A copy of the first `length` bytes of `chunk`. */
  copy(chunk: Buffer, length = chunk.length): Buffer {
    const known = this.#copies.get(chunk);
    if (known && known.length === length) return known;
    // Never the case for the log's bodies (capped at 64 KiB); a body this large gets its own.
    if (length > SLAB_BYTES) return Buffer.from(chunk.subarray(0, length));
    this.#room(length);
    const copy = this.#slab!.subarray(this.#used, this.#used + length);
    chunk.copy(copy, 0, 0, length);
    this.#used += length;
    this.#copies.set(chunk, copy);
    return copy;
  }

  /**
   * The UTF-8 bytes of `text`, its first `length` of them (the byte length of the whole or less),
   * written straight into a slab: a string answer is never encoded into a Buffer of its own.
   * A character that would not fit whole is left out, so the copy may be up to 3 bytes shorter.
   */
  copyText(text: string, length: number): Buffer {
    if (length > SLAB_BYTES) return Buffer.from(text, 'utf8').subarray(0, length);
    this.#room(length);
    const slab = this.#slab!;
    const written = slab.write(text, this.#used, length, 'utf8');
    const copy = slab.subarray(this.#used, this.#used + written);
    this.#used += written;
    return copy;
  }

  /** A slab with `length` bytes free is the current one. */
  #room(length: number): void {
    if (this.#slab !== null && this.#used + length <= SLAB_BYTES) return;
    this.#slab = this.#newSlab();
    this.#used = 0;
    this.#copies = new WeakMap();
  }

  #newSlab(): Buffer {
    if (this.#wasm) {
      try {
        return Buffer.from(new this.#wasm.Memory({ initial: SLAB_BYTES / WASM_PAGE_BYTES }).buffer);
      } catch {
        this.#wasm = null;
      }
    }
    return Buffer.allocUnsafeSlow(SLAB_BYTES);
  }
}

/** The request logs' slabs: one set for the process, shared by every emulator in it. */
export const logSlabs = new BodySlabs();
