/**
 * Serializing a large store off the main thread (issue 7). JSON.stringify of a 74 MB store, its
 * UTF-8 encoding and hash block the event loop for over half a second per write; in the worker
 * they cost the main thread nothing. The worker keeps a copy of each file's data: the first write
 * sends all of it (a structured clone, taken synchronously when the write starts, so the file
 * holds the state of that moment), later ones only what changed since (snapshot-diff.ts), which
 * the worker applies to its copy before writing it out. It pretty-prints, encodes, hashes and
 * writes the temporary file (fsynced) a piece at a time, and collects its garbage once writes go
 * quiet; the main thread renames the file.
 *
 * The worker's code is plain JavaScript given as a string (`eval`), not a module file: it then
 * runs the same under tsx, vitest and the compiled package (module hooks such as tsx's do not
 * reach a worker's entry on Node 20), and inside an Electron archive. It is small on purpose.
 */
import type { HeapInfo } from 'node:v8';
import { Worker } from 'node:worker_threads';
import type { Change } from './snapshot-diff.js';

/**
 * The file's text, `JSON.stringify(value, null, 2) + '\n'` to the byte, handed to `emit` in
 * pieces of about `chunkChars` characters, so a write never holds the whole text (on a large store
 * a 74 MB string and its 74 MB Buffer, on top of the copy of the data: most of the worker's
 * resident size right after each write, as an idle worker does not collect its garbage).
 *
 * The outer levels (the root, organizations, their collections) are written key by key and item
 * by item, and so is any deeper array of 16 items or more, or an object holding one (a
 * collection's items). The records of an array go to JSON.stringify 64 at a time, nested in as
 * many arrays as their indent takes, the wrapping cut off; any other value is one JSON.stringify,
 * re-indented: JSON text never holds a raw newline inside a string, so putting the indent after
 * each newline is exact. Same speed as one JSON.stringify of the whole (~0.4 s on 74 MB).
 * Only plain objects and arrays are walked here; anything else (a Date, a boxed number) goes to
 * JSON.stringify whole, which calls its toJSON with '' for a key where the one-piece path passed
 * the property's name: no value a structured clone makes reads its key.
 *
 * Plain JavaScript in a string, so that the worker (see below) and the tests run the same text.
 */
const SERIALIZER_SOURCE = `
function serializeJson(value, emit, chunkChars) {
  let pending = '';
  const put = (text) => {
    pending += text;
    if (pending.length >= chunkChars) {
      emit(pending);
      pending = '';
    }
  };
  const LONG = 16;
  const BATCH = 64;
  const isPlain = (v) => {
    if (typeof v !== 'object' || v === null) return false;
    if (Array.isArray(v)) return true;
    const prototype = Object.getPrototypeOf(v);
    return (prototype === Object.prototype || prototype === null) && typeof v.toJSON !== 'function';
  };
  // Whether v is, or holds within \`levels\` levels, an array of LONG items or more.
  const holdsLong = (v, levels) => {
    if (Array.isArray(v) && v.length >= LONG) return true;
    if (levels === 0) return false;
    for (const item of Array.isArray(v) ? v : Object.values(v)) if (isPlain(item) && holdsLong(item, levels - 1)) return true;
    return false;
  };
  const walked = (v, depth) => isPlain(v) && (depth < 3 || holdsLong(v, 2));
  // JSON.stringify's text of v at this indent; undefined where it writes nothing (undefined, a function).
  const whole = (v, indent) => {
    const text = JSON.stringify(v, null, 2);
    return text === undefined || indent === '' ? text : text.replaceAll('\\n', '\\n' + indent);
  };
  // Items from..to of an array whose items sit at \`inner\`, joined as JSON.stringify joins them: one
  // JSON.stringify of the slice nested in as many arrays as it takes to indent it, the wrapping cut off.
  const items = (v, from, to, inner) => {
    let wrapped = v.slice(from, to);
    for (let level = 2; level < inner.length; level += 2) wrapped = [wrapped];
    const text = JSON.stringify(wrapped, null, 2);
    const cut = inner.length / 2;
    // Before the first item come \`cut\` lines of '[\\n' and an indent of 2k (k = 1..cut) characters;
    // after the last, \`cut\` of '\\n', an indent of 2k (k = 0..cut-1) and ']'.
    return text.slice(cut * (cut + 3), text.length - cut * (cut + 1));
  };
  const write = (v, indent, depth) => {
    const inner = indent + '  ';
    if (Array.isArray(v)) {
      if (v.length === 0) return put('[]');
      let i = 0;
      while (i < v.length) {
        const head = (i === 0 ? '[\\n' : ',\\n') + inner;
        if (walked(v[i], depth + 1)) {
          put(head);
          write(v[i], inner, depth + 1);
          i += 1;
          continue;
        }
        let end = i + 1;
        while (end < v.length && end - i < BATCH && !walked(v[end], depth + 1)) end += 1;
        put(head + items(v, i, end, inner));
        i = end;
      }
      return put('\\n' + indent + ']');
    }
    let first = true;
    for (const key of Object.keys(v)) {
      const item = v[key];
      const head = (first ? '{\\n' : ',\\n') + inner + JSON.stringify(key) + ': ';
      if (walked(item, depth + 1)) {
        put(head);
        write(item, inner, depth + 1);
      } else {
        const text = whole(item, inner);
        if (text === undefined) continue;
        put(head + text);
      }
      first = false;
    }
    put(first ? '{}' : '\\n' + indent + '}');
  };
  if (walked(value, 0)) write(value, '', 0);
  else put(String(whole(value, '')));
  put('\\n');
  if (pending.length > 0) emit(pending);
}
`;

