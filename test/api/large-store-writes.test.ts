/**
 * A data file past the write worker's threshold (1 MiB), written through the API with writes that
 * say what they touched (Store.mutate's `touched`: post create/patch/delete, page patch, item
 * create/update/delete) and one that does not (a dashboard action): after
 * each round the file on disk is exactly JSON.stringify of the store, and the declared writes went
 * to the worker as touched records, not as the whole store. The demo store of the other API tests
 * is written on the main thread, where none of this applies.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Post } from '../../server/store/schema.js';
import { resolveFixture } from '../../server/store/seed.js';
import { startTestEmulator, type ApiResponse, type TestEmulator } from '../helpers/emulator.js';

let api: TestEmulator;
let fixtureDir: string;
let write: string;

beforeAll(async () => {
  fixtureDir = await mkdtemp(join(tmpdir(), 'cms-emulator-large-fixture-'));
  await cp(resolveFixture('demo'), fixtureDir, { recursive: true });
  const file = join(fixtureDir, 'data.json');
  const data = JSON.parse(await readFile(file, 'utf8')) as { organizations: { slug: string; posts: Post[] }[] };
  const acme = data.organizations.find((o) => o.slug === 'acme')!;
  const template = acme.posts[0]!;
  for (let i = 0; i < 700; i++) {
    acme.posts.push({ ...template, id: 50_000 + i, slug: `filler-${i}`, title: `Filler ${i}`, body: '<p>Filler text.</p>'.repeat(100) });
  }
  await writeFile(file, JSON.stringify(data, null, 2) + '\n');
  api = await startTestEmulator(fixtureDir);
  write = api.tokens['acme']!.write;
});

afterAll(async () => {
  await api.close();
  await rm(fixtureDir, { recursive: true, force: true });
});

function send(method: string, path: string, body?: unknown): Promise<ApiResponse> {
  return api.request(method, path, { headerToken: write, ...(body !== undefined && { body }) });
}

async function expectFileIsStore(): Promise<void> {
  await api.idle();
  const text = await readFile(join(api.dataDir, 'data.json'), 'utf8');
  expect(text).toBe(JSON.stringify(api.emulator.store.data, null, 2) + '\n');
}

describe('a large store written through the API', () => {
  it('keeps the file exactly the store over declared writes of every kind, sent as touched records', async () => {
    const acme = () => api.emulator.store.organization('acme')!;
    expect((await readFile(join(api.dataDir, 'data.json'))).length).toBeGreaterThan(1024 * 1024);

    // Posts: created (with a new category and tag), patched (renamed, retagged), deleted.
    for (let i = 0; i < 5; i++) {
      const res = await send('POST', '/posts/', {
        title: `Large store post ${i}`,
        slug: `large-store-post-${i}`,
        status: 'published',
        body: '<p>Body.</p>',
        categories: [`Fresh category ${i}`],
        tags: [`fresh-tag-${i}`],
      });
      expect(res.status).toBe(202);
    }
    await expectFileIsStore();
    expect((await send('PATCH', '/posts/large-store-post-1/', { slug: 'large-store-renamed', tags: ['Another new tag'] })).status).toBe(
      202,
    );
    expect((await send('PATCH', '/posts/filler-3/', { title: 'A filler, edited' })).status).toBe(202);
    expect((await send('DELETE', '/posts/large-store-post-2/')).status).toBe(204);
    await expectFileIsStore();
    expect(acme().posts.some((p) => p.slug === 'large-store-renamed')).toBe(true);

    // Pages: patched (a create needs every field of its type; its job is the same mutation kind).
    expect((await send('PATCH', '/pages/landing_page/home/', { fields: { en: { headline: 'Larger' } } })).status).toBe(202);
    await expectFileIsStore();

    // Collection items: created, replaced, deleted.
    const created = await send('POST', '/content/', { key: 'products', fields: { en: { name: 'Large store mug', price: 12.5 } } });
    expect(created.text).toBe('{"status":"pending"}');
    await expectFileIsStore();
    const item = acme()
      .collections.flatMap((c) => c.items)
      .reduce((a, b) => (a.id > b.id ? a : b));
    expect(JSON.stringify(item.fields)).toContain('Large store mug');
    expect((await send('PUT', `/content/products/${item.id}/`, { fields: { en: { name: 'Large store cup', price: 14 } } })).text).toBe(
      '{"status":"pending"}',
    );
    await expectFileIsStore();
    expect((await send('DELETE', `/content/products/${item.id}/`)).status).toBe(204);
    await expectFileIsStore();

    const sent = api.emulator.store.sent;
    expect(sent.touched).toBeGreaterThanOrEqual(6);
    // The item delete's reference clean-up does not say what it touched: at most that compares all.
    expect(sent.everything + sent.compared).toBeLessThanOrEqual(2);
  });

  it('a write that does not say what it touched is compared in full, and the file is still the store', async () => {
    const before = { ...api.emulator.store.sent };
    const res = await fetch(`${api.url}/__emulator/organizations/acme/posts/filler-5/unpublish`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    await res.arrayBuffer();
    expect(res.status).toBeLessThan(300);
    await expectFileIsStore();
    const after = api.emulator.store.sent;
    expect(after.everything + after.compared).toBe(before.everything + before.compared + 1);
  });
});
