/**
 * A lowdb adapter whose writes survive a crash at any moment (issue 7): the text goes to a
 * temporary file in the same folder, is fsynced, renamed over the data file, and the folder is
 * fsynced so the rename itself is durable. A reader (or a restart after `kill -9`) sees the old
 * file or the new one, never a mix. Pretty-printed with a two-space indent, as people edit it.
 *
 * A large store is serialized in a worker (write-worker.ts) so the event loop keeps serving
 * requests; a small one here, where a worker would cost more than it saves. The worker keeps a
 * copy of the data; each write after the first sends it only what changed (snapshot-diff.ts).
 */
import { createHash } from 'node:crypto';
import { open, rename, rm, stat } from 'node:fs/promises';
import type { BigIntStats } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Adapter } from 'lowdb';
import { diff, shadowOf, type Change, type Shadow } from './snapshot-diff.js';
import { workerGeneration, writeInWorker, type WorkerWrite, type WrittenTemporary } from './write-worker.js';

/** How many of our recent writes are remembered (a watcher may read one while the next is under way). */
const REMEMBERED = 16;

/** From this size on (of the previous write, or of the file when loaded) a write is serialized in the worker. */
export const WORKER_MIN_BYTES = 1024 * 1024;

/** Bytes hashed between two turns of the event loop (about a millisecond's work). */
const HASH_SLICE = 1024 * 1024;

/**
 * What identifies one written file without reading it: its inode (a rename or a save by rename
 * makes a new one), size and modification time (an edit in place changes it; the time is kept to
 * the kernel's clock tick, a few milliseconds, so only an edit in place to the very same size
 * within that tick of our write would pass for ours).
 */
export const fileSignature = (stats: BigIntStats): string => `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}`;

/**
 * SHA-256 (hex) of file bytes, a slice at a time with the event loop served in between: a large
 * store's 74 MB take some 60 ms to hash, which in one piece would stall every request. (WebCrypto's
 * digest hashes in the thread pool but first copies the bytes on the main thread, nearly as slow.)
 */
export async function bytesHash(bytes: Uint8Array): Promise<string> {
  const hash = createHash('sha256');
  for (let start = 0; start < bytes.length; start += HASH_SLICE) {
    if (start > 0) await new Promise((resolve) => setImmediate(resolve));
    hash.update(bytes.subarray(start, start + HASH_SLICE));
  }
  return hash.digest('hex');
}

/** The file's text for `data`: what the worker writes too. */
export const serialize = (data: unknown): string => JSON.stringify(data, null, 2) + '\n';

export interface AtomicJsonFileOptions {
  /** Size of the file as loaded: whether the first write goes to the worker. */
  size?: number;
  /** Override of WORKER_MIN_BYTES (tests). */
  workerMinBytes?: number;
}

export class AtomicJsonFile<T> implements Adapter<T> {
  /** Size in bytes of the last write (or of the file as loaded). */
  size: number;
  private readonly workerMinBytes: number;
  /**
   * Hashes of our recent writes, registered before each rename: whatever the watcher reads, one
   * of our writes finished or under way, is recognized as ours and never taken for an edit.
   */
  private readonly recent: string[] = [];
  /**
   * Signatures (fileSignature) of our recent writes: the watcher stats the file and, when it is
   * one of these, need not read back and hash the whole file (74 MB on a large store: a buffer that
   * size and its collection, and ~60 ms of hashing, after every write).
   */
  private readonly recentFiles: string[] = [];
  /** What the worker's copy of the data is: the data object, its shadow, and the worker holding it. */
  private copy: { root: unknown; shadow: Shadow; generation: number } | null = null;

  constructor(
    readonly file: string,
    options: AtomicJsonFileOptions = {},
  ) {
    this.size = options.size ?? 0;
    this.workerMinBytes = options.workerMinBytes ?? WORKER_MIN_BYTES;
  }

  /** True when `hash` (bytesHash of what the watcher read) is one of our recent writes. */
  isOurs(hash: string): boolean {
    return this.recent.includes(hash);
  }

  /** True when `signature` (fileSignature of the file's stats) is one of our recent writes. */
  isOurFile(signature: string): boolean {
    return this.recentFiles.includes(signature);
  }

  /** Reading goes through store/load.ts, which reports errors with their place. */
  async read(): Promise<T | null> {
    return null;
  }

  async write(data: T): Promise<void> {
    const temporary = join(dirname(this.file), `.${basename(this.file)}.${process.pid}.tmp`);
    // The worker's structured clone is taken before writeInWorker returns: no await comes before
    // it, so the file holds the state of the moment the write began (the job journal counts on it).
    const written = await (this.size >= this.workerMinBytes ? this.inWorker(data, temporary) : writeHere(data, temporary));
    this.size = written.size;
    this.recent.push(written.hash);
    if (this.recent.length > REMEMBERED) this.recent.shift();
    try {
      // Taken of the temporary before the rename (which keeps inode, size and mtime), so it is ours
      // for certain: statting the data file after it could catch an edit made in between.
      this.recentFiles.push(fileSignature(await stat(temporary, { bigint: true })));
      if (this.recentFiles.length > REMEMBERED) this.recentFiles.shift();
      await rename(temporary, this.file);
    } catch (err) {
      await rm(temporary, { force: true });
      throw err;
    }
    const folder = await open(dirname(this.file), 'r');
    try {
      await folder.sync();
    } finally {
      await folder.close();
    }
  }

  /**
   * What structured clone refuses (a function, say) JSON may still write: then it is written here.
   * Whatever goes wrong, the next write sends all of the data again.
   */
  private inWorker(data: T, temporary: string): Promise<WrittenTemporary> {
    const generation = workerGeneration();
    let write: WorkerWrite;
    if (this.copy && this.copy.root === data && this.copy.generation === generation) {
      const changes: Change[] = [];
      this.copy.shadow = diff(data, this.copy.shadow, [], changes);
      write = { file: this.file, temporary, changes };
    } else {
      this.copy = { root: data, shadow: shadowOf(data), generation };
      write = { file: this.file, temporary, data };
    }
    let written: Promise<WrittenTemporary>;
    try {
      written = writeInWorker(write);
    } catch (err) {
      this.copy = null;
      if (!(err instanceof Error && err.name === 'DataCloneError')) throw err;
      return writeHere(data, temporary);
    }
    return written.catch(async (err: unknown) => {
      this.copy = null;
      await rm(temporary, { force: true });
      throw err;
    });
  }
}

async function writeHere(data: unknown, temporary: string): Promise<WrittenTemporary> {
  const bytes = Buffer.from(serialize(data), 'utf8');
  const hash = createHash('sha256').update(bytes).digest('hex');
  const handle = await open(temporary, 'w');
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
  return { hash, size: bytes.length };
}
