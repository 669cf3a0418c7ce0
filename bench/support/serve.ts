/**
 * Child process of a benchmark: hosts one emulator over a prepared data folder, so the load
 * generator in the parent does not share the server's event loop. Reports its URLs and tokens
 * over IPC once listening; stops on "stop" (or when the parent goes away).
 *
 * It can also host a bare node:http server that answers every request with the bytes of one
 * file held in memory: the ceiling that the load generator itself allows for responses of that
 * size, to tell a slow server from a saturated client.
 *
 *   fork('bench/support/serve.ts', [dataDir, fixture?])   (the parent's tsx loader is inherited)
 *
 * `fixture` (default demo) is what a reset goes back to. It also answers { type: 'memory' } with
 * its process.memoryUsage(), so a benchmark can watch the server's resident size under load.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createEmulator } from '../../server/index.js';

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

const loop = monitorEventLoopDelay({ resolution: 5 });
loop.enable();
const ms = (ns: number) => Math.round(ns / 1e5) / 10;

process.on('message', (message: 'stop' | BareRequest | MemoryRequest | LoopRequest) => {
  if (message === 'stop') void stop();
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
