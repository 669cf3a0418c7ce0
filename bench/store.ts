/**
 * Store benchmark (issue 7; `npm run bench:store`; not a test, never part of `npm test`).
 *
 * On a large generated data file (bench/generate-store.ts: 10,000 posts, 2,000 pages, 10,000
 * items) and on the demo fixture, measures:
 *   1. load: readStoreFile (parse + schema + content checks) and a full createEmulator + start,
 *      median and p95 of --runs (target: well under 2 s); for context also the CLI process, from
 *      spawn until it prints its API base URL;
 *   2. the size of the large data file;
 *   3. file writes per --writes API writes: POST /v2/posts/ with up to --concurrency in flight,
 *      then emulator.idle(); the store.writes delta must be bounded (a write once mutations go
 *      quiet, or every WRITE_MAX_DELAY_MS under sustained ones, never two within 100 ms), far
 *      below one per API write. Also the time until everything was on disk and the event loop's
 *      longest stall during the storm;
 *   4. one coalesced write of the large store on its own (--runs times): how long until it is on
 *      disk, and the event loop's longest stall meanwhile, the watcher reading the file back
 *      included (a stall is time no request is served);
 *   5. read latency of GET /v2/posts/?page_size=10 and GET /v2/posts/{slug}/ (median of --reads
 *      sequential requests), large against demo: a ratio far above 1 means reads scan the store;
 *      and the same for the first read after the state changed (what a per-revision cache costs);
 *   6. the same for page lists (plain, ordered, filtered), a single page, collection lists (plain,
 *      ordered), a single item and a `keys=` selector, on the large store against a small one
 *      from the same generator (same page types and collections, so the same paths).
 * Emulators run in this process (client and server share the event loop, as a test suite's
 * would). Prints tables, writes bench/results/store.json. Only 127.0.0.1.
 *
 *   npm run bench:store -- [--runs 5] [--writes 1000] [--concurrency 50] [--reads 200]
 */
import { spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createEmulator, type Emulator } from '../server/index.js';
import { readStoreFile } from '../server/store/load.js';
import type { StoreData } from '../server/store/schema.js';
import { WRITE_INTERVAL_MS } from '../server/store/store.js';
import { generateLargeStore, LARGE_ORG, LARGE_STORE_DEFAULTS, storeText } from './generate-store.js';
import { round1, stats, timed, type Stats } from './support/stats.js';

const root = fileURLToPath(new URL('..', import.meta.url));

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    writes: { type: 'string', default: '1000' },
    concurrency: { type: 'string', default: '50' },
    reads: { type: 'string', default: '200' },
  },
});
const RUNS = positive(args.runs, 'runs');
const WRITES = positive(args.writes, 'writes');
const CONCURRENCY = positive(args.concurrency, 'concurrency');
const READS = positive(args.reads, 'reads');

const LOAD_TARGET_MS = 2000;
/** A small store from the same generator: the scale the content reads are compared with. */
const SMALL_STORE = { posts: 100, pages: 40, items: 50, authors: 10, categories: 10, tags: 10 } as const;
/** "Far below one file write per API write": at most this many per 1,000. */
const WRITES_PER_1000_MAX = 100;
/** A read this many times slower on the large store than on the demo scales with the store. */
const SCAN_RATIO = 3;

const DEMO = { slug: 'acme', read: 'acme-read-7f3c9a1e5b', write: 'acme-write-2d8e4b6f1c' } as const;

/** Progress on stderr: the whole run takes a minute or more. */
const step = (message: string) => process.stderr.write(`… ${message}\n`);

function positive(raw: string | undefined, name: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`--${name} takes a positive whole number`);
  return n;
}

// ------------------------------------------------------------------------------------- helpers

const mib = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

function table(header: string[], rows: (string | number)[][]): void {
  const cells = rows.map((r) => r.map(String));
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of cells) console.log(line(r));
}

async function startIn(dataDir: string): Promise<{ emulator: Emulator; apiUrl: string }> {
  const emulator = await createEmulator({ dataDir, fixture: 'demo', port: 0, host: '127.0.0.1' });
  const { apiUrl } = await emulator.start();
  if (!apiUrl.startsWith('http://127.0.0.1:')) throw new Error(`refusing to load anything but 127.0.0.1 (${apiUrl})`);
  return { emulator, apiUrl };
}

