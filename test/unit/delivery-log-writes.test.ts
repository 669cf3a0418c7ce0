/**
 * The delivery log's file (server/webhooks/delivery-log.ts) is written like the store's: once
 * changes go quiet, within a bounded delay under a steady stream of them, and at once on flush.
 * Rewritten after every change, a full log cost ~10 ms of CPU per API write on the demo store.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeDeliveryFile } from '../../server/webhooks/delivery-file.js';
import { DeliveryLog } from '../../server/webhooks/delivery-log.js';
import type { Delivery } from '../../server/webhooks/delivery.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

const delivery = (id: string): Delivery => ({
  id,
  organization: 'acme',
  webhook_id: 'hook',
  event: 'post.published',
  target: 'inbox:demo',
  request: { method: 'POST', url: 'inbox:demo', headers: {}, body: '{}' },
  state: 'pending',
  attempts: [],
  max_attempts: 1,
  retry_delays_ms: [],
  timeout_ms: 5000,
  cause: { kind: 'api', requestId: null },
  replay_of: null,
  created: new Date(0).toISOString(),
  finished: null,
});

async function freshLog(): Promise<{ file: string; log: DeliveryLog }> {
  const dir = await mkdtemp(join(tmpdir(), 'cms-emulator-deliveries-'));
  dirs.push(dir);
  const file = join(dir, 'deliveries.json');
  return { file, log: await DeliveryLog.open(file) };
}

const ids = async (file: string) =>
  ((JSON.parse(await readFile(file, 'utf8')) as { deliveries: Delivery[] }).deliveries ?? []).map((d) => d.id);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('delivery log writes', () => {
  it('a burst is written once it goes quiet, and flush writes at once', async () => {
    const { file, log } = await freshLog();
    for (let i = 0; i < 50; i++) log.add(delivery(`d${i}`));
    // Rewritten after every change, as before, it would be on disk a turn of the event loop later.
    await sleep(30);
    expect(existsSync(file)).toBe(false);
    // Then written once it has gone quiet (200 ms): waited for with a deadline, not a fixed sleep,
    // since on a loaded machine (CI on a fresh clone) the write itself can take hundreds of ms.
    const deadline = Date.now() + 5000;
    while (!existsSync(file) && Date.now() < deadline) await sleep(20);
    expect(await ids(file)).toHaveLength(50);
    log.add(delivery('late'));
    await log.flush();
    expect(await ids(file)).toContain('late');
    await log.close();
  });

  it('a stream of changes that never goes quiet is still written within a second or so', async () => {
    const { file, log } = await freshLog();
    const started = Date.now();
    let i = 0;
    while (!existsSync(file) && Date.now() - started < 3000) {
      log.add(delivery(`s${i++}`));
      await sleep(20);
    }
    expect(existsSync(file)).toBe(true);
    expect(Date.now() - started).toBeLessThan(1800);
    await log.close();
    expect(await ids(file)).toHaveLength(i);
  });

  it('writes the file a slice at a time as JSON.stringify(…, null, 2) would, and reads it back', async () => {
    const { file } = await freshLog();
    // More than one slice, bodies with newlines, quotes and non-ASCII text, and the empty log.
    const many = Array.from({ length: 253 }, (_, i) => ({
      ...delivery(`x${i}`),
      request: { method: 'POST', url: 'inbox:demo', headers: { 'x-n': String(i) }, body: `{"text":"line\\n\\"${i}\\" é ✓"}` },
    }));
    for (const deliveries of [many, many.slice(0, 1), []]) {
      await writeDeliveryFile(file, deliveries);
      expect(await readFile(file, 'utf8')).toBe(JSON.stringify({ deliveries }, null, 2));
    }
    await writeDeliveryFile(file, many);
    const reopened = await DeliveryLog.open(file);
    expect(reopened.list().map((d) => d.id)).toEqual(many.map((d) => d.id).reverse());
    expect(reopened.get('x200')?.request.body).toBe(many[200]!.request.body);
  });
});
