/**
 * Reads answered again before Express (server/http/read-replay.ts): the same request at the same
 * store revision gets the same status, headers and bytes as Express gave it, is logged as the
 * same request-log entry, and never outlives a change (a write, a hand edit of the tokens) or
 * swallows what only Express decides (conditional requests, HEAD, another token or host).
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LoggedRequest } from '../../server/http/request-log.js';
import { plainRequest } from '../../server/http/request-log.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A request with exactly the headers given (fetch adds its own). */
function raw(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Headers as compared between two answers: Date is per response. */
function comparable(headers: RawResponse['headers']): Record<string, string | string[] | undefined> {
  const { date: _date, ...rest } = headers;
  return rest;
}

let emu: TestEmulator;
let org: string;
let read: string;
let write: string;

beforeAll(async () => {
  emu = await startTestEmulator();
  org = Object.keys(emu.tokens)[0]!;
  read = emu.tokens[org]!.read;
  write = emu.tokens[org]!.write;
});
afterAll(() => emu.close());
beforeEach(() => emu.emulator.requests.clear());

const hits = () => emu.emulator.readReplay.hits;

/**
 * Asks until the answer is given from memory (at most three times: the first answer is not kept,
 * the second is; answer-cache.ts), so that what follows shows what the replay does with a
 * remembered answer.
 */
async function remember(url: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  const before = hits();
  let answer = await raw(url, headers);
  for (let i = 1; i < 3 && hits() === before; i++) answer = await raw(url, headers);
  expect(hits()).toBe(before + 1);
  return answer;
}

describe('the same read again', () => {
  it.each([
    ['post list', () => `/posts/?auth_token=${read}&page_size=3`],
    [
      'post by slug',
      () =>
        `/posts/${emu.emulator.store.organization(org)!.posts.find((p) => p.status === 'published' && !p.deleted)!.slug}/?auth_token=${read}`,
    ],
    ['search', () => `/posts/search/?query=the&auth_token=${read}`],
  ])('%s: same status, headers and bytes, answered from memory the third time', async (_name, path) => {
    const url = emu.apiUrl + path();
    const before = hits();
    // The first answer is built and not kept (a read asked once, such as a distinct search, never
    // takes room), the second is built and kept, the third is given again from memory.
    const first = await raw(url);
    const second = await raw(url);
    expect(hits()).toBe(before);
    const third = await raw(url);
    expect(hits()).toBe(before + 1);
    for (const answer of [first, second, third]) {
      expect(answer.status).toBe(200);
      expect(answer.body.equals(first.body)).toBe(true);
      expect(comparable(answer.headers)).toEqual(comparable(first.headers));
    }
    expect(third.headers['etag']).toBeDefined();
    expect(third.headers['access-control-allow-origin']).toBe('*');
    expect(third.headers['date']).toBeDefined();
  });

  it('is logged as the same entry the first one was (bar id, time and duration)', async () => {
    const url = `${emu.apiUrl}/posts/?auth_token=${read}&page_size=2`;
    const before = hits();
    for (let i = 0; i < 3; i++) await raw(url, { 'x-test': 'one' });
    expect(hits()).toBe(before + 1);
    const [replayed, , first] = emu.emulator.requests.list().map((entry) => plainRequest(entry)) as [
      LoggedRequest,
      LoggedRequest,
      LoggedRequest,
    ];
    expect(replayed.id).not.toBe(first.id);
    const strip = (e: LoggedRequest) => ({
      ...e,
      id: '',
      time: '',
      duration_ms: 0,
      response: { ...e.response, headers: comparable(e.response.headers) },
    });
    expect(strip(replayed)).toEqual(strip(first));
    expect(replayed.url).toContain('auth_token=[redacted]');
    expect(replayed.organization).toBe(org);
    expect(replayed.token).toBe('read');
    expect(replayed.response.body.text).toBe((await raw(url)).body.toString('utf8'));
  });

  it('reaches the control API and its live stream like any other request', async () => {
    const url = `${emu.apiUrl}/posts/?auth_token=${read}&page_size=1`;
    await remember(url);
    const res = await fetch(`${emu.url}/__emulator/requests?view=summary`);
    const body = (await res.json()) as { data: { url: string; status: number }[] };
    expect(body.data.filter((r) => r.url.includes('page_size=1'))).toHaveLength(3);
  });
});

describe('what is never replayed', () => {
  it('a write moves the revision: the next read shows the new post', async () => {
    const url = `${emu.apiUrl}/posts/?auth_token=${read}&page_size=1`;
    await remember(url);
    const slug = `replay-after-write-${Date.now()}`;
    const posted = await emu.request('POST', '/posts/', {
      headerToken: write,
      body: { title: 'Replay after write', slug, status: 'published', body: '<p>New.</p>' },
    });
    expect(posted.status).toBe(202);
    await emu.idle();
    const before = hits();
    const after = JSON.parse((await raw(url)).body.toString('utf8')) as { data: { slug: string }[] };
    expect(hits()).toBe(before);
    expect(after.data[0]!.slug).toBe(slug);
  });

  it('a conditional request still gets its 304 from Express, and HEAD its headers only', async () => {
    const url = `${emu.apiUrl}/posts/?auth_token=${read}&page_size=4`;
    const first = await remember(url);
    const before = hits();
    const conditional = await raw(url, { 'if-none-match': String(first.headers['etag']) });
    expect(conditional.status).toBe(304);
    expect(conditional.body.length).toBe(0);
    const head = await raw(url, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers['content-length']).toBe(first.headers['content-length']);
    expect(hits()).toBe(before);
  });

  it('another token, no token or a wrong one is answered for itself', async () => {
    const path = `/posts/?page_size=2`;
    const withHeader = await remember(emu.apiUrl + path, { authorization: `Token ${read}` });
    expect(withHeader.status).toBe(200);
    const wrong = await raw(emu.apiUrl + path, { authorization: 'Token nope' });
    expect(wrong.status).toBe(401);
    const none = await raw(emu.apiUrl + path);
    expect(none.status).toBe(401);
    const other = Object.keys(emu.tokens).find((slug) => slug !== org)!;
    const otherAnswer = await raw(emu.apiUrl + path, { authorization: `Token ${emu.tokens[other]!.read}` });
    expect(otherAnswer.status).toBe(200);
    expect(otherAnswer.body.equals(withHeader.body)).toBe(false);
  });

  it('the host the request named is in the media URLs it gets back', async () => {
    const withImage = emu.emulator.store.organization(org)!.posts.find((p) => p.status === 'published' && !p.deleted && p.featured_image);
    expect(withImage).toBeDefined();
    const path = `${emu.apiUrl}/posts/${withImage!.slug}/?auth_token=${read}`;
    const port = new URL(emu.apiUrl).port;
    await remember(path, { host: `127.0.0.1:${port}` });
    const renamed = await raw(path, { host: `localhost:${port}` });
    expect(renamed.status).toBe(200);
    expect(renamed.body.toString('utf8')).toContain(`http://localhost:${port}/cdn`);
    expect(renamed.body.toString('utf8')).not.toContain(`http://127.0.0.1:${port}/cdn`);
  });

  it('a token removed by a change to the store no longer reads', async () => {
    const url = `${emu.apiUrl}/posts/?auth_token=${read}&page_size=5`;
    expect((await remember(url)).status).toBe(200);
    const organization = emu.emulator.store.organization(org)!;
    const old = organization.tokens.read;
    emu.emulator.store.mutate(() => {
      organization.tokens.read = `${old}-rotated`;
    });
    try {
      expect((await raw(url)).status).toBe(401);
    } finally {
      emu.emulator.store.mutate(() => {
        organization.tokens.read = old;
      });
    }
  });

  it('an answer that failed validation is not remembered', async () => {
    const url = `${emu.apiUrl}/posts/?auth_token=${read}&page_size=0`;
    const before = hits();
    expect((await raw(url)).status).toBe(400);
    expect((await raw(url)).status).toBe(400);
    expect(hits()).toBe(before);
  });
});
