/**
 * Serializing a large store off the main thread (issue 7). JSON.stringify of a 74 MB store, its
 * UTF-8 encoding and hash block the event loop for over half a second per write; handing the
 * data to a worker costs only its structured clone (about a third of that), after which the
 * worker pretty-prints, encodes, hashes and writes the temporary file (fsynced) while the main
 * thread serves requests. The clone is taken synchronously, when the write starts, so the file
 * holds the state of that moment even if mutations follow at once.
 *
 * The worker's code is plain JavaScript given as a string (`eval`), not a module file: it then
 * runs the same under tsx, vitest and the compiled package (module hooks such as tsx's do not
 * reach a worker's entry on Node 20), and inside an Electron archive. It is small on purpose.
 */
import { Worker } from 'node:worker_threads';

/** Pretty-printed exactly as the main thread would (store/atomic-file.ts serialize()). */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const fs = require('node:fs');
parentPort.on('message', ({ id, data, temporary }) => {
  try {
    const bytes = Buffer.from(JSON.stringify(data, null, 2) + '\\n', 'utf8');
    const fd = fs.openSync(temporary, 'w');
    try {
      fs.writeSync(fd, bytes);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    parentPort.postMessage({ id, hash: createHash('sha256').update(bytes).digest('hex'), size: bytes.length });
  } catch (err) {
    parentPort.postMessage({ id, error: String(err && err.stack || err) });
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
    if (pending.size === 0) started.unref();
    if ('error' in reply) waiting.reject(new Error(`writing the data file failed in its worker: ${reply.error}`));
    else waiting.resolve({ hash: reply.hash, size: reply.size });
  });
  started.on('error', (err) => failAll(err));
  started.on('exit', (code) => {
    if (worker === started) failAll(new Error(`the data file's write worker stopped (exit code ${code})`));
  });
  started.unref();
  worker = started;
  return started;
}

/**
 * Writes `data`, pretty-printed, to `temporary` (fsynced) in the worker. The data is cloned before
 * this returns its promise; a value structured clone refuses throws here, synchronously.
 */
export function writeInWorker(data: unknown, temporary: string): Promise<WrittenTemporary> {
  const target = theWorker();
  const id = nextId++;
  const done = new Promise<WrittenTemporary>((resolve, reject) => pending.set(id, { resolve, reject }));
  try {
    target.postMessage({ id, data, temporary });
  } catch (err) {
    pending.delete(id);
    throw err;
  }
  target.ref();
  return done;
}
