/**
 * The request log's ring and byte budget (server/http/request-log.ts), on a bare Express app over
 * real HTTP so that bodies reach the log as Express hands them to Node: newest first, the oldest
 * entries evicted past the size, bodies counted once per buffer however many entries share it,
 * the oldest bodies dropped (and marked) past the budget, and the URL redaction.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { EventBus } from '../../server/bus.js';
import { BODY_CAP, RequestLog, plainRequest, redactUrl, type LoggedRequest } from '../../server/http/request-log.js';
import { requestLogger } from '../../server/http/request-logger.js';

const servers: Server[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** A JSON body of exactly `bytes` bytes, filled with `fill`, in a buffer of its own. */
function jsonOf(bytes: number, fill = 'x'): Buffer {
  return Buffer.from(`"${fill.repeat(bytes - 2)}"`);
}

const SHARED = jsonOf(40_000, 's');
const LARGE = jsonOf(100_000, 'l');

async function serve(log: RequestLog): Promise<(path: string, init?: RequestInit) => Promise<string>> {
  const bus = new EventBus();
  const app = express();
  app.use(requestLogger(log, 'api', { now: () => new Date() }, bus));
  app.get('/unique/:bytes', (req, res) => {
    res.type('json').send(jsonOf(Number(req.params.bytes), 'u'));
  });
  app.get('/shared', (_req, res) => {
    res.type('json').send(SHARED);
  });
  app.get('/large', (_req, res) => {
    res.type('json').send(LARGE);
  });
  // Sends a buffer and writes over it once the response is done: a log that kept the very
  // buffer sent would show the new bytes.
  app.get('/reused', (_req, res) => {
    // A buffer of its own (not a view into Node's pool, which the log always copied).
    const body = Buffer.allocUnsafeSlow(1000);
    body.write(`"${'r'.repeat(998)}"`);
    res.on('finish', () => body.fill('z', 1, body.length - 1));
    res.type('json').send(body);
  });
  app.get('/small', (_req, res) => {
    res.json({ ok: true });
  });
  // A body in several writes, with a header of `bytes` characters (records of any size).
  app.get('/chunked/:bytes', (req, res) => {
    res.type('text/plain').setHeader('x-padding', 'p'.repeat(Number(req.params.bytes)));
    res.write('first,');
    res.write(Buffer.from('second,'));
    res.end('third');
  });
  app.get('/cookies', (_req, res) => {
    res.setHeader('set-cookie', ['a=1', 'b=2']);
    res.setHeader('x-count', 7);
    res.json({ ok: true });
  });
  app.get('/image', (_req, res) => {
    res.type('png').send(Buffer.alloc(300, 1));
  });
  app.post('/echo', (_req, res) => {
    res.status(204).end();
  });
  const server = app.listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return async (path, init) => {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, init);
    const text = await response.text();
    // The entry is added on 'finish', which may come a tick after the client has the response.
    await new Promise((resolve) => setImmediate(resolve));
    return text;
  };
}

const ids = (list: readonly LoggedRequest[]) => list.map((e) => e.path);
const json = (entry: LoggedRequest | undefined) => JSON.parse(JSON.stringify(entry)) as LoggedRequest;

describe('the ring', () => {
  it('lists newest first, evicts the oldest past its size, and finds only what it holds', async () => {
    const log = new RequestLog({ size: 3 });
    const get = await serve(log);
    for (let n = 1; n <= 5; n += 1) await get(`/unique/${n * 10}`);
    expect(ids(log.list())).toEqual(['/unique/50', '/unique/40', '/unique/30']);
    expect(log.length).toBe(3);
    const [newest, , oldest] = log.list();
    expect(json(log.get(newest!.id))).toEqual(json(newest));
    expect(json(log.get(oldest!.id))).toEqual(json(oldest));
    // Evicted entries release their bodies: only the three kept count.
    expect(log.bodyBytes).toBe(50 + 40 + 30);
    await get('/unique/60');
    expect(ids(log.list())).toEqual(['/unique/60', '/unique/50', '/unique/40']);
    expect(log.get(oldest!.id)).toBeUndefined();
  });

  it('clear empties it and its byte count, and it fills again in order', async () => {
    const log = new RequestLog({ size: 2 });
    const get = await serve(log);
    await get('/unique/10');
    await get('/unique/20');
    await get('/unique/30');
    log.clear();
    expect(log.list()).toEqual([]);
    expect(log.bodyBytes).toBe(0);
    await get('/unique/40');
    await get('/unique/50');
    await get('/unique/60');
    expect(ids(log.list())).toEqual(['/unique/60', '/unique/50']);
    expect(log.bodyBytes).toBe(110);
  });
});

