/**
 * Child process of a benchmark: hosts one emulator over a prepared data folder, so the load
 * generator in the parent does not share the server's event loop. Reports its URLs and tokens
 * over IPC once listening; stops on "stop" (or when the parent goes away).
 *
 * It can also host a bare node:http server that answers every request with the bytes of one
 * file held in memory: the ceiling that the load generator itself allows for responses of that
 * size, to tell a slow server from a saturated client.
 *
 *   fork('bench/support/serve.ts', [dataDir, fixture?])   (run compiled: see compiled.ts)
 *
 * `fixture` (default demo) is what a reset goes back to. It also answers { type: 'memory' } with
 * its process.memoryUsage(), so a benchmark can watch the server's resident size under load.
 */
import { readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { getHeapSpaceStatistics } from 'node:v8';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createEmulator } from '../../server/index.js';
import { stopWriteWorker, writeWorkerHeap } from '../../server/store/write-worker.js';

export interface ServeReady {
  type: 'ready';
  url: string;
  apiUrl: string;
  cdnUrl: string;
  tokens: Record<string, { read: string; write: string }>;
  /** createEmulator + start in this process (the store load), without the process start. */
  startup_ms: number;
}

/** Parent → child: the event loop's delays since the last such request (and start over). */
export interface LoopRequest {
  type: 'loop';
}

/** Child → parent: event-loop delay percentiles in milliseconds. */
export interface LoopReport {
  type: 'loop-report';
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
}

/** Parent → child: how much memory the process holds now. */
export interface MemoryRequest {
  type: 'memory';
}

/** Child → parent: process.memoryUsage() in bytes. */
export interface MemoryReport {
  type: 'memory-report';
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
}

/**
 * Parent → child: where the resident memory goes (bench/memory-breakdown.ts). With `gc` (the
 * child started with --expose-gc) collects twice first; with `stopWorker` stops the store's write
 * worker first if it is idle, to see its share.
 */
export interface DiagnoseRequest {
  type: 'diagnose';
  gc?: boolean;
  stopWorker?: boolean;
}

/** Child → parent: sizes in bytes. */
export interface DiagnoseReport {
  type: 'diagnose-report';
  usage: NodeJS.MemoryUsage;
  /** v8.getHeapSpaceStatistics(): name → [used, committed]. */
  spaces: Record<string, [number, number]>;
  /** The write worker's isolate (v8.getHeapStatistics() in it), or null when none runs. */
  worker: { used: number; total: number; external: number } | null;
  workerStopped: boolean;
  /** /proc/self/status and /proc/self/smaps_rollup (kB → bytes). */
  rssAnon: number;
  rssFile: number;
  threads: number;
  /** Resident anonymous memory of the brk heap (glibc's main malloc arena). */
  brkHeap: number;
  /** Resident anonymous memory of mappings whose reservation is 64 MiB (glibc's per-thread arenas). */
  threadArenas: number;
}

/** Parent → child: serve this file's bytes from memory on a bare server. */
export interface BareRequest {
  type: 'bare';
  file: string;
  contentType: string;
}

/** Child → parent: the bare server's URL. */
export interface BareReady {
  type: 'bare-ready';
  file: string;
  url: string;
}

const dataDir = process.argv[2];
if (!dataDir || !process.send) {
  console.error('usage: fork bench/support/serve.ts <dataDir> (with an IPC channel)');
  process.exit(2);
}

const fixture = process.argv[3] ?? 'demo';
const started = performance.now();
const emulator = await createEmulator({ dataDir, fixture, port: 0, host: '127.0.0.1' });
const running = await emulator.start();
const startupMs = performance.now() - started;
const tokens = Object.fromEntries(emulator.organizations().map((o) => [o.slug, { read: o.readToken, write: o.writeToken }]));
const bare: Server[] = [];

