/**
 * Editing the data file under a running emulator (issue 7): valid edits apply within half a
 * second, broken ones are reported with their place while the last good state is served, and the
 * broken text is kept beside the file before the emulator writes again.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EmulatorEvent } from '../../server/bus.js';
import { startEmulator, type EmulatorHandle } from '../../server/index.js';

let cms: EmulatorHandle;
let file: string;
let original: string;
const events: EmulatorEvent[] = [];

beforeAll(async () => {
  cms = await startEmulator();
  file = cms.emulator.store.file;
  original = await readFile(file, 'utf8');
  cms.emulator.bus.subscribe((e) => {
    if (e.type.startsWith('store.')) events.push(e);
  });
});
beforeEach(async () => {
  await writeFile(file, original);
  await waitFor(() => cms.emulator.watcher.state.error === null && title('welcome') !== 'Edited by hand');
  events.length = 0;
});
afterAll(async () => {
  await cms.close();
});

async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs = 2000): Promise<number> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
  return Date.now() - started;
}

function title(slug: string): string | undefined {
  return cms.emulator.store.organization('acme')?.posts.find((p) => p.slug === slug)?.title;
}

const edited = (change: (data: { organizations: { slug: string; posts: { slug: string; title: string }[] }[] }) => void): string => {
  const data = JSON.parse(original) as { organizations: { slug: string; posts: { slug: string; title: string }[] }[] };
  change(data);
  return JSON.stringify(data, null, 2);
};

describe('the data file under a running emulator', () => {
  it('applies a valid edit within half a second, visible in the next read, with no webhook', async () => {
    const deliveries = cms.deliveries().length;
    await writeFile(
      file,
      edited((d) => (d.organizations[0]!.posts.find((p) => p.slug === 'welcome')!.title = 'Edited by hand')),
    );
    const took = await waitFor(() => title('welcome') === 'Edited by hand');
    expect(took).toBeLessThan(500);
    const res = await fetch(`${cms.apiUrl}/posts/welcome/?auth_token=${cms.tokens['acme']!.read}`);
    expect(((await res.json()) as { data: { title: string } }).data.title).toBe('Edited by hand');
    expect(events.map((e) => e.type)).toContain('store.replaced');
    await cms.idle();
    expect(cms.deliveries().length).toBe(deliveries);
  });

  it('reports invalid JSON with its line and column and keeps serving the last good state', async () => {
    await writeFile(file, original.replace('"format_version": 1,', '"format_version": 1,,'));
    await waitFor(() => cms.emulator.watcher.state.error !== null);
    expect(cms.emulator.watcher.state.error?.message).toMatch(/line 2, column \d+/);
    const res = await fetch(`${cms.apiUrl}/posts/?auth_token=${cms.tokens['acme']!.read}`);
    expect(res.status).toBe(200);
    const store = (await (await fetch(`${cms.controlUrl}/store`)).json()) as { data: { error: { message: string } | null } };
    expect(store.data.error?.message).toMatch(/invalid JSON/);
  });

  it('reports a schema violation with the path of the bad value', async () => {
    await writeFile(
      file,
      edited((d) => ((d.organizations[0]!.posts[0] as unknown as Record<string, unknown>)['author'] = 'nobody')),
    );
    await waitFor(() => cms.emulator.watcher.state.error !== null);
    expect(cms.emulator.watcher.state.error?.message).toContain('organizations[0].posts[0].author');
    expect(events.some((e) => e.type === 'store.error')).toBe(true);
  });

  it('keeps a broken edit beside the file before the emulator writes again', async () => {
    const broken = original.replace('"format_version": 1,', '"format_version": 1,,');
    await writeFile(file, broken);
    await waitFor(() => cms.emulator.watcher.state.error !== null);
    const write = await fetch(`${cms.apiUrl}/posts/`, {
      method: 'POST',
      headers: { authorization: `Token ${cms.tokens['acme']!.write}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Written while the file was broken' }),
    });
    expect(write.status).toBe(202);
    await cms.idle();
    const copy = cms.emulator.store.brokenCopy!;
    expect(copy).toMatch(/data\.json\.broken-/);
    expect(await readFile(copy, 'utf8')).toBe(broken);
    expect(() => JSON.parse(original)).not.toThrow();
    const now = JSON.parse(await readFile(file, 'utf8')) as { organizations: { posts: { slug: string }[] }[] };
    expect(now.organizations[0]!.posts.some((p) => p.slug === 'written-while-the-file-was-broken')).toBe(true);
    await rm(copy);
  });

  it('ignores its own writes', async () => {
    await fetch(`${cms.apiUrl}/posts/`, {
      method: 'POST',
      headers: { authorization: `Token ${cms.tokens['acme']!.write}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Own write' }),
    });
    await cms.idle();
    await new Promise((r) => setTimeout(r, 300));
    await cms.emulator.watcher.settled();
    expect(events.filter((e) => e.type === 'store.replaced')).toEqual([]);
  });

  it('ends on the last of rapid successive edits', async () => {
    for (let i = 1; i <= 5; i += 1) {
      await writeFile(
        file,
        edited((d) => (d.organizations[0]!.posts.find((p) => p.slug === 'welcome')!.title = `Rapid ${i}`)),
      );
      await new Promise((r) => setTimeout(r, 15));
    }
    await waitFor(() => title('welcome') === 'Rapid 5');
  });

  it('survives the file being deleted and recreated', async () => {
    await rm(file);
    await waitFor(() => cms.emulator.watcher.state.error !== null);
    expect(cms.emulator.watcher.state.error?.message).toMatch(/deleted/);
    const res = await fetch(`${cms.apiUrl}/posts/?auth_token=${cms.tokens['acme']!.read}`);
    expect(res.status).toBe(200);
    await writeFile(
      file,
      edited((d) => (d.organizations[0]!.posts.find((p) => p.slug === 'welcome')!.title = 'Recreated')),
    );
    await waitFor(() => title('welcome') === 'Recreated');
    expect(cms.emulator.watcher.state.error).toBeNull();
  });

  it('fires the webhooks of what an edit changed when asked to through the control API', async () => {
    const on = await fetch(`${cms.controlUrl}/store/settings`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ edits_fire_webhooks: true }),
    });
    expect(((await on.json()) as { data: { edits_fire_webhooks: boolean } }).data.edits_fire_webhooks).toBe(true);
    try {
      await writeFile(
        file,
        edited((d) => (d.organizations[0]!.posts.find((p) => p.slug === 'welcome')!.title = 'Edited with webhooks')),
      );
      const delivery = await cms.waitForDelivery((d) => d.event === 'post.all' && d.request.body.includes('"welcome"'), {
        timeoutMs: 3000,
      });
      expect(delivery.cause).toEqual({ kind: 'control', action: 'data file edit' });
    } finally {
      await fetch(`${cms.controlUrl}/store/settings`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ edits_fire_webhooks: false }),
      });
    }
    const bad = await fetch(`${cms.controlUrl}/store/settings`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: '{"edits_fire_webhooks":"yes"}',
    });
    expect(bad.status).toBe(400);
  });
});
