/**
 * The demo as a new user meets it: offline media on the CDN, and webhooks that reach the
 * built-in inbox with no other server running (issue 4, issue 5).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

let t: TestEmulator;

beforeAll(async () => {
  t = await startTestEmulator('demo');
});

afterAll(async () => {
  await t.close();
});

interface PostJson {
  data: { slug: string; featured_image: string | null; body: string }[];
}

describe('the demo fixture', () => {
  it('serves its media from the CDN, with no network', async () => {
    const list = await t.get<PostJson>('/posts/', { token: t.tokens['acme']!.read, query: { page_size: 20 } });
    const local = list.body.data.map((p) => p.featured_image).filter((url): url is string => url?.startsWith(t.cdnUrl) ?? false);
    expect(local.length).toBeGreaterThan(5);
    for (const url of local.slice(0, 3)) {
      const image = await fetch(url);
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/jpeg');
      expect((await image.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    }
    const thumb = await fetch(`${local[0]!.replace(`${t.cdnUrl}/`, `${t.cdnUrl}/resize=width:200/`)}`);
    expect(thumb.status).toBe(200);
  });

  it('delivers webhooks to its inbox: a write shows up there with the secret header', async () => {
    const created = await t.request('POST', '/posts/', {
      headerToken: t.tokens['acme']!.write,
      body: { title: 'Inbox check from the demo test', status: 'published' },
    });
    expect(created.status).toBe(202);
    await t.idle();
    await t.emulator.webhooks.idle();

    const inbox = await fetch(`${t.url}/__emulator/inboxes/demo`);
    const body = (await inbox.json()) as {
      data: { requests: { headers: Record<string, string>; json: { data: { id: string }; webhook: { event: string } } }[] };
    };
    const ours = body.data.requests.filter((r) => r.json.data.id === 'inbox-check-from-the-demo-test');
    expect(ours.map((r) => r.json.webhook.event).sort()).toEqual(['post.all']);
    expect(ours[0]!.headers['x-webhook-secret']).toBe('demo-secret-acme');

    const deliveries = await fetch(`${t.url}/__emulator/deliveries?organization=acme&webhook=site-rebuild`);
    const list = (await deliveries.json()) as { data: { state: string; event: string }[] };
    expect(list.data[0]).toMatchObject({ state: 'succeeded', event: 'post.all' });
  });
});
