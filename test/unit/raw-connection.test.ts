/**
 * The paced load generator's connections (bench/support/raw-connection.ts) against a real
 * node:http server: requests in order on one keep-alive connection, a new connection when the
 * server closes one, a failed request that does not take the next ones with it, and bodies sent
 * with the length they have in UTF-8.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { RawConnection, type RawOutcome } from '../../bench/support/raw-connection.js';

let server: Server | null = null;
const sockets = new Set<string>();

afterEach(async () => {
  const closing = server;
  server = null;
  sockets.clear();
  if (!closing) return;
  // Connections left open (a test that failed halfway) must not hold the close up.
  closing.closeAllConnections();
  await new Promise<void>((resolve) => closing.close(() => resolve()));
});

/** A server whose answer to each request is the body it received, as JSON: its bytes and text. */
async function echoServer(behaviour: (path: string) => 'answer' | 'close' | 'destroy' = () => 'answer'): Promise<number> {
  server = createServer((req, res) => {
    sockets.add(`${req.socket.remotePort}`);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const what = behaviour(req.url ?? '/');
      if (what === 'destroy') return req.socket.destroy();
      if (what === 'close') res.setHeader('Connection', 'close');
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ path: req.url, bytes: body.length, text: body.toString('utf8') }));
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

function post(path: string, body: string): string {
  return `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

function sendAll(connection: RawConnection, requests: string[]): Promise<RawOutcome[]> {
  return Promise.all(requests.map((bytes) => new Promise<RawOutcome>((done) => connection.send({ bytes, done }))));
}

describe('RawConnection', () => {
  it('sends requests one after the other on one keep-alive connection', async () => {
    const port = await echoServer();
    const connection = new RawConnection('127.0.0.1', port);
    const outcomes = await sendAll(
      connection,
      Array.from({ length: 20 }, (_, i) => post(`/n${i}`, `{"i":${i}}`)),
    );
    expect(outcomes.every((o) => 'status' in o && o.status === 200 && o.bytes > 0)).toBe(true);
    expect(sockets.size).toBe(1);
    connection.close();
  });

  it('sends a body with its length in UTF-8 bytes', async () => {
    let seen = '';
    const port = await echoServer();
    server!.on('request', (req) => req.on('data', (chunk: Buffer) => (seen += chunk.toString('utf8'))));
    const connection = new RawConnection('127.0.0.1', port);
    const body = JSON.stringify({ title: 'Crème brûlée ☕ 東京' });
    const [outcome] = await sendAll(connection, [post('/utf8', body), post('/after', '{}')]);
    expect(outcome).toMatchObject({ status: 200 });
    expect(seen).toContain(body);
    connection.close();
  });

  it('opens a new connection when the server closes one', async () => {
    const port = await echoServer((path) => (path === '/last-on-this-one' ? 'close' : 'answer'));
    const connection = new RawConnection('127.0.0.1', port);
    const outcomes = await sendAll(connection, [post('/a', '{}'), post('/last-on-this-one', '{}'), post('/b', '{}'), post('/c', '{}')]);
    expect(outcomes.map((o) => ('status' in o ? o.status : o.error.message))).toEqual([200, 200, 200, 200]);
    expect(sockets.size).toBe(2);
    connection.close();
  });

  it('fails a request whose connection dies, and goes on with the next on a new one', async () => {
    const port = await echoServer((path) => (path === '/die' ? 'destroy' : 'answer'));
    const connection = new RawConnection('127.0.0.1', port);
    const outcomes = await sendAll(connection, [post('/a', '{}'), post('/die', '{}'), post('/b', '{}')]);
    expect('status' in outcomes[0]!).toBe(true);
    expect('error' in outcomes[1]!).toBe(true);
    expect(outcomes[2]).toMatchObject({ status: 200 });
    connection.close();
  });

  it('fails what is still waiting when it is closed', async () => {
    const port = await echoServer();
    server!.removeAllListeners('request'); // never answers
    const connection = new RawConnection('127.0.0.1', port);
    const pending = sendAll(connection, [post('/a', '{}'), post('/b', '{}')]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    connection.close();
    const outcomes = await pending;
    expect(outcomes.every((o) => 'error' in o)).toBe(true);
  });
});
