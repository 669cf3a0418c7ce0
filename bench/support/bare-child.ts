/**
 * Child process of a benchmark: a bare node:http server, alone in its process, answering every
 * request with the same bytes from memory (the ceiling: what Node and the load generator allow
 * for a response of that size on this machine, with no routing, no JSON work and no logging).
 *
 *   fork('bench/support/bare-child.ts', [bodyFile, contentType])   → { type: 'ready', url }
 */
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface BareChildReady {
  type: 'ready';
  url: string;
}

const [file, contentType = 'application/json; charset=utf-8'] = process.argv.slice(2);
if (!file || !process.send) {
  console.error('usage: fork bench/support/bare-child.ts <bodyFile> [contentType] (with an IPC channel)');
  process.exit(2);
}

const body = await readFile(file);
const server = createServer((_req, res) => {
  res.writeHead(200, { 'Content-Type': contentType, 'Content-Length': body.length });
  res.end(body);
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

function stop(): void {
  server.closeAllConnections();
  server.close(() => process.exit(0));
}
process.on('message', (message: 'stop') => message === 'stop' && stop());
process.on('disconnect', stop);

const ready: BareChildReady = { type: 'ready', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` };
process.send(ready);