/**
 * The serializer above, for tests: calls `emit` with consecutive pieces of
 * `JSON.stringify(value, null, 2) + '\n'`.
 */
export const serializeJson = new Function(`${SERIALIZER_SOURCE}; return serializeJson;`)() as (
  value: unknown,
  emit: (text: string) => void,
  chunkChars: number,
) => void;

/**
 * The worker's young generation. Its data arrives in one structured clone and lives on: a young
 * generation as large as the main thread's (32 MB here) only stays committed after it, ~29 MB of
 * resident size on the large store (heap committed after a write and a collection: 110 → 81 MB),
 * with no change in a write's time.
 */
const YOUNG_GENERATION_MB = 4;

/**
 * Quiet time after a write before the worker collects its garbage (a full collection: 40–100 ms
 * of its CPU on the large store). Longer than the store's longest wait between two writes under
 * sustained writes (2 s, store.ts), so it never runs in the middle of a storm, where it took a
 * core from the requests every 2 s; shorter than the idle stop, which frees everything.
 */
const COLLECT_AFTER_MS = 3000;

/** Characters of text encoded and written at a time (a megabyte or so of the file). */
const CHUNK_CHARS = 1 << 20;

/**
 * The worker thread's nice value on Linux (the lowest priority). Serializing a large store takes a
 * core for half a second every couple of seconds under sustained writes; on a machine with two
 * cores it competed with the event loop and the clients, and the 202s waited (issue 10: large
 * store, steady 250 writes/s, p99 13.0 / 20.4 / 24.4 ms at nice 0 against 9.8 / 10.7 / 15.2 at
 * 19, three back-to-back pairs). The cost: on a machine saturated by other processes the data
 * file is written late (what `/jobs/idle` and a reset wait for); the journal holds every accepted
 * write meanwhile, and answers do not wait for the file.
 */
export const WORKER_NICE = 19;
/** In the error of a write whose `base` no longer matches the file: send all of the data instead. */
export const BASE_CHANGED = 'the data file changed since it was loaded';

/**
 * The worker's code. Each write encodes the text a piece at a time into one reused buffer,
 * hashing and writing each piece as it goes: the same bytes and SHA-256 as the whole text would
 * give. It also answers `{ heap: true }` with its isolate's heap statistics (diagnostics).
 */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const v8 = require('node:v8');
