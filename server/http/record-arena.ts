/**
 * Variable-length text records written one after the other into one buffer that is reused round
 * and round: the request log's entries (request-log.ts) live here as bytes instead of as objects.
 *
 * Why (docs/performance.md, session 11): an entry kept as objects (its header objects, strings,
 * body views) lives for thousands of requests, so it is promoted to V8's old generation and dies
 * there. Under a steady load those dead entries are most of what the old generation gains between
 * two full collections; with the entries as bytes in a reused buffer the log allocates nothing
 * that outlives its request, and the memory plateau of the bench fell from ~306 to 278–289 MiB.
 *
 * A record never wraps: one that would not fit before the end of the buffer starts at its
 * beginning, and the tail is skipped. Positions are absolute (they only grow), so a record written
 * at `start` is intact as long as `start >= end - capacity`. The owner (the log) knows which
 * records it still wants; it asks `fits` before writing and, when the oldest wanted record would
 * be overwritten, either grows the arena (`rebuilt`) or lets that record go.
 */
export class RecordArena {
  #buffer: Buffer;
  #end = 0;
  readonly #maxBytes: number;

  constructor(initialBytes: number, maxBytes: number) {
    this.#buffer = Buffer.alloc(initialBytes);
    this.#maxBytes = Math.max(initialBytes, maxBytes);
  }

  get capacity(): number {
    return this.#buffer.length;
  }

  /** Where a record of `length` bytes would start: here, or at the buffer's start if it would wrap. */
  #placement(length: number): number {
    const at = this.#end % this.#buffer.length;
    return at + length <= this.#buffer.length ? this.#end : this.#end + (this.#buffer.length - at);
  }

  /** Whether `length` more bytes can be written without overwriting the record at `oldest`. */
  fits(length: number, oldest: number): boolean {
    return length <= this.#buffer.length && this.#placement(length) + length - this.#buffer.length <= oldest;
  }

  /** Whether the arena may grow (double) once more. */
  get canGrow(): boolean {
    return this.#buffer.length * 2 <= this.#maxBytes;
  }

  /** Writes `text` (UTF-8, `length` bytes: Buffer.byteLength) and returns where it starts. */
  write(text: string, length: number): number {
    const start = this.#placement(length);
    this.#buffer.write(text, start % this.#buffer.length, length, 'utf8');
    this.#end = start + length;
    return start;
  }

  read(start: number, length: number): string {
    const at = start % this.#buffer.length;
    return this.#buffer.toString('utf8', at, at + length);
  }

  /** Whether the record at `start` is still intact (nothing written over it since). */
  holds(start: number): boolean {
    return start >= this.#end - this.#buffer.length;
  }

  /**
   * Doubles the buffer and copies the given records into it, oldest first from position 0;
   * returns their new starts in the same order. Everything not listed is gone.
   */
  rebuilt(records: readonly { start: number; length: number }[]): number[] {
    const old = this.#buffer;
    this.#buffer = Buffer.alloc(Math.min(old.length * 2, this.#maxBytes));
    this.#end = 0;
    return records.map(({ start, length }) => {
      const at = start % old.length;
      const to = this.#placement(length);
      old.copy(this.#buffer, to % this.#buffer.length, at, at + length);
      this.#end = to + length;
      return to;
    });
  }

  clear(): void {
    this.#end = 0;
  }
}