/** The CLI as a user runs it: spawn until it prints its API base URL; then SIGTERM. */
async function cliStart(dataDir: string): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/cli.ts', '--port', '0', '--data', dataDir], { cwd: root });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
  try {
    return await new Promise<number>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (/API base URL\s+http:\/\/127\.0\.0\.1:\d+\/v2/.test(output)) resolve(performance.now() - started);
      });
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      void exited.then(() => reject(new Error(`the CLI exited before it was ready:\n${output}`)));
    });
  } finally {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  }
}

// ------------------------------------------------------------------------------- write storms

interface Storm {
  store: string;
  api_writes: number;
  concurrency: number;
  accepted_202: number;
  other_statuses: Record<string, number>;
  /** First request sent until the last 202 arrived. */
  accept_ms: number;
  post_latency: Stats;
  /** First request sent until emulator.idle() resolved: every accepted write on disk. */
  on_disk_ms: number;
  /** Last 202 until on disk. */
  drain_after_last_202_ms: number;
  file_writes: number;
  file_writes_per_1000: number;
  /** Coalescing allows at most one write per WRITE_INTERVAL_MS (plus the first one). */
  file_writes_bound: number;
  event_loop_max_stall_ms: number;
  /** Posts of this storm found in the data file afterwards (must equal accepted_202). */
  found_in_file: number;
}

async function storm(label: string, emulator: Emulator, apiUrl: string, token: string): Promise<Storm> {
  const prefix = `Store bench ${label} ${Date.now()}`;
  const writesBefore = emulator.store.writes;
  const statuses: Record<string, number> = {};
  const latencies: number[] = [];
  const loop = monitorEventLoopDelay({ resolution: 10 });
  let next = 0;
  let lastAccepted = 0;
  const started = performance.now();
  loop.enable();
  const worker = async () => {
    while (next < WRITES) {
      const i = next++;
      const sent = performance.now();
      const res = await fetch(`${apiUrl}/posts/`, {
        method: 'POST',
        headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          title: `${prefix} #${i}`,
          status: i % 4 === 0 ? 'draft' : 'published',
          body: `<p>Written by the store benchmark, request ${i}.</p>`.repeat(8),
          summary: 'A benchmark post.',
        }),
      });
      await res.arrayBuffer();
      const now = performance.now();
      latencies.push(now - sent);
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      if (res.status === 202) lastAccepted = now;
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, WRITES) }, worker));
  const acceptedAt = performance.now();
  step(`${label}: ${WRITES} POSTs answered in ${Math.round(acceptedAt - started)} ms; waiting until all is on disk`);
  await emulator.idle();
  const onDisk = performance.now();
  loop.disable();

  const writes = emulator.store.writes - writesBefore;
  const text = await readFile(emulator.store.file, 'utf8');
  const data = JSON.parse(text) as StoreData;
  const found = data.organizations.flatMap((o) => o.posts).filter((p) => p.title.startsWith(prefix)).length;
  const { 202: accepted = 0, ...others } = statuses;
  const onDiskMs = onDisk - started;
  return {
    store: label,
    api_writes: WRITES,
    concurrency: CONCURRENCY,
    accepted_202: accepted,
    other_statuses: others,
    accept_ms: Math.round(acceptedAt - started),
    post_latency: stats(latencies),
    on_disk_ms: Math.round(onDiskMs),
    drain_after_last_202_ms: Math.round(onDisk - (lastAccepted || acceptedAt)),
    file_writes: writes,
    file_writes_per_1000: round1((writes / WRITES) * 1000),
    file_writes_bound: Math.ceil(onDiskMs / WRITE_INTERVAL_MS) + 1,
    event_loop_max_stall_ms: round1(loop.max / 1e6),
    found_in_file: found,
  };
}

/**
 * One coalesced write on its own: a mutation that changes nothing, then flush, with the write slot
 * free so it starts at once. The event loop is watched until the watcher has read the file back
 * (it does after each of our writes, to recognise them): all of that is time no request is served.
 */