describe('the records', () => {
  it('grows its arena to keep the newest entries whole, headers and bodies as they were', async () => {
    const log = new RequestLog({ size: 400 });
    const get = await serve(log);
    // 400 records of ~3 KB: more than the arena's first size, so it grows (and copies them over) on the way.
    for (let n = 0; n < 400; n += 1) await get(`/chunked/${3000 + n}`);
    expect(log.length).toBe(400);
    const entries = log.list().map(json);
    entries.forEach((entry, i) => {
      expect(entry.path).toBe(`/chunked/${3399 - i}`);
      expect(entry.response.headers['x-padding']).toBe('p'.repeat(3399 - i));
      expect(entry.response.body).toEqual({ text: 'first,second,third', truncated: false, size: 18 });
    });
    // Three writes are kept as one copy.
    expect(log.bodyBytes).toBe(400 * 18);
  });

  it('lets the oldest entries go when the newest would not fit in its largest arena', async () => {
    const log = new RequestLog({ size: 100, recordBytes: 64 * 1024 });
    const get = await serve(log);
    for (let n = 0; n < 40; n += 1) await get('/chunked/8000');
    // ~8 KB a record: fewer than 40 fit in 64 KiB, and those kept are the newest, whole.
    expect(log.length).toBeLessThan(10);
    expect(log.length).toBeGreaterThan(3);
    for (const entry of log.list().map(json)) expect(entry.response.headers['x-padding']).toHaveLength(8000);
    expect(log.bodyBytes).toBe(log.length * 18);
  });

  it('keeps an entry read from it right after the log has moved on', async () => {
    const log = new RequestLog({ size: 2 });
    const get = await serve(log);
    const text = await get('/unique/30?a=1');
    const [read] = log.list();
    for (let n = 0; n < 5; n += 1) await get('/chunked/10');
    expect(log.get(read!.id)).toBeUndefined();
    expect(json(read)).toMatchObject({ path: '/unique/30', query: { a: '1' }, response: { status: 200, body: { text, size: 30 } } });
  });

  it('gives back every header as sent, several values joined, the authorization redacted', async () => {
    const log = new RequestLog();
    const get = await serve(log);
    await get('/cookies', { headers: { authorization: 'Bearer secret', 'x-note': 'café, ünïcode' } });
    const entry = json(log.list()[0]);
    expect(entry.request.headers).toMatchObject({ authorization: 'Bearer [redacted]', 'x-note': 'café, ünïcode' });
    expect(entry.response.headers).toMatchObject({ 'set-cookie': 'a=1, b=2', 'x-count': '7' });
    expect(entry.organization).toBeNull();
    expect(log.get(`${entry.id}\u0000GET`)).toBeUndefined();
  });

  it('notes a binary body by its size and type, and keeps none of its bytes', async () => {
    const log = new RequestLog();
    const get = await serve(log);
    await get('/image');
    expect(json(log.list()[0]).response.body).toEqual({ text: '[300 bytes of image/png]', truncated: false, size: 300 });
    expect(log.bodyBytes).toBe(0);
  });

  it('finds an entry by id among many, and nothing for an id it never had', async () => {
    const log = new RequestLog();
    const get = await serve(log);
    for (let n = 1; n <= 50; n += 1) await get(`/unique/${n + 10}`);
    const all = log.list();
    expect(log.get(all[17]!.id)?.path).toBe('/unique/43');
    expect(log.get('no-such-id')).toBeUndefined();
    expect(log.get('')).toBeUndefined();
  });
});

