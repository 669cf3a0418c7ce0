/**
 * Webhook benchmark (issue 5): the API's write latency must not change while a receiver takes
 * 5 s to answer. Runs POST /v2/posts/ under load twice against an emulator in a child process:
 * once with no webhooks, once with a post.all webhook to a receiver that holds every delivery
 * for 5 s. Prints a table and the ratio, writes bench/results/webhooks.json. Only 127.0.0.1.
 *
 *   npm run bench:webhooks -- [--duration 5] [--connections 50]
 */
import autocannon from 'autocannon';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startChild, stopChild } from './support/children.js';
import type { ServeReady } from './support/serve.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  const value = i === -1 ? fallback : Number(process.argv[i + 1]);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`--${name} takes a positive whole number`);
  return value;
};
const duration = arg('duration', 5);
const connections = arg('connections', 50);
const RECEIVER_DELAY_MS = 5000;

interface Row {
  scenario: string;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  non202: number;
}

async function prepare(webhookUrl: string | null): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cms-emulator-bench-hooks-'));
  await cp(join(root, 'fixtures/demo'), dir, { recursive: true });
  const file = join(dir, 'data.json');
  const data = JSON.parse(await readFile(file, 'utf8')) as { organizations: { webhooks?: unknown[] }[] };
  for (const org of data.organizations) org.webhooks = [];
  if (webhookUrl) data.organizations[0]!.webhooks = [{ id: 'slow', url: webhookUrl, events: ['post.all'], timeout_ms: 10_000 }];
  await writeFile(file, JSON.stringify(data, null, 2));
  return dir;
}

async function writes(name: string, ready: ServeReady): Promise<Row> {
  const result = await autocannon({
    url: `${ready.apiUrl}/posts/`,
    method: 'POST',
    connections,
    duration,
    idReplacement: true,
    headers: { authorization: `Token ${ready.tokens['acme']!.write}`, 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'Bench post [<id>]', status: 'published', body: '<p>benchmark</p>' }),
  });
  return {
    scenario: name,
    requests: result.requests.total,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non202: result.non2xx,
  };
}

// The slow receiver: holds every delivery for 5 s, then answers 200.
let received = 0;
const receiver = createServer((req, res) => {
  req.resume();
  received += 1;
  setTimeout(() => res.end('ok'), RECEIVER_DELAY_MS);
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

const rows: Row[] = [];
for (const [name, url] of [
  ['POST /posts/, no webhooks', null],
  [`POST /posts/, webhook to a ${RECEIVER_DELAY_MS / 1000} s receiver`, receiverUrl],
] as const) {
  const dir = await prepare(url);
  // The emulator in a child process, compiled, as `npm run bench` runs it.
  const { process: child, ready } = await startChild<ServeReady>(join(root, 'bench/support/serve.ts'), [dir]);
  rows.push(await writes(name, ready));
  await stopChild(child, 5000);
  await rm(dir, { recursive: true, force: true });
}
receiver.closeAllConnections();
receiver.close();

console.log(`\nWebhook benchmark: ${connections} connections, ${duration} s per scenario, Node ${process.version}`);
console.log(
  'scenario'.padEnd(48),
  'requests'.padStart(8),
  'req/s'.padStart(7),
  'p50 ms'.padStart(7),
  'p99 ms'.padStart(7),
  'non-202'.padStart(8),
);
for (const r of rows) {
  console.log(
    r.scenario.padEnd(48),
    String(r.requests).padStart(8),
    String(r.rps).padStart(7),
    String(r.p50).padStart(7),
    String(r.p99).padStart(7),
    String(r.non202).padStart(8),
  );
}
const [plain, slow] = rows as [Row, Row];
const ratio = slow.p99 / Math.max(plain.p99, 1);
console.log(`\np99 with a slow receiver / without: ${ratio.toFixed(2)} (target ≤ 1.5: ${ratio <= 1.5 ? 'ok' : 'MISSED'})`);
console.log(`deliveries that reached the slow receiver while measuring: ${received}`);
await mkdir(join(root, 'bench/results'), { recursive: true });
await writeFile(join(root, 'bench/results/webhooks.json'), JSON.stringify({ duration, connections, rows, ratio, received }, null, 2));
console.log('wrote bench/results/webhooks.json');