async function startBare(request: BareRequest): Promise<BareReady> {
  const body = await readFile(request.file);
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': request.contentType, 'Content-Length': body.length });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  bare.push(server);
  return { type: 'bare-ready', file: request.file, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` };
}

async function stop(): Promise<void> {
  for (const server of bare) server.closeAllConnections();
  await Promise.all(bare.map((server) => new Promise((resolve) => server.close(resolve))));
  await emulator.stop();
  process.exit(0);
}

/** A number field of /proc's `Name:   value` text. */
const field = (text: string, name: string): number => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? 0);
const kB = (text: string, name: string): number => field(text, name) * 1024;

/**
 * Resident anonymous memory of glibc's malloc arenas, from /proc/self/smaps: the brk heap, and the
 * per-thread arenas, which glibc reserves 64 MiB at a time (a read-write part followed by a
 * no-access remainder, both counted here by their reservation).
 */
function mallocArenas(): { brkHeap: number; threadArenas: number } {
  let brkHeap = 0;
  let threadArenas = 0;
  const mappings = readFileSync('/proc/self/smaps', 'utf8').split(/\n(?=[0-9a-f]+-[0-9a-f]+ )/);
  for (let i = 0; i < mappings.length; i++) {
    const header = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ (\d+)\s*(.*)/.exec(mappings[i]!);
    if (!header) continue;
    const rss = kB(mappings[i]!, 'Rss');
    if (header[5] === '[heap]') brkHeap += rss;
    if (header[4] !== '0' || header[5] !== '' || header[3] !== 'rw-p') continue;
    const start = parseInt(header[1]!, 16);
    const next = /^[0-9a-f]+-([0-9a-f]+) ---p/.exec(mappings[i + 1] ?? '');
    const end = next ? parseInt(next[1]!, 16) : parseInt(header[2]!, 16);
    if (end - start === 64 * 1024 * 1024 && start % (64 * 1024 * 1024) === 0) threadArenas += rss;
  }
  return { brkHeap, threadArenas };
}

async function diagnose(request: DiagnoseRequest): Promise<DiagnoseReport> {
  const workerStopped = request.stopWorker ? await stopWriteWorker() : false;
  const gc = (globalThis as { gc?: () => void }).gc;
  if (request.gc && gc) {
    gc();
    // A worker's terminate frees its isolate a moment later.
    await new Promise((resolve) => setTimeout(resolve, 200));
    gc();
  }
  const heap = await writeWorkerHeap();
  const status = readFileSync('/proc/self/status', 'utf8');
  return {
    type: 'diagnose-report',
    usage: process.memoryUsage(),
    spaces: Object.fromEntries(getHeapSpaceStatistics().map((s) => [s.space_name, [s.space_used_size, s.space_size]])),
    worker: heap && { used: heap.used_heap_size, total: heap.total_heap_size, external: heap.external_memory },
    workerStopped,
    rssAnon: kB(status, 'RssAnon'),
    rssFile: kB(status, 'RssFile'),
    threads: field(status, 'Threads'),
    ...mallocArenas(),
  };
}

const loop = monitorEventLoopDelay({ resolution: 5 });
loop.enable();
const ms = (ns: number) => Math.round(ns / 1e5) / 10;

process.on('message', (message: 'stop' | BareRequest | MemoryRequest | LoopRequest | DiagnoseRequest) => {
  if (message === 'stop') void stop();
  else if (message.type === 'diagnose') void diagnose(message).then((report) => process.send!(report));
  else if (message.type === 'bare') void startBare(message).then((ready) => process.send!(ready));
  else if (message.type === 'loop') {
    process.send!({
      type: 'loop-report',
      p50_ms: ms(loop.percentile(50)),
      p99_ms: ms(loop.percentile(99)),
      max_ms: ms(loop.max),
    } satisfies LoopReport);
    loop.reset();
  } else if (message.type === 'memory') process.send!({ type: 'memory-report', ...process.memoryUsage() } satisfies MemoryReport);
});
process.on('disconnect', () => void stop());

const ready: ServeReady = {
  type: 'ready',
  url: running.url,
  apiUrl: running.apiUrl,
  cdnUrl: running.cdnUrl,
  tokens,
  startup_ms: Math.round(startupMs),
};
process.send(ready);