describe('the byte budget', () => {
  it('drops the oldest bodies first and marks them, keeping their entries', async () => {
    const log = new RequestLog({ size: 10, bodyBudget: 100_000 });
    const get = await serve(log);
    const bodies: string[] = [];
    for (let n = 0; n < 4; n += 1) bodies.push(await get('/unique/40000'));
    expect(log.length).toBe(4);
    expect(log.bodyBytes).toBe(80_000);
    const [newest, second, third, oldest] = log.list().map(json);
    expect(newest!.response.body).toEqual({ text: bodies[3], truncated: false, size: 40_000 });
    expect(second!.response.body).toEqual({ text: bodies[2], truncated: false, size: 40_000 });
    for (const dropped of [third, oldest]) {
      expect(dropped!.response.body).toEqual({ text: '', truncated: true, size: 40_000, dropped: true });
      expect(dropped!.response.status).toBe(200);
    }
  });

  it('counts a buffer shared by many entries once', async () => {
    const log = new RequestLog({ size: 10, bodyBudget: 100_000 });
    const get = await serve(log);
    for (let n = 0; n < 10; n += 1) await get('/shared');
    expect(log.bodyBytes).toBe(SHARED.length);
    expect(log.list().every((e) => e.response.body.text === SHARED.toString())).toBe(true);
    // The shared buffer is released with the last entry that holds it.
    for (let n = 0; n < 10; n += 1) await get('/unique/10');
    expect(log.bodyBytes).toBe(100);
  });

  it('keeps one capped copy of a large buffer sent again and again', async () => {
    const log = new RequestLog({ size: 10 });
    const get = await serve(log);
    for (let n = 0; n < 3; n += 1) await get('/large');
    expect(log.bodyBytes).toBe(BODY_CAP);
    const entry = json(log.list()[0]);
    expect(entry.response.body).toEqual({ text: LARGE.subarray(0, BODY_CAP).toString(), truncated: true, size: LARGE.length });
  });

  it('keeps a copy of the body, not the buffer that was sent', async () => {
    const log = new RequestLog({ size: 10 });
    const get = await serve(log);
    const sent = await get('/reused');
    expect(sent).toBe(`"${'r'.repeat(998)}"`);
    expect(json(log.list()[0]).response.body).toEqual({ text: sent, truncated: false, size: 1000 });
  });

  it('holds a small body as its own bytes, not the pool slab it was cut from', async () => {
    const log = new RequestLog({ size: 10 });
    const get = await serve(log);
    const text = await get('/small');
    expect(log.bodyBytes).toBe(Buffer.byteLength(text));
  });

  it('drops request bodies too, and a budget of 0 keeps none', async () => {
    const log = new RequestLog({ size: 10, bodyBudget: 0 });
    const get = await serve(log);
    const sent = JSON.stringify({ hello: 'world' });
    await get('/echo', { method: 'POST', body: sent, headers: { 'content-type': 'application/json' } });
    expect(log.bodyBytes).toBe(0);
    const entry = json(log.list()[0]);
    expect(entry.request.body).toEqual({ text: '', truncated: true, size: Buffer.byteLength(sent), dropped: true });
    // An empty body had nothing to drop.
    expect(entry.response.body).toEqual({ text: '', truncated: false, size: 0 });
  });
});

describe('an entry', () => {
  it('serializes in the documented shape and key order, the same through plainRequest', async () => {
    const log = new RequestLog();
    const get = await serve(log);
    const text = await get('/unique/20?auth_token=secret&a=1&a=2');
    const entry = log.list()[0]!;
    const plain = json(entry);
    expect(Object.keys(plain)).toEqual([
      'id',
      'time',
      'duration_ms',
      'surface',
      'method',
      'url',
      'path',
      'query',
      'organization',
      'token',
      'request',
      'response',
    ]);
    expect(plain).toMatchObject({
      url: '/unique/20?auth_token=[redacted]&a=1&a=2',
      path: '/unique/20',
      query: { auth_token: '[redacted]', a: ['1', '2'] },
      response: { status: 200, body: { text, truncated: false, size: 20 } },
    });
    expect(Object.keys(plain.response)).toEqual(['status', 'headers', 'body']);
    expect(plainRequest(entry)).toEqual(plain);
  });
});

describe('redactUrl', () => {
  const byRegex = (url: string) => url.replace(/([?&]auth_token=)[^&#]*/g, '$1[redacted]');
  it.each([
    '/v2/posts/',
    '/v2/posts/?auth_token=abc',
    '/v2/posts/?limit=2&auth_token=abc&page=3',
    '/v2/posts/?auth_token=a&auth_token=b#frag',
    '/v2/posts/?xauth_token=abc&auth_token=',
    '/v2/auth_token=abc/?q=auth_token=1',
    '/v2/posts/?auth_token=a#x&auth_token=b',
  ])('%s as the regex would', (url) => {
    expect(redactUrl(url)).toBe(byRegex(url));
  });
});
