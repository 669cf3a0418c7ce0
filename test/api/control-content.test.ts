/**
 * The browsing half of the control API that the UI's Content and Settings views read:
 * /__emulator/info, /organizations and /organizations/{org}/content/{section}, and the UI's
 * own files under /__emulator/ui/ with their CSP. Expectations derive from the demo fixture.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoreData } from '../../server/store/schema.js';
import { UI_CONTENT_SECURITY_POLICY } from '../../server/ui/static.js';
import { loadFixture, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

let cms: TestEmulator;
let demo: StoreData;
const control = (path: string) => fetch(`${cms.url}/__emulator${path}`);

beforeAll(async () => {
  cms = await startTestEmulator();
  demo = await loadFixture('demo');
});
afterAll(() => cms.close());

interface Page<T> {
  data: T[];
  total: number;
}

describe('GET /__emulator/info', () => {
  it('says where the data lives and the paths of the API and CDN', async () => {
    const res = await control('/info');
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: Record<string, unknown> };
    expect(data).toMatchObject({ base_path: '/v2', cdn_path: '/cdn', strict: false, control_token_required: false });
    expect(data['data_file']).toBe(`${String(data['data_dir'])}/data.json`);
    expect(data['data_dir']).toBe(cms.dataDir);
  });
});

describe('GET /__emulator/organizations', () => {
  it('lists every organization with its tokens and counts of live records', async () => {
    const { data } = (await (await control('/organizations')).json()) as {
      data: { slug: string; tokens: { read: string; write: string }; counts: Record<string, number> }[];
    };
    expect(data.map((o) => o.slug)).toEqual(demo.organizations.map((o) => o.slug));
    for (const org of demo.organizations) {
      const listed = data.find((o) => o.slug === org.slug)!;
      expect(listed.tokens).toEqual(org.tokens);
      expect(listed.counts['posts']).toBe(org.posts.filter((p) => p.deleted === null).length);
      expect(listed.counts['items']).toBe(org.collections.reduce((n, c) => n + c.items.filter((i) => i.deleted === null).length, 0));
      expect(listed.counts['media']).toBe(org.media.length);
    }
  });
});

describe('GET /__emulator/organizations/{org}/content/{section}', () => {
  it('pages posts newest first with limit/offset and says the total; deleted posts are left out', async () => {
    const acme = demo.organizations.find((o) => o.slug === 'acme')!;
    const live = acme.posts.filter((p) => p.deleted === null).sort((a, b) => b.id - a.id);
    const first = (await (await control('/organizations/acme/content/posts?limit=5')).json()) as Page<{ slug: string }>;
    expect(first.total).toBe(live.length);
    expect(first.data.map((p) => p.slug)).toEqual(live.slice(0, 5).map((p) => p.slug));
    const second = (await (await control('/organizations/acme/content/posts?limit=5&offset=5')).json()) as Page<{ slug: string }>;
    expect(second.data.map((p) => p.slug)).toEqual(live.slice(5, 10).map((p) => p.slug));
  });

  it('filters by a case-insensitive substring of slug or title', async () => {
    const acme = demo.organizations.find((o) => o.slug === 'acme')!;
    const target = acme.posts.find((p) => p.deleted === null)!;
    const needle = target.title.slice(0, 8).toUpperCase();
    const res = (await (await control(`/organizations/acme/content/posts?q=${encodeURIComponent(needle)}`)).json()) as Page<{
      slug: string;
    }>;
    expect(res.data.map((p) => p.slug)).toContain(target.slug);
    expect(res.total).toBe(res.data.length);
  });

  it('shows live pages raw, with their versions', async () => {
    const res = (await (await control('/organizations/acme/content/pages?limit=1000')).json()) as Page<Record<string, unknown>>;
    const acme = demo.organizations.find((o) => o.slug === 'acme')!;
    expect(res.total).toBe(acme.pages.filter((p) => p.deleted === null).length);
    expect(res.data[0]).toHaveProperty('published_version');
  });

  it('filters pages by page type, or to the Single Pages, and counts them per type', async () => {
    const acme = demo.organizations.find((o) => o.slug === 'acme')!;
    const live = acme.pages.filter((p) => p.deleted === null);
    const { data: orgs } = (await (await control('/organizations')).json()) as {
      data: { slug: string; counts: { single_pages: number; pages_by_type: Record<string, number> } }[];
    };
    const counts = orgs.find((o) => o.slug === 'acme')!.counts;
    for (const type of acme.page_types) {
      const res = (await (await control(`/organizations/acme/content/pages?page_type=${type.key}`)).json()) as Page<{ page_type: string }>;
      expect(res.total).toBe(live.filter((p) => p.page_type === type.key).length);
      expect(res.data.every((p) => p.page_type === type.key)).toBe(true);
      expect(counts.pages_by_type[type.key]).toBe(res.total);
    }
    const singles = (await (await control('/organizations/acme/content/pages?single=1')).json()) as Page<{ slug: string; page_type: null }>;
    expect(singles.data.map((p) => p.slug).sort()).toEqual(
      live
        .filter((p) => p.page_type === null)
        .map((p) => p.slug)
        .sort(),
    );
    expect(counts.single_pages).toBe(singles.total);
    const types = (await (await control('/organizations/acme/content/page-types')).json()) as Page<{ key: string; page_count: number }>;
    for (const t of types.data) expect(t.page_count).toBe(counts.pages_by_type[t.key]);
  });

  it('reads one record by its slug, key or id', async () => {
    const acme = demo.organizations.find((o) => o.slug === 'acme')!;
    const post = acme.posts.find((p) => p.deleted === null)!;
    const one = async (path: string) => ((await (await control(path)).json()) as { data: Record<string, unknown> }).data;
    expect((await one(`/organizations/acme/content/posts/${post.slug}`))['id']).toBe(post.id);
    const page = acme.pages.find((p) => p.deleted === null)!;
    expect((await one(`/organizations/acme/content/pages/${page.slug}`))['id']).toBe(page.id);
    expect((await one('/organizations/acme/content/collections/brands'))['item_count']).toBeGreaterThan(0);
    const media = acme.media[0]!;
    expect((await one(`/organizations/acme/content/media/${media.id}`))['file']).toBe(media.file);
    const item = acme.collections.find((c) => c.key === 'brands')!.items[0]!;
    expect((await one(`/organizations/acme/content/collections/brands/items/${item.id}`))['id']).toBe(item.id);
    expect((await control('/organizations/acme/content/posts/no-such-post')).status).toBe(404);
    expect((await control('/organizations/acme/content/collections/brands/items/999999')).status).toBe(404);
  });

  it('lists collections with an item count, and their items on their own', async () => {
    const acme = demo.organizations.find((o) => o.slug === 'acme')!;
    const res = (await (await control('/organizations/acme/content/collections')).json()) as Page<{ key: string; item_count: number }>;
    for (const c of acme.collections) {
      const listed = res.data.find((r) => r.key === c.key)!;
      expect(listed.item_count).toBe(c.items.filter((i) => i.deleted === null).length);
      expect(listed).not.toHaveProperty('items');
    }
    const brands = acme.collections.find((c) => c.key === 'brands')!;
    const items = (await (await control('/organizations/acme/content/collections/brands/items')).json()) as Page<{ id: number }>;
    expect(items.data.map((i) => i.id)).toEqual(
      brands.items
        .filter((i) => i.deleted === null)
        .map((i) => i.id)
        .sort((a, b) => b - a),
    );
  });

  it.each([
    ['/organizations/nope/content/posts', 'No organization "nope".'],
    ['/organizations/acme/content/widgets', 'No section "widgets"'],
    ['/organizations/acme/content/collections/nope/items', 'No collection "nope".'],
  ])('404 with a reason for %s', async (path, detail) => {
    const res = await control(path);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { detail: string }).detail).toContain(detail);
  });

  it.each(['limit=0', 'limit=1001', 'offset=-1', 'limit=ten'])('400 for %s', async (query) => {
    const res = await control(`/organizations/acme/content/posts?${query}`);
    expect(res.status).toBe(400);
    expect(await res.json()).toHaveProperty('detail');
  });
});

describe('the UI under /__emulator/ui/', () => {
  it('is served with a strict CSP and no sniffing', async () => {
    const res = await fetch(`${cms.url}/__emulator/ui/`);
    expect([200, 503]).toContain(res.status); // 503 explains how to build it when dist/renderer is missing
    expect(res.headers.get('content-security-policy')).toBe(UI_CONTENT_SECURITY_POLICY);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(res.headers.get('content-security-policy')).not.toContain('unsafe-inline');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('sends a browser at / to the UI, and a program gets JSON', async () => {
    const browser = await fetch(`${cms.url}/`, { headers: { accept: 'text/html,application/xhtml+xml' }, redirect: 'manual' });
    expect(browser.status).toBe(302);
    expect(browser.headers.get('location')).toBe('/__emulator/ui/');
    const program = await fetch(`${cms.url}/`, { headers: { accept: 'application/json' } });
    expect(await program.json()).toEqual({ name: 'cms-emulator', api: '/v2/', ui: '/__emulator/ui/' });
  });
});

describe('GET /__emulator/requests?view=summary (the request log rows the UI lists)', () => {
  it('gives the rows without headers or bodies, newest first', async () => {
    await cms.get('/posts/', { token: cms.tokens['acme']!.read });
    await cms.get('/authors/', { token: cms.tokens['acme']!.read });
    const res = await control('/requests?view=summary&limit=2');
    const { data } = (await res.json()) as { data: Record<string, unknown>[] };
    expect(data.map((r) => r['url'])).toEqual([expect.stringContaining('/v2/authors/'), expect.stringContaining('/v2/posts/')]);
    expect(Object.keys(data[0]!).sort()).toEqual(['duration_ms', 'id', 'method', 'organization', 'status', 'surface', 'time', 'url']);
  });

  it('400 for another view', async () => {
    const res = await control('/requests?view=everything');
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ detail: 'view is full or summary.' });
  });
});

describe('GET /__emulator/deliveries?view=summary (the delivery rows the UI lists)', () => {
  it('gives the rows the live stream sends: attempts counted, last status, no request or bodies', async () => {
    const res = await fetch(`${cms.apiUrl}/posts/`, {
      method: 'POST',
      headers: { authorization: `Token ${cms.tokens['acme']!.write}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Summary row', status: 'published' }),
    });
    expect(res.status).toBe(202);
    await cms.emulator.idle();
    const full = ((await (await control('/deliveries?limit=1')).json()) as { data: { id: string; attempts: unknown[] }[] }).data[0]!;
    const { data } = (await (await control('/deliveries?limit=1&view=summary')).json()) as { data: Record<string, unknown>[] };
    expect(data[0]).toMatchObject({ id: full.id, attempts: full.attempts.length });
    expect(Object.keys(data[0]!).sort()).toEqual(
      [
        'attempts',
        'created',
        'duration_ms',
        'event',
        'finished',
        'id',
        'organization',
        'replay_of',
        'state',
        'status',
        'target',
        'webhook_id',
      ].sort(),
    );
    expect((await control('/deliveries?view=all')).status).toBe(400);
  });
});
