/**
 * Serializing a large store off the main thread (issue 7). JSON.stringify of a 74 MB store, its
 * UTF-8 encoding and hash block the event loop for over half a second per write; in the worker
 * they cost the main thread nothing. The worker keeps a copy of each file's data: the first write
 * sends all of it (a structured clone, taken synchronously when the write starts, so the file
 * holds the state of that moment), later ones only what changed since (snapshot-diff.ts), which
 * the worker applies to its copy before writing it out. It pretty-prints, encodes, hashes and
 * writes the temporary file (fsynced); the main thread renames it.
 *
 * The worker's code is plain JavaScript given as a string (`eval`), not a module file: it then
 * runs the same under tsx, vitest and the compiled package (module hooks such as tsx's do not
 * reach a worker's entry on Node 20), and inside an Electron archive. It is small on purpose.
 */
import { Worker } from 'node:worker_threads';
import type { Change } from './snapshot-diff.js';

/** Pretty-printed exactly as the main thread would (atomic-file.ts serialize()). */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const fs = require('node:fs');
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
parentPort.on('message', ({ id, file, temporary, data, changes }) => {
  try {
    if (changes) {
      if (!copies.has(file)) throw new Error('no copy of ' + file + ' to apply changes to');
      copies.set(file, apply(copies.get(file), changes));
    } else {
      copies.set(file, data);
    }
    const bytes = Buffer.from(JSON.stringify(copies.get(file), null, 2) + '\\n', 'utf8');
    const fd = fs.openSync(temporary, 'w');
    try {
      fs.writeSync(fd, bytes);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    parentPort.postMessage({ id, hash: createHash('sha256').update(bytes).digest('hex'), size: bytes.length });
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

type Reply = { id: number; hash: string; size: number } | { id: number; error: string };

let worker: Worker | null = null;
let nextId = 1;
const pending = new Map<number, { resolve: (written: WrittenTemporary) => void; reject: (err: Error) => void }>();

/** Counts the workers started: a copy the worker holds is only good while the same worker runs. */
let generation = 0;

/**
 * A worker without writes for this long is stopped, and the copies of data it holds (as large as
 * the stores) with it; the next write starts another and sends all of its data.
 */
const IDLE_MS = 60_000;
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
  worker = null;
}

/** One worker for the process, started at the first large write; it keeps the process alive only while writing. */
function theWorker(): Worker {
  if (worker) return worker;
  const started = new Worker(WORKER_SOURCE, { eval: true });
  started.on('message', (reply: Reply) => {
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

/** All of a file's data, or the changes since its last write (snapshot-diff.ts). */
export type WorkerWrite = { file: string; temporary: string } & ({ data: unknown } | { changes: Change[] });

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
