/**
 * Child process of a benchmark: hosts one emulator over a prepared data folder, so the load
 * generator in the parent does not share the server's event loop. Reports its URLs and tokens
 * over IPC once listening; stops on "stop" (or when the parent goes away).
 *
 * It can also host a bare node:http server that answers every request with the bytes of one
 * file held in memory: the ceiling that the load generator itself allows for responses of that
 * size, to tell a slow server from a saturated client.
 *
 *   fork('bench/support/serve.ts', [dataDir])   (the parent's tsx loader is inherited)
 */
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEmulator } from '../../server/index.js';

export interface ServeReady {
  type: 'ready';
  url: string;
  apiUrl: string;
  cdnUrl: string;
  tokens: Record<string, { read: string; write: string }>;
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

const emulator = await createEmulator({ dataDir, fixture: 'demo', port: 0, host: '127.0.0.1' });
const running = await emulator.start();
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

process.on('message', (message: 'stop' | BareRequest) => {
  if (message === 'stop') void stop();
  else if (message.type === 'bare') void startBare(message).then((ready) => process.send!(ready));
});
process.on('disconnect', () => void stop());

const ready: ServeReady = { type: 'ready', url: running.url, apiUrl: running.apiUrl, cdnUrl: running.cdnUrl, tokens };
process.send(ready);
