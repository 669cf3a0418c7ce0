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
import {
  BASE_CHANGED,
  runningWorkerGeneration,
  workerGeneration,
  writeInWorker,
  type WorkerWrite,
  type WrittenTemporary,
} from './write-worker.js';

/** How many of our recent writes are remembered (a watcher may read one while the next is under way). */
const REMEMBERED = 16;

/**
 * From this size on (of the previous write, or of the file when loaded) a write is serialized in
 * the worker. Serializing and hashing on the main thread takes ~25 ms a MB (the demo store grown
 * to 1 MB by a storm of posts: a 24 ms stall every write), ~5 ms at this size.
 */
export const WORKER_MIN_BYTES = 256 * 1024;

/**
 * A write of this many records touched since the last one goes to the worker whatever the size of
 * the last write: they have grown the file since by about their own text (a post is 2 KB and more),
 * and the last write's size no longer says what this one costs. The demo store (224 KiB) under a
 * storm of posts was serialized here at 1.2 MB, a 24 ms stall, before its first worker write.
 */
export const WORKER_MIN_TOUCHED = 64;

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

/** An array in the data, and the items of it that were added or changed in place (all of it when left out). */
export interface Touch {
  array: unknown[];
  items?: readonly object[];
}

/** What the mutations since the last write touched, or 'everything' when one did not say. */
export type Touches = Map<unknown[], Set<object> | 'whole'> | 'everything';

/** Arrays longer than this are records, not containers: locate() does not look inside them. */
const CONTAINER_MAX_LENGTH = 64;

/**
 * The path from `root` to `target` (an array in the data), or null when it is not found. It looks
 * through objects and short arrays (organizations, collections), not inside lists of records, so
 * it finds `organizations.1.posts` or `organizations.0.collections.2.items` in a few steps.
 */
export function locate(root: unknown, target: unknown[], depth = 5): (string | number)[] | null {
  if (root === target) return [];
  if (depth === 0 || typeof root !== 'object' || root === null) return null;
  if (Array.isArray(root)) {
    if (root.length > CONTAINER_MAX_LENGTH) return null;
    for (let i = 0; i < root.length; i++) {
      const found = locate(root[i], target, depth - 1);
      if (found) return [i, ...found];
    }
    return null;
  }
  for (const key of Object.keys(root)) {
    const found = locate((root as Record<string, unknown>)[key], target, depth - 1);
    if (found) return [key, ...found];
  }
  return null;
}

/**
 * The changes that bring the worker's copy (the data as of the last write) to `data`, from what
 * the mutations said they touched: each touched item set at its index, in order (appended items
 * extend the array), a wholly touched array set whole. Null when that cannot be told (an array or
 * an item no longer in the data): then everything is compared.
 */
export function touchedChanges(data: unknown, touches: Map<unknown[], Set<object> | 'whole'>): Change[] | null {
  const changes: Change[] = [];
  for (const [array, items] of touches) {
    const path = locate(data, array);
    if (!path) return null;
    if (items === 'whole') {
      changes.push({ op: 'set', path, value: array });
      continue;
    }
    const indexes = indexesOf(array, items);
    if (!indexes) return null;
    for (const index of indexes) changes.push({ op: 'set', path: [...path, index], value: array[index] });
  }
  return changes;
}

/** Changes setting the value now at each of `paths` in `root`; null when one no longer leads anywhere. */
function currentValues(root: unknown, paths: readonly (readonly (string | number)[])[]): Change[] | null {
  const changes: Change[] = [];
  for (const path of paths) {
    let node = root;
    for (const key of path) {
      if (typeof node !== 'object' || node === null || !Object.prototype.hasOwnProperty.call(node, key)) return null;
      node = (node as Record<string | number, unknown>)[key];
    }
    changes.push({ op: 'set', path: [...path], value: node });
  }
  return changes;
}

/**
 * Where `items` sit in `array`, ascending; null when one is not there. A few are looked for from
 * the end, where appended records are; many (a storm's 500 new posts in a 10,000-post list) in one
 * pass over the array, not one search each (that was 7.5 million comparisons every 2 s).
 */
function indexesOf(array: readonly unknown[], items: ReadonlySet<object>): number[] | null {
  const indexes: number[] = [];
  if (items.size <= 8) {
    for (const item of items) {
      const index = array.lastIndexOf(item);
      if (index === -1) return null;
      indexes.push(index);
    }
    return indexes.sort((a, b) => a - b);
  }
  for (let i = 0; i < array.length; i++) if (items.has(array[i] as object)) indexes.push(i);
  return indexes.length === items.size ? indexes : null;
}

export interface AtomicJsonFileOptions {
  /** Size of the file as loaded: whether the first write goes to the worker. */
  size?: number;
  /** Override of WORKER_MIN_BYTES (tests). */
  workerMinBytes?: number;
}

