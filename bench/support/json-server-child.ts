/**
 * Child process of a benchmark: json-server 0.17.4 (the tool a user would reach for instead of
 * the emulator) over a db.json, set up as its CLI does (`json-server db.json`) but on port 0 and
 * without the request logger (`--quiet`), so the baseline is as fast as json-server gets.
 *
 *   fork('bench/support/json-server-child.ts', [dbFile])   → { type: 'ready', url }
 */
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import type { Express, RequestHandler } from 'express';

export interface JsonServerReady {
  type: 'ready';
  url: string;
}

/** The part of json-server's CommonJS API used here (it ships no types). */
interface JsonServer {
  create(): Express;
  defaults(options: { logger: boolean }): RequestHandler[];
  router(source: string): RequestHandler;
}

const dbFile = process.argv[2];
if (!dbFile || !process.send) {
  console.error('usage: fork bench/support/json-server-child.ts <db.json> (with an IPC channel)');
  process.exit(2);
}

const jsonServer = createRequire(import.meta.url)('json-server') as JsonServer;
const app = jsonServer.create();
app.use(jsonServer.defaults({ logger: false }));
app.use(jsonServer.router(dbFile));
const server = app.listen(0, '127.0.0.1');
await new Promise<void>((resolve) => server.once('listening', resolve));

function stop(): void {
  server.closeAllConnections();
  server.close(() => process.exit(0));
}
process.on('message', (message: 'stop') => message === 'stop' && stop());
process.on('disconnect', stop);

const ready: JsonServerReady = { type: 'ready', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
process.send(ready);