const vm = require('node:vm');
${SERIALIZER_SOURCE}
const CHUNK_CHARS = ${CHUNK_CHARS};
// Background work: on Linux the nice value is the thread's own (setpriority with pid 0), so only
// this thread yields to the event loop when the cores are busy. Elsewhere it would lower the
// whole process, so it is left alone there.
if (process.platform === 'linux') {
  try {
    require('node:os').setPriority(${WORKER_NICE});
  } catch {
    // not allowed here: the worker runs at the process's priority
  }
}
const BASE_CHANGED = ${JSON.stringify(BASE_CHANGED)};
// UTF-8 takes at most 3 bytes per UTF-16 code unit.
const buffer = Buffer.allocUnsafeSlow(3 * CHUNK_CHARS);
// The data of each file as of its last write, to which later writes' changes apply.
const copies = new Map();
function apply(root, changes) {
  for (const change of changes) {
    if (change.path.length === 0) {
      root = change.value;
      continue;
    }
    let node = root;
    for (let i = 0; i < change.path.length - 1; i++) node = node[change.path[i]];
    const last = change.path[change.path.length - 1];
    if (change.op === 'set') node[last] = change.value;
    else for (const value of change.values) node[last].push(value);
  }
  return root;
}
function writeAll(fd, bytes) {
  for (let done = 0; done < bytes.length; ) done += fs.writeSync(fd, bytes, done, bytes.length - done);
}
function writeFile(temporary, data) {
  const hash = createHash('sha256');
  let size = 0;
  const fd = fs.openSync(temporary, 'w');
  try {
    serializeJson(data, (text) => {
      // A piece longer than the buffer (a record of over a megabyte) is encoded on its own.
      const bytes = text.length * 3 <= buffer.length ? buffer.subarray(0, buffer.write(text, 0, 'utf8')) : Buffer.from(text, 'utf8');
      hash.update(bytes);
      writeAll(fd, bytes);
      size += bytes.length;
    }, CHUNK_CHARS);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  return { hash: hash.digest('hex'), size };
}
// An idle isolate never collects its garbage: after a write the structured clone's and the
// serializer's leftovers (as much again as the copy on a large store) would stay resident until the
// next write. A full collection once writes have gone quiet gives them back; V8 can only be asked
// through --expose-gc, which from here on gives new contexts a gc() (none of ours reads it).
v8.setFlagsFromString('--expose-gc');
const collect = vm.runInNewContext('gc');
const COLLECT_AFTER_MS = ${COLLECT_AFTER_MS};
let collectTimer = null;
parentPort.on('message', ({ id, file, temporary, data, base, changes, heap }) => {
  clearTimeout(collectTimer);
  collectTimer = setTimeout(collect, COLLECT_AFTER_MS);
  if (heap) {
    parentPort.postMessage({ id, heap: v8.getHeapStatistics() });
    return;
  }
  try {
    if (base) {
      // The data as loaded is the file as it is on disk (same inode, size and mtime as when it was
      // read): read and parse it here instead of the main thread cloning all of it.
      const stats = fs.statSync(file, { bigint: true });
      if (stats.dev + ':' + stats.ino + ':' + stats.size + ':' + stats.mtimeNs !== base) throw new Error(BASE_CHANGED);
      copies.set(file, JSON.parse(fs.readFileSync(file, 'utf8')));
    }
    if (changes) {
      if (!copies.has(file)) throw new Error('no copy of ' + file + ' to apply changes to');
      copies.set(file, apply(copies.get(file), changes));
    } else {
      copies.set(file, data);
    }
    parentPort.postMessage({ id, ...writeFile(temporary, copies.get(file)) });
  } catch (err) {
    // A copy that may have taken part of the changes is dropped: the next write sends all.
    copies.delete(file);
    parentPort.postMessage({ id, error: String((err && err.stack) || err) });
  }
});
`;

export interface WrittenTemporary {
  /** SHA-256 (hex) of the bytes written. */
  hash: string;
  size: number;
}

/** The worker isolate's heap (v8.getHeapStatistics() in it): Node 20 has no Worker#getHeapStatistics. */
export type WorkerHeap = HeapInfo;

type Reply = { id: number; hash: string; size: number } | { id: number; error: string } | { id: number; heap: WorkerHeap };

let worker: Worker | null = null;
let nextId = 1;
const pending = new Map<number, { resolve: (written: WrittenTemporary) => void; reject: (err: Error) => void }>();
const heapQueries = new Map<number, (heap: WorkerHeap | null) => void>();

/** Counts the workers started: a copy the worker holds is only good while the same worker runs. */
let generation = 0;

/**
 * A worker without writes for this long is stopped, and the copies of data it holds (as large as
 * the stores) with it. On the large store the worker holds ~100 MB of resident memory (heap 75 MB
 * used, 81 committed, plus its thread). The next write starts another, which reads the file the
 * last one wrote (atomic-file.ts: a base) when the data's mutations since all said what they
 * touched, at no cost to the main thread; otherwise it is sent all of the data (~130 ms of the
 * main thread on the large store). Under sustained writes a write goes at least every 2 s
 * (store.ts), so 5 s of quiet keeps one worker through a burst and gives the memory back soon after.
 */
const IDLE_MS = 5_000;
let idleTimer: NodeJS.Timeout | null = null;

function stopWhenIdle(target: Worker): void {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = setTimeout(() => {
    idleTimer = null;
    if (worker !== target || pending.size > 0) return;
    worker = null;
    void target.terminate();
  }, IDLE_MS);
  idleTimer.unref();
}

function failAll(err: Error): void {
  for (const { reject } of pending.values()) reject(err);
  pending.clear();
  for (const answer of heapQueries.values()) answer(null);
  heapQueries.clear();
  worker = null;
}

/** One worker for the process, started at the first large write; it keeps the process alive only while writing. */
function theWorker(): Worker {
  if (worker) return worker;
  const started = new Worker(WORKER_SOURCE, { eval: true, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } });
  started.on('message', (reply: Reply) => {
    if ('heap' in reply) {
      heapQueries.get(reply.id)?.(reply.heap);
      heapQueries.delete(reply.id);
      if (pending.size === 0 && heapQueries.size === 0) started.unref();
      return;
    }
    const waiting = pending.get(reply.id);
    if (!waiting) return;
    pending.delete(reply.id);
    if (pending.size === 0) {
      started.unref();
      stopWhenIdle(started);
    }
    if ('error' in reply) waiting.reject(new Error(`writing the data file failed in its worker: ${reply.error}`));
    else waiting.resolve({ hash: reply.hash, size: reply.size });
  });
  started.on('error', (err) => failAll(err));
  started.on('exit', (code) => {
    if (worker === started) failAll(new Error(`the data file's write worker stopped (exit code ${code})`));
  });
  started.unref();
  worker = started;
  generation += 1;
  return started;
}