async function writeStall(emulator: Emulator, runs: number): Promise<{ bytes: number; serialize: Stats; on_disk: Stats; stall: Stats }> {
  const onDisk: number[] = [];
  const stalls: number[] = [];
  const serialize: number[] = [];
  let bytes = 0;
  for (let i = 0; i < runs; i++) {
    await emulator.store.flush();
    await sleep(WRITE_INTERVAL_MS + 50);
    const loop = monitorEventLoopDelay({ resolution: 5 });
    loop.enable();
    // The histogram measures from its first sample on: a stall before that would go unseen.
    await sleep(30);
    const started = performance.now();
    emulator.store.mutate(() => undefined);
    await emulator.store.flush();
    onDisk.push(performance.now() - started);
    await sleep(400); // the watcher sees the change after its 60 ms stability wait
    await emulator.watcher.settled();
    loop.disable();
    stalls.push(loop.max / 1e6);
  }
  // For scale: what serializing the state costs in one piece.
  for (let i = 0; i < 3; i++)
    serialize.push(await timed(() => (bytes = Buffer.byteLength(JSON.stringify(emulator.store.data, null, 2)) + 1)));
  return { bytes, serialize: stats(serialize), on_disk: stats(onDisk), stall: stats(stalls) };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ------------------------------------------------------------------------------------- reads

interface ReadOptions {
  /** Called before each timed request (untimed): e.g. to make the store's revision move. */
  before?: () => void;
  runs?: number;
}

async function readLatency(
  apiUrl: string,
  token: string,
  path: string,
  { before, runs = READS }: ReadOptions = {},
): Promise<Stats & { path: string; bytes: number }> {
  const get = async () => {
    const res = await fetch(`${apiUrl}${path}`, { headers: { authorization: `Token ${token}` } });
    const body = await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}`);
    return body.byteLength;
  };
  for (let i = 0; i < 10; i++) await get(); // warm-up
  let bytes = 0;
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    before?.();
    samples.push(await timed(async () => (bytes = await get())));
  }
  return { path, bytes, ...stats(samples) };
}

/**
 * Reads right after the state changed: caches keyed on the store's revision (read indexes) are
 * rebuilt by the first read after a write. `adopt` of the same data moves the revision the way a
 * write does, without the file write (which would stall the event loop and blur the figure).
 */
const READS_AFTER_CHANGE = Math.max(1, Math.round(READS / 4));

async function readSet(emulator: Emulator, apiUrl: string, token: string, slug: string) {
  const list = '/posts/?page_size=10';
  const single = `/posts/${encodeURIComponent(slug)}/`;
  const change = () => emulator.store.adopt(emulator.store.data);
  return [
    { label: `GET /v2${list}`, ...(await readLatency(apiUrl, token, list)) },
    { label: 'GET /v2/posts/{slug}/', ...(await readLatency(apiUrl, token, single)) },
    {
      label: `GET /v2${list}, first after a change`,
      ...(await readLatency(apiUrl, token, list, { before: change, runs: READS_AFTER_CHANGE })),
    },
    {
      label: 'GET /v2/posts/{slug}/, first after a change',
      ...(await readLatency(apiUrl, token, single, { before: change, runs: READS_AFTER_CHANGE })),
    },
  ];
}

/** A published, live post in the middle of the list (its neighbours exist). */
function middlePost(data: StoreData, org: string): string {
  const posts = data.organizations.find((o) => o.slug === org)!.posts.filter((p) => p.status === 'published' && p.deleted === null);
  return posts[Math.floor(posts.length / 2)]!.slug;
}

/** Page and collection reads of a generated store; labels name them the same for every store. */
function contentReads(data: StoreData): { label: string; path: string; afterChange?: boolean }[] {
  const org = data.organizations.find((o) => o.slug === LARGE_ORG.slug)!;
  const middle = <T>(list: T[]): T => list[Math.floor(list.length / 2)]!;
  const page = middle(org.pages.filter((p) => p.page_type === 'article_page' && p.published_version !== null && p.deleted === null));
  const items = (key: string) =>
    org.collections.find((c) => c.key === key)!.items.filter((i) => i.status === 'published' && i.deleted === null);
  const product = middle(items('products'));
  const brand = middle(items('brands'));
  const articles = '/pages/article_page/?page_size=10';
  const products = '/content/products/?page_size=10';
  return [
    { label: `GET /v2${articles}`, path: articles },
    { label: `GET /v2${articles}, first after a change`, path: articles, afterChange: true },
    { label: `GET /v2${articles}&order=-published`, path: `${articles}&order=-published` },
    { label: 'GET /v2/pages/landing_page/?fields.theme=dark', path: '/pages/landing_page/?page_size=10&fields.theme=dark' },
    { label: 'GET /v2/pages/article_page/{slug}/', path: `/pages/article_page/${encodeURIComponent(page.slug)}/` },
    { label: `GET /v2${products}`, path: products },
    { label: `GET /v2${products}, first after a change`, path: products, afterChange: true },
    { label: `GET /v2${products}&order=price`, path: `${products}&order=price` },
    { label: 'GET /v2/content/products/{id}/', path: `/content/products/${product.id}/` },
    { label: 'GET /v2/content/?keys=brands[_id={id}]', path: `/content/?keys=brands[_id=${brand.id}]` },
  ];
}

async function contentReadSet(emulator: Emulator, apiUrl: string) {
  const change = () => emulator.store.adopt(emulator.store.data);
  const out = [];
  for (const read of contentReads(emulator.store.data)) {
    const options = read.afterChange ? { before: change, runs: READS_AFTER_CHANGE } : {};
    out.push({ label: read.label, ...(await readLatency(apiUrl, LARGE_ORG.read, read.path, options)) });
  }
  return out;
}

// ----------------------------------------------------------------------------------------- run

const work = await mkdtemp(join(tmpdir(), 'cms-emulator-bench-store-'));
const running: Emulator[] = [];
try {
  // ---- the large file
  const largeDir = join(work, 'large');
  await mkdir(largeDir, { recursive: true });
  let text = '';
  const generateMs = await timed(() => (text = storeText(generateLargeStore())));
  const largeFile = join(largeDir, 'data.json');
  await writeFile(largeFile, text);
  const largeBytes = Buffer.byteLength(text);
  text = '';
  const pristine = join(work, 'large-pristine.json');
  await cp(largeFile, pristine);
  const demoDir = join(work, 'demo');
  await mkdir(demoDir);
  await cp(join(root, 'fixtures', 'demo', 'data.json'), join(demoDir, 'data.json'));
  const demoBytes = (await readFile(join(demoDir, 'data.json'))).byteLength;

  // ---- 1. load
  step(`large data file generated (${mib(largeBytes)} MiB); loading it ${RUNS}× (readStoreFile, createEmulator, CLI)`);
  const readSamples: number[] = [];
  let largeSlug = '';
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    const data = await readStoreFile(largeFile);
    readSamples.push(performance.now() - t);
    largeSlug = middlePost(data, LARGE_ORG.slug);
  }
  const startSamples: number[] = [];
  const stopSamples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    const { emulator } = await startIn(largeDir);
    startSamples.push(performance.now() - t);
    stopSamples.push(await timed(() => emulator.stop()));
  }
  const cliSamples: number[] = [];
  for (let i = 0; i < RUNS; i++) cliSamples.push(await cliStart(largeDir));
  const demoRead: number[] = [];
  for (let i = 0; i < RUNS; i++) demoRead.push(await timed(() => readStoreFile(join(demoDir, 'data.json'))));
  const load = {
    read_store_file: stats(readSamples),
    create_emulator_and_start: stats(startSamples),
    stop: stats(stopSamples),
    cli_spawn_until_ready: stats(cliSamples),
    demo_read_store_file: stats(demoRead),
  };

  // ---- 5. reads, then 3. the write storm, on the demo and on the large store; 4. a write alone
  const demoData = JSON.parse(await readFile(join(demoDir, 'data.json'), 'utf8')) as StoreData;
  const demoSlug = middlePost(demoData, DEMO.slug);

  step('demo fixture: reads, then the write storm');
  const demo = await startIn(demoDir);
  running.push(demo.emulator);
  const demoReads = await readSet(demo.emulator, demo.apiUrl, DEMO.read, demoSlug);
  const demoStorm = await storm('demo', demo.emulator, demo.apiUrl, DEMO.write);
  await demo.emulator.stop();
  running.pop();

  step('small generated store: page and collection reads');
  const smallDir = join(work, 'small');
  await mkdir(smallDir);
  await writeFile(join(smallDir, 'data.json'), storeText(generateLargeStore(SMALL_STORE)));
  const small = await startIn(smallDir);
  running.push(small.emulator);
  const smallContentReads = await contentReadSet(small.emulator, small.apiUrl);
  await small.emulator.stop();
  running.pop();

  await cp(pristine, largeFile); // the load runs wrote nothing, but be sure
  step('large store: reads, a write alone, then the write storm');
  const big = await startIn(largeDir);
  running.push(big.emulator);
  const largeReads = await readSet(big.emulator, big.apiUrl, LARGE_ORG.read, largeSlug);
  const largeContentReads = await contentReadSet(big.emulator, big.apiUrl);
  const largeWrite = await writeStall(big.emulator, RUNS);
  const largeStorm = await storm('large', big.emulator, big.apiUrl, LARGE_ORG.write);
  await big.emulator.stop();
  running.pop();

  // ---- results
  const compare = <T extends { label: string; median_ms: number }>(smaller: T[], larger: T[]) =>
    larger.map((l, i) => {
      const d = smaller[i]!;
      const ratio = Math.round((l.median_ms / d.median_ms) * 10) / 10;
      return { request: l.label, small: d, large: l, ratio, scans_store: ratio > SCAN_RATIO };
    });
  const reads = compare(demoReads, largeReads);
  const contentReadResults = compare(smallContentReads, largeContentReads);
  const storms = [demoStorm, largeStorm].map((s) => ({
    ...s,
    bounded: s.file_writes <= s.file_writes_bound && s.file_writes_per_1000 <= WRITES_PER_1000_MAX,
    all_on_disk: s.found_in_file === s.accepted_202 && s.accepted_202 === s.api_writes,
  }));
  const targets = {
    load_max_ms: LOAD_TARGET_MS,
    read_store_file_met: load.read_store_file.median_ms < LOAD_TARGET_MS,
    create_emulator_met: load.create_emulator_and_start.median_ms < LOAD_TARGET_MS,
    file_writes_per_1000_max: WRITES_PER_1000_MAX,
    file_writes_bounded_demo: storms[0]!.bounded,
    file_writes_bounded_large: storms[1]!.bounded,
  };
  const results = {
    date: new Date().toISOString(),
    environment: {
      node: process.version,
      cpu: cpus()[0]?.model ?? 'unknown',
      cpus: availableParallelism(),
      platform: `${process.platform}-${process.arch}`,
    },
    settings: { runs: RUNS, api_writes: WRITES, concurrency: CONCURRENCY, reads: READS, write_interval_ms: WRITE_INTERVAL_MS },
    large_store: {
      generator: LARGE_STORE_DEFAULTS,
      generate_ms: Math.round(generateMs),
      file_bytes: largeBytes,
      file_mib: mib(largeBytes),
    },
    demo_store: { file_bytes: demoBytes },
    small_store: { generator: SMALL_STORE },
    load,
    writes: storms,
    write_alone: largeWrite,
    reads,
    content_reads: contentReadResults,
    targets,
  };

  // ---- report
  const env = results.environment;
  const mark = (ok: boolean) => (ok ? 'ok' : 'MISSED');
  console.log(`\nStore benchmark; ${env.cpu} ×${env.cpus}, Node ${env.node}`);
  console.log(
    `\nLarge data file: ${results.large_store.file_mib} MiB (${largeBytes.toLocaleString('en')} bytes), generated in ${results.large_store.generate_ms} ms; ` +
      `demo fixture ${Math.round(demoBytes / 1024)} KiB\n`,
  );
  const loadRow = (label: string, st: Stats) => [label, st.median_ms, st.p95_ms, st.min_ms, st.max_ms, st.runs];
  table(
    ['load (large store)', 'median ms', 'p95 ms', 'min ms', 'max ms', 'runs'],
    [
      loadRow('readStoreFile (parse + schema + content checks)', load.read_store_file),
      loadRow('createEmulator + start', load.create_emulator_and_start),
      loadRow('stop', load.stop),
      loadRow('CLI: spawn until "API base URL"', load.cli_spawn_until_ready),
      loadRow('readStoreFile, demo fixture (for scale)', load.demo_read_store_file),
    ],
  );
  console.log(
    `target < ${LOAD_TARGET_MS} ms: readStoreFile ${mark(targets.read_store_file_met)}, createEmulator + start ${mark(targets.create_emulator_met)}\n`,
  );
  table(
    ['write storm', 'demo', 'large'],
    [
      ['POST /v2/posts/ sent (concurrency)', `${WRITES} (${CONCURRENCY})`, `${WRITES} (${CONCURRENCY})`],
      ['answered 202 / other', ...storms.map((s) => `${s.accepted_202} / ${JSON.stringify(s.other_statuses)}`)],
      ['all 202s answered after, ms', ...storms.map((s) => s.accept_ms)],
      [
        'POST latency median / p95 / max, ms',
        ...storms.map((s) => `${s.post_latency.median_ms} / ${s.post_latency.p95_ms} / ${s.post_latency.max_ms}`),
      ],
      ['everything on disk after, ms', ...storms.map((s) => s.on_disk_ms)],
      ['  of which after the last 202, ms', ...storms.map((s) => s.drain_after_last_202_ms)],
      ['file writes (store.writes delta)', ...storms.map((s) => s.file_writes)],
      ['file writes per 1,000 API writes', ...storms.map((s) => s.file_writes_per_1000)],
      ['bound: 1 + on-disk time / 100 ms', ...storms.map((s) => s.file_writes_bound)],
      ['event loop: longest stall, ms', ...storms.map((s) => s.event_loop_max_stall_ms)],
      ['storm posts found in the file', ...storms.map((s) => s.found_in_file)],
    ],
  );
  console.log(
    `file writes bounded (≤ bound and ≤ ${WRITES_PER_1000_MAX} per 1,000): demo ${mark(targets.file_writes_bounded_demo)}, large ${mark(targets.file_writes_bounded_large)}\n`,
  );
  table(
    ['one write of the large store, alone', 'median', 'p95', 'max'],
    [
      ['bytes', largeWrite.bytes.toLocaleString('en'), '', ''],
      [
        'JSON.stringify in one piece (for scale), ms',
        largeWrite.serialize.median_ms,
        largeWrite.serialize.p95_ms,
        largeWrite.serialize.max_ms,
      ],
      ['mutate until on disk, ms', largeWrite.on_disk.median_ms, largeWrite.on_disk.p95_ms, largeWrite.on_disk.max_ms],
      ['event loop: longest stall (watcher included), ms', largeWrite.stall.median_ms, largeWrite.stall.p95_ms, largeWrite.stall.max_ms],
    ],
  );
  console.log('');
  const readTable = (smallLabel: string, rows: typeof reads) =>
    table(
      ['read (median of sequential requests)', 'runs', `${smallLabel} ms`, 'large ms', 'large p95 ms', 'ratio', 'large bytes', 'verdict'],
      rows.map((r) => [
        r.request,
        r.large.runs,
        r.small.median_ms,
        r.large.median_ms,
        r.large.p95_ms,
        r.ratio,
        r.large.bytes,
        r.scans_store ? 'scales with the store' : 'flat',
      ]),
    );
  readTable('demo', reads);
  console.log('');
  readTable('small', contentReadResults);

  const resultsDir = join(root, 'bench', 'results');
  await mkdir(resultsDir, { recursive: true });
  await writeFile(join(resultsDir, 'store.json'), JSON.stringify(results, null, 2) + '\n');
  console.log(`\nwrote bench/results/store.json`);

  const broken = storms.filter((s) => !s.all_on_disk);
  if (broken.length > 0) {
    console.error(
      `writes went missing: ${broken.map((s) => `${s.store}: ${s.accepted_202} accepted, ${s.found_in_file} in the file`).join('; ')}`,
    );
    process.exitCode = 1;
  }
} finally {
  for (const emulator of running) await emulator.stop();
  await rm(work, { recursive: true, force: true });
}
// emulator.stop() leaves the demo storm's webhook deliveries running (a receiver that takes
// 1.5 s, retries after 1 s and 5 s, one delivery at a time per webhook): they would keep this
// process alive for many minutes after the results are written.
process.exit();
