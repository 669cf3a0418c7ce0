/**
 * Requests and responses made with the Express app's prototypes (server/http/express-messages.ts):
 * they reach the app already of its prototypes, so Express's per-request prototype swap changes
 * nothing, and they behave as Node's own (headers, bodies, keep-alive, Express's methods).
 */
import { createServer, IncomingMessage, ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { expressMessageClasses } from '../../server/http/express-messages.js';

let server: Server | null = null;

afterEach(async () => {
  const closing = server;
  server = null;
  if (closing) await new Promise((resolve) => closing.close(resolve));
});

async function listen(app: express.Express, seen: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  server = createServer(expressMessageClasses(app), (req, res) => {
    seen(req, res);
    app(req, res);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('expressMessageClasses', () => {
  it("makes requests and responses of the app's prototypes before Express sees them", async () => {
    const app = express();
    app.get('/hello', (req, res) => {
      res.json({ host: req.get('host'), query: req.query, path: req.path });
    });
    const prototypes: object[] = [];
    const url = await listen(app, (req, res) =>
      prototypes.push(Object.getPrototypeOf(req) as object, Object.getPrototypeOf(res) as object),
    );

    const answer = await fetch(`${url}/hello?x=1`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ host: new URL(url).host, query: { x: '1' }, path: '/hello' });
    expect(prototypes).toEqual([app.request, app.response]);
  });

  it("behaves as Node's own: instances of its classes, request bodies, several requests on one connection", async () => {
    const app = express();
    app.use(express.json());
    app.post('/echo', (req, res) => {
      res
        .status(201)
        .set('x-seen', String(req.headers['x-test']))
        .json({ body: req.body as unknown, isNode: req instanceof IncomingMessage && res instanceof ServerResponse });
    });
    const url = await listen(app, () => undefined);

    for (const n of [1, 2, 3]) {
      const answer = await fetch(`${url}/echo`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-test': `t${n}` },
        body: JSON.stringify({ n }),
      });
      expect(answer.status).toBe(201);
      expect(answer.headers.get('x-seen')).toBe(`t${n}`);
      expect(await answer.json()).toEqual({ body: { n }, isNode: true });
    }
  });

  it('gives a 404 from Express for what no route answers, as without the option', async () => {
    const app = express();
    const url = await listen(app, () => undefined);
    const answer = await fetch(`${url}/nothing`);
    expect(answer.status).toBe(404);
  });
});