/** Records the mutations said they touched (a wholly touched array counts all of its items); 0 when they did not say. */
export function touchedRecords(touches: Touches): number {
  if (touches === 'everything') return 0;
  let count = 0;
  for (const [array, items] of touches) count += items === 'whole' ? array.length : items.size;
  return count;
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
  private copy: { root: unknown; shadow: Shadow | null; generation: number } | null = null;
  /**
   * The data, the signature of the file holding its JSON (as loaded, or as last written by a
   * worker) and where the two differ (startFromFile; none after a write): what a worker without a
   * copy can start from. Whatever mutated since is in the next write's touches.
   */
  private fileBase: { root: unknown; signature: string; paths: (string | number)[][] } | null = null;
  /** How the worker's writes were sent: all the data, changes found by comparing, or the records mutations named (tests, bench). */
  readonly sent = { everything: 0, compared: 0, touched: 0 };

  constructor(
    readonly file: string,
    options: AtomicJsonFileOptions = {},
  ) {
    this.size = options.size ?? 0;
    this.workerMinBytes = options.workerMinBytes ?? WORKER_MIN_BYTES;
  }

  /**
   * `data` is the JSON of the file as it is now (`signature`, fileSignature) but for `fromText`
   * (load.ts jsonChanges: defaults the checks filled in, say): a first write whose mutations said
   * what they touched then sends the worker those values and records, and the worker reads the
   * file for the rest, instead of the main thread cloning the whole store (~0.3–0.5 s on a large
   * one). Should the file have changed by then, that write sends all of the data after all.
   */
  startFromFile(data: T, signature: string, fromText: readonly Change[]): void {
    this.fileBase = { root: data, signature, paths: fromText.map((change) => change.path) };
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
    return this.writeTouched(data, 'everything');
  }

  /** Writes `data`, of which `touches` says what changed since the last write (Store.mutate). */
  async writeTouched(data: T, touches: Touches): Promise<void> {
    const temporary = join(dirname(this.file), `.${basename(this.file)}.${process.pid}.tmp`);
    // The worker's structured clone is taken before writeInWorker returns: no await comes before
    // it, so the file holds the state of the moment the write began (the job journal counts on it).
    // A worker that holds a copy of the data is sent a small write too: cheaper than serializing here.
    const inWorker = this.size >= this.workerMinBytes || touchedRecords(touches) >= WORKER_MIN_TOUCHED || this.workerCopy(data) !== null;
    if (!inWorker) {
      // Once the file is written here, it is no longer what the data was loaded from (until the
      // rename below makes it the JSON of this write), and no worker holds a copy of the data.
      this.fileBase = null;
      this.copy = null;
    }
    const written = await (inWorker ? this.inWorker(data, temporary, touches) : writeHere(data, temporary));
    this.size = written.size;
    this.recent.push(written.hash);
    if (this.recent.length > REMEMBERED) this.recent.shift();
    try {
      // Taken of the temporary before the rename (which keeps inode, size and mtime), so it is ours
      // for certain: statting the data file after it could catch an edit made in between.
      const signature = fileSignature(await stat(temporary, { bigint: true }));
      this.recentFiles.push(signature);
      if (this.recentFiles.length > REMEMBERED) this.recentFiles.shift();
      await rename(temporary, this.file);
      // The file is now exactly the JSON of the data as this write began: a worker started after
      // the one holding its copy stopped (idle), or the first one once the store has grown past
      // the worker's threshold, reads it back instead of being sent all the data (a structured
      // clone of the whole store on the main thread: 10 ms for the demo store grown to 1.2 MB).
      this.fileBase = { root: data, signature, paths: [] };
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

  /** The running worker's copy of `data` as of the last write, if it holds one. */
  private workerCopy(data: T): { root: unknown; shadow: Shadow | null; generation: number } | null {
    return this.copy?.root === data && this.copy.generation === runningWorkerGeneration() ? this.copy : null;
  }

  /**
   * What structured clone refuses (a function, say) JSON may still write: then it is written here.
   * Whatever goes wrong, the next write sends all of the data again.
   */
  private inWorker(data: T, temporary: string, touches: Touches): Promise<WrittenTemporary> {
    const generation = workerGeneration();
    const copy = this.workerCopy(data);
    const told = touches === 'everything' ? null : touchedChanges(data, touches);
    const base = this.fileBase;
    this.fileBase = null;
    // Without a copy, the worker can start from the file: the values where the data differs from
    // the file's JSON, as they are now, then the touched records.
    const fromText = !copy && told && base?.root === data ? currentValues(data, base.paths) : null;
    if (base && told && fromText) {
      this.copy = { root: data, shadow: null, generation };
      this.sent.touched += 1;
      const write = { file: this.file, temporary, base: base.signature, changes: [...fromText, ...told] };
      return this.sendToWorker(write, data, temporary).catch((err: unknown) => {
        if (!(err instanceof Error && err.message.includes(BASE_CHANGED))) throw err;
        // The file moved on since (an edit the watcher has not applied yet): all of it.
        this.sent.touched -= 1;
        return this.inWorker(data, temporary, 'everything');
      });
    }
    let write: WorkerWrite;
    if (copy && told) {
      // The mutations said what they did: no walk of the store. A shadow kept for comparisons
      // (below) would now be behind the worker's copy: it goes, and with it its memory.
      copy.shadow = null;
      write = { file: this.file, temporary, changes: told };
      this.sent.touched += 1;
    } else if (copy && copy.shadow !== null) {
      const changes: Change[] = [];
      copy.shadow = diff(data, copy.shadow, [], changes);
      write = { file: this.file, temporary, changes };
      this.sent.compared += 1;
    } else {
      // All of it, with a shadow for comparing the next write when this one came from mutations
      // that did not say what they touched; a store whose mutations all say never holds one.
      this.copy = { root: data, shadow: touches === 'everything' ? shadowOf(data) : null, generation };
      write = { file: this.file, temporary, data };
      this.sent.everything += 1;
    }
    return this.sendToWorker(write, data, temporary);
  }

  /** Sends a write to the worker; whatever goes wrong, the next write sends all of the data again. */
  private sendToWorker(write: WorkerWrite, data: T, temporary: string): Promise<WrittenTemporary> {
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
