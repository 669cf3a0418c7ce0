/**
 * Long text answers sent as strings (server/http/text-answers.ts) must be, on the wire, exactly
 * what Express's own res.send gives: status, every header, body, for GET, HEAD and a conditional
 * GET. Two real Express apps, one with the change, answer the same routes over HTTP.
 */
import { request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Express } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendLongTextAsText } from '../../server/http/text-answers.js';

/** Words with characters of 2, 3 and 4 bytes in UTF-8, so that bytes and characters differ. */
const words = Array.from({ length: 300 }, (_, i) => `mot-${i} é ✓ 🚀`);

function routes(app: Express, ends: Map<string, string>): void {
  // What each answer with a body handed res.end: a string or a Buffer.
  app.use((req, res, next) => {
    const end = res.end.bind(res) as (...args: unknown[]) => unknown;
    res.end = ((...args: unknown[]) => {
      const chunk = args[0];
      if ((typeof chunk === 'string' || Buffer.isBuffer(chunk)) && chunk.length > 0)
        ends.set(req.path, typeof chunk === 'string' ? 'string' : 'buffer');
      return end(...args);
    }) as typeof res.end;
    next();
  });
  app.get('/json', (_req, res) => void res.json({ data: words }));
  app.get('/short', (_req, res) => void res.json({ data: words.slice(0, 3) }));
  app.get('/xml', (_req, res) => void res.type('application/xml; charset=utf-8').send(`<feed>${words.join('</i><i>')}</feed>`));
  app.get('/untyped', (_req, res) => void res.send(words.join(' ')));
  app.get('/other-parameters', (_req, res) => void res.type('text/plain; format=flowed').send(words.join(' ')));
  app.get('/etag-given', (_req, res) => void res.set('ETag', '"given"').json({ data: words }));
  app.get('/created', (_req, res) => void res.status(201).json({ data: words }));
  app.get('/no-content', (_req, res) => void res.status(204).json({ data: words }));
  app.get('/reset', (_req, res) => void res.status(205).json({ data: words }));
  app.get('/no-etag', (_req, res) => {
    res.app.set('etag', false);
    res.json({ data: words });
  });
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

function ask(server: Server, method: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const { date: _date, ...rest } = res.headers;
        resolve({ status: res.statusCode ?? 0, headers: rest, body: Buffer.concat(chunks).toString('utf8') });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

function listen(app: Express): Promise<Server> {
  return new Promise((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => resolve(server));
  });
}

const plainEnds = new Map<string, string>();
const textEnds = new Map<string, string>();
let plain: Server;
let text: Server;

beforeAll(async () => {
  const expressApp = express();
  routes(expressApp, plainEnds);
  const textApp = express();
  sendLongTextAsText(textApp);
  routes(textApp, textEnds);
  plain = await listen(expressApp);
  text = await listen(textApp);
});

afterAll(() => {
  plain.close();
  text.close();
});

const PATHS = ['/json', '/short', '/xml', '/untyped', '/other-parameters', '/etag-given', '/created', '/no-content', '/reset'];

describe('a long string answer sent as text', () => {
  it.each(PATHS)('GET %s is what Express sends', async (path) => {
    expect(await ask(text, 'GET', path)).toEqual(await ask(plain, 'GET', path));
  });

  it.each(PATHS)('HEAD %s is what Express sends', async (path) => {
    expect(await ask(text, 'HEAD', path)).toEqual(await ask(plain, 'HEAD', path));
  });

  it.each(['/json', '/xml', '/etag-given'])('GET %s with the ETag in If-None-Match is a 304, as from Express', async (path) => {
    const { headers } = await ask(plain, 'GET', path);
    const conditional = { 'If-None-Match': String(headers.etag) };
    const fromText = await ask(text, 'GET', path, conditional);
    expect(fromText.status).toBe(304);
    expect(fromText).toEqual(await ask(plain, 'GET', path, conditional));
  });

  it('with the ETag setting off, as from Express (no ETag)', async () => {
    const fromText = await ask(text, 'GET', '/no-etag');
    expect(fromText.headers.etag).toBeUndefined();
    expect(fromText).toEqual(await ask(plain, 'GET', '/no-etag'));
  });

  it('hands the socket the string itself where it can tell the headers, a Buffer (Express) elsewhere', () => {
    expect(Object.fromEntries(plainEnds)).toMatchObject({ '/json': 'buffer', '/xml': 'buffer' });
    expect(Object.fromEntries(textEnds)).toMatchObject({
      '/json': 'string',
      '/xml': 'string',
      '/etag-given': 'string',
      '/created': 'string',
      '/no-etag': 'string',
      // Short, or a type whose parameters only Express can rewrite: Express's Buffer.
      '/short': 'buffer',
      '/untyped': 'buffer',
      '/other-parameters': 'buffer',
    });
  });
});