/**
 * All of a file's data, or the changes since its last write (snapshot-diff.ts), or changes to the
 * file as it is on disk when `base` (its fileSignature) still matches: the data as loaded was
 * exactly the file's JSON, so the worker reads the file instead of being sent all of it.
 */
export type WorkerWrite = { file: string; temporary: string } & ({ data: unknown } | { changes: Change[]; base?: string });

/**
 * Writes a file's data, pretty-printed, to `temporary` (fsynced) in the worker. What is sent is
 * cloned before this returns its promise; a value structured clone refuses throws here,
 * synchronously. After a failed write the worker holds no copy of the file's data: send it all.
 */
export function writeInWorker(write: WorkerWrite): Promise<WrittenTemporary> {
  const target = theWorker();
  const id = nextId++;
  const done = new Promise<WrittenTemporary>((resolve, reject) => pending.set(id, { resolve, reject }));
  try {
    target.postMessage({ id, ...write });
  } catch (err) {
    pending.delete(id);
    throw err;
  }
  target.ref();
  return done;
}

/**
 * Which worker will take the next write (it starts one if none runs). The copies of data a worker
 * holds die with it: a file whose last write went to another worker must send all of its data.
 */
export function workerGeneration(): number {
  theWorker();
  return generation;
}

/** The running worker's generation (workerGeneration), or null when none runs: it starts none. */
export function runningWorkerGeneration(): number | null {
  return worker ? generation : null;
}

/** The write worker's heap, or null when none runs (memory diagnostics: bench/memory-breakdown.ts). */
export function writeWorkerHeap(): Promise<WorkerHeap | null> {
  const target = worker;
  if (!target) return Promise.resolve(null);
  const id = nextId++;
  return new Promise((resolve) => {
    heapQueries.set(id, resolve);
    target.postMessage({ id, heap: true });
    target.ref();
  });
}

/** Stops the write worker now if it is idle (memory diagnostics: its share of the resident size). */
export async function stopWriteWorker(): Promise<boolean> {
  const target = worker;
  if (!target || pending.size > 0) return false;
  worker = null;
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = null;
  await target.terminate();
  return true;
}
