/**
 * The harness as README shows it (startEmulator, reset between tests, idle, waitForDelivery,
 * clock, snapshots), the official JavaScript SDK pointed at the emulator, and CORS.
 */
import Butter from 'buttercms';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, useEmulatorFetch, type EmulatorHandle } from '../../server/index.js';

let cms: EmulatorHandle;

beforeAll(async () => {
  cms = await startEmulator(); // the demo fixture, a free port, a temporary data folder
});
beforeEach(async () => {
  await cms.reset();
});
afterAll(async () => {
  await cms.close();
});

const write = (path: string, body: unknown, method = 'POST') =>
  fetch(`${cms.apiUrl}${path}`, {
    method,
    headers: { authorization: `Token ${cms.tokens['acme']!.write}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('startEmulator (the README example)', () => {
  it('gives URLs and tokens, and a write is visible after idle()', async () => {
    expect(cms.apiUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v2$/);
    expect(cms.cdnUrl).toBe(cms.url + '/cdn');
    const res = await write('/posts/', { title: 'Hello from a test', status: 'published' });
    expect(res.status).toBe(202);
    await cms.idle();
    const read = await fetch(`${cms.apiUrl}/posts/hello-from-a-test/?auth_token=${cms.tokens['acme']!.read}`);
    expect(read.status).toBe(200);
    expect(cms.requests()[0]?.path).toBe('/v2/posts/hello-from-a-test/');
  });

  it('reset() between tests: the previous test’s post is gone', async () => {
    const read = await fetch(`${cms.apiUrl}/posts/hello-from-a-test/?auth_token=${cms.tokens['acme']!.read}`);
    expect(read.status).toBe(404);
  });

  it('waitForDelivery finds the webhook a write fired', async () => {
    await write('/posts/', { title: 'Webhook please', status: 'published' });
    const delivery = await cms.waitForDelivery((d) => d.event === 'post.all' && d.request.body.includes('webhook-please'));
    expect(delivery.state).toBe('succeeded');
    expect(JSON.parse(delivery.request.body)).toMatchObject({ data: { id: 'webhook-please' }, webhook: { event: 'post.all' } });
  });

  it('waitForDelivery rejects when nothing matches in time', async () => {
    await expect(cms.waitForDelivery(() => false, { timeoutMs: 50 })).rejects.toThrow(/no matching delivery/);
  });

  it('the clock publishes a scheduled post when moved past its time', async () => {
    const token = cms.tokens['acme']!.read;
    const before = (await (await fetch(`${cms.apiUrl}/posts/first-look-ridgeline-2-prototype-tent/?auth_token=${token}`)).json()) as {
      data: { status: string };
    };
    expect(before.data.status).toBe('scheduled');
    cms.clock.set('2030-03-02T00:00:00Z', { freeze: true });
    const after = (await (await fetch(`${cms.apiUrl}/posts/first-look-ridgeline-2-prototype-tent/?auth_token=${token}`)).json()) as {
      data: { status: string; published: string };
    };
    expect(after.data).toMatchObject({ status: 'published', published: '2030-03-01T09:00:00.000Z' });
    expect(cms.clock.now().toISOString()).toBe('2030-03-02T00:00:00.000Z');
    cms.clock.real();
  });

  it('snapshot and restore', async () => {
    cms.snapshot('before');
    await write('/posts/', { title: 'Temporary', status: 'published' });
    await cms.idle();
    cms.restore('before');
    const read = await fetch(`${cms.apiUrl}/posts/temporary/?auth_token=${cms.tokens['acme']!.read}`);
    expect(read.status).toBe(404);
  });
});

describe('the official JavaScript SDK pointed at the emulator', () => {
  it('lists, reads and searches posts, lists pages and reads collections', async () => {
    const undo = useEmulatorFetch(cms.apiUrl);
    try {
      const butter = Butter(cms.tokens['acme']!.read);
      const posts = await butter.post.list({ page: 1, page_size: 3 });
      const list = posts.data!.data;
      expect(list).toHaveLength(3);
      const one = await butter.post.retrieve(list[0]!.slug);
      expect(one.data!.data.slug).toBe(list[0]!.slug);
      const found = await butter.post.search('hydration');
      expect(found.data!.data.length).toBeGreaterThan(0);
      const pages = await butter.page.list('landing_page', { locale: 'es' });
      expect(pages.data!.data.length).toBeGreaterThan(0);
      const page = await butter.page.retrieve('*', 'contact');
      expect(page.data!.data.slug).toBe('contact');
      const content = await butter.content.retrieve(['brands']);
      expect(Object.keys(content.data!.data)).toEqual(['brands']);
    } finally {
      undo();
    }
  });
});

describe('CORS on the emulated API and the CDN', () => {
  it('answers a preflight that asks for Authorization', async () => {
    const res = await fetch(`${cms.apiUrl}/posts/`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:3000',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-headers')).toBe('authorization,content-type');
    expect(res.headers.get('access-control-allow-methods')).toContain('PATCH');
  });

  it('marks reads, errors and CDN files as readable from any origin', async () => {
    for (const url of [
      `${cms.apiUrl}/posts/?auth_token=${cms.tokens['acme']!.read}`,
      `${cms.apiUrl}/posts/`,
      `${cms.cdnUrl}/fRr2MN4EPnMi6AXeBVfQ`,
    ]) {
      const res = await fetch(url, { headers: { origin: 'http://localhost:3000' } });
      expect(res.headers.get('access-control-allow-origin'), url).toBe('*');
    }
  });
});
