/**
 * CDN benchmark (`npm run bench:cdn`; not a test, never part of `npm test`).
 *
 * Starts an emulator in a child process over a temporary copy of the demo fixture and measures,
 * with autocannon against 127.0.0.1 only, for a bounded time each:
 *   a. the original image           GET {cdn}/<id>                              (a static file)
 *   b. a cached transformed image   GET {cdn}/resize=width:400,height:400/<id>  (warmed first)
 *   c. for context, a small JSON read GET /v2/posts/?page_size=1&exclude_body=1
 * and, separately, the first transform of a 2000×2000 JPEG to 400×400: transformImage called
 * directly (fresh step variants, sharp's cache off) and first requests over HTTP on a fresh cache
 * (a distinct source file per request). Prints a table and writes bench/results/cdn.json.
 *
 * Targets (issue): cached transform at least 0.8× the rate of the static original; first
 * 2000×2000 → 400×400 transform under 100 ms.
 *
 *   npm run bench:cdn -- --duration 5 --connections 20
 */
import type { ChildProcess } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import sharp from 'sharp';
import { parseTransforms } from '../server/domain/media/transform.js';
import { transformImage } from '../server/media/transformer.js';
import { resolveFixture } from '../server/store/seed.js';
import { startChild, stopChild } from './support/children.js';
import type { BareReady, BareRequest, ServeReady } from './support/serve.js';
import { round1, stats } from './support/stats.js';

const here = dirname(fileURLToPath(import.meta.url));

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '20' },
    'direct-runs': { type: 'string', default: '20' },
    'http-runs': { type: 'string', default: '10' },
  },
});
const DURATION_S = positive(args.duration, 'duration');
const CONNECTIONS = positive(args.connections, 'connections');
const DIRECT_RUNS = positive(args['direct-runs'], 'direct-runs');
const HTTP_RUNS = positive(args['http-runs'], 'http-runs');

const TARGET_RATIO = 0.8;
const TARGET_FIRST_MS = 100;
const TRANSFORM = 'resize=width:400,height:400';
const SOURCE_SIDE = 2000;

function positive(raw: string | undefined, name: string): number {
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number`);
  return n;
}

// ------------------------------------------------------------------------------------- helpers

/** A random media id (20 letters and digits), as the library uses. */
function mediaId(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return Array.from({ length: 20 }, () => alphabet[Math.floor(Math.random() * alphabet.length)]).join('');
}

/**
 * A photo-like 2000×2000 JPEG: a fixture image blown up and covered with grain, hue-shifted per
 * variant so that every file is distinct (no decoder or operation cache can help).
 */
async function makeSource(base: string, file: string, variant: number): Promise<number> {
  const noise = await sharp({
    create: {
      width: SOURCE_SIDE,
      height: SOURCE_SIDE,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 18 },
    },
  })
    .png()
    .toBuffer();
  await sharp(base)
    .resize(SOURCE_SIDE, SOURCE_SIDE, { fit: 'cover' })
    .modulate({ hue: (variant * 37) % 360 })
    .composite([{ input: noise, blend: 'soft-light' }])
    .jpeg({ quality: 85 })
    .toFile(file);
  return (await stat(file)).size;
}

/** A media record of the data file (server/store/schema-media.ts), as far as this file reads it. */
interface MediaEntry {
  id: string;
  file: string;
  content_type: string;
  width: number | null;
  height: number | null;
  size: number;
  [key: string]: unknown;
}

interface Scenario {
  name: string;
  path: string;
  requests_per_s: number;
  latency_p50_ms: number;
  latency_p99_ms: number;
  latency_avg_ms: number;
  response_bytes: number;
  requests: number;
  non_2xx: number;
  errors: number;
}

async function load(name: string, url: string, headers: Record<string, string> = {}): Promise<Scenario> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers });
  const sample = await fetch(url, { headers });
  const bytes = (await sample.arrayBuffer()).byteLength;
  return {
    name,
    path: new URL(url).pathname + new URL(url).search,
    requests_per_s: Math.round(result.requests.average),
    latency_p50_ms: result.latency.p50,
    latency_p99_ms: result.latency.p99,
    latency_avg_ms: Math.round(result.latency.average * 100) / 100,
    response_bytes: bytes,
    requests: result.requests.total,
    non_2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/** A bare node:http server in the child that answers with this file's bytes from memory. */
function startBare(child: ChildProcess, file: string, contentType: string): Promise<string> {
  return new Promise((resolve) => {
    const listener = (message: ServeReady | BareReady) => {
      if (message.type !== 'bare-ready' || message.file !== file) return;
      child.off('message', listener);
      resolve(message.url);
    };
    child.on('message', listener);
    const request: BareRequest = { type: 'bare', file, contentType };
    child.send(request);
  });
}

const ratioOf = (a: Scenario, b: Scenario) => Math.round((a.requests_per_s / b.requests_per_s) * 100) / 100;

// ----------------------------------------------------------------------------------------- run

const work = await mkdtemp(join(tmpdir(), 'cms-emulator-bench-'));
let child: ChildProcess | null = null;
try {
  // A temporary copy of the demo fixture, plus distinct 2000×2000 sources as throwaway media.
  const dataDir = join(work, 'data');
  await cp(resolveFixture('demo'), dataDir, { recursive: true });
  const dataFile = join(dataDir, 'data.json');
  const data = JSON.parse(await readFile(dataFile, 'utf8')) as { organizations: { slug: string; media: MediaEntry[] }[] };
  const media = data.organizations.flatMap((o) => o.media.filter((m) => m.content_type === 'image/jpeg').map((m) => ({ org: o, m })));
  const wide = media.filter(({ m }) => (m.width ?? 0) >= 1600).sort((a, b) => a.m.size - b.m.size);
  const small = media.filter(({ m }) => m.width !== null && m.width <= 400);
  if (wide.length === 0 || small.length === 0) throw new Error('the demo fixture ships no images: run this after it has its media');
  // A typical hero image (the median size of the fixture's 1600px images).
  const { org, m: original } = wide[Math.floor(wide.length / 2)]!;

  await mkdir(join(dataDir, 'media', org.slug), { recursive: true });
  const sources: { id: string; path: string; bytes: number }[] = [];
  for (let i = 0; i <= HTTP_RUNS; i++) {
    const id = mediaId();
    const file = `media/${org.slug}/${id}.jpg`;
    const bytes = await makeSource(join(dataDir, original.file), join(dataDir, file), i);
    sources.push({ id, path: join(dataDir, file), bytes });
    org.media.push({
      id,
      file,
      original_url: null,
      content_type: 'image/jpeg',
      size: bytes,
      width: SOURCE_SIDE,
      height: SOURCE_SIDE,
      alt: 'Benchmark source image',
      created: new Date().toISOString(),
    });
  }
  await writeFile(dataFile, JSON.stringify(data, null, 2) + '\n');

  // ---- first transform, direct (in this process; the server runs in its own)
  sharp.cache(false);
  const steps = (i: number) => parseTransforms([`resize=width:${400 + i},height:400`]);
  let t = performance.now();
  await transformImage(sources[0]!.path, steps(0));
  const firstCallMs = performance.now() - t;
  const direct: number[] = [];
  const singlePipeline: number[] = [];
  for (let i = 1; i <= DIRECT_RUNS; i++) {
    const source = sources[i % sources.length]!.path;
    t = performance.now();
    const out = await transformImage(source, steps(i));
    direct.push(performance.now() - t);
    if (out.data.length === 0) throw new Error('empty transform output');
    // For comparison: the same resize as one sharp pipeline (JPEG shrink-on-load can apply).
    t = performance.now();
    await sharp(source)
      .resize({ width: 400 + i, height: 400, fit: 'inside' })
      .jpeg()
      .toBuffer();
    singlePipeline.push(performance.now() - t);
  }
  sharp.cache(true);

  // ---- the server
  // The emulator in a child process, compiled, as `npm run bench` runs it.
  const started = await startChild<ServeReady>(join(here, 'support', 'serve.ts'), [dataDir]);
  child = started.process;
  const { cdnUrl, apiUrl, tokens } = started.ready;
  if (!cdnUrl.startsWith('http://127.0.0.1:')) throw new Error(`refusing to load anything but 127.0.0.1 (${cdnUrl})`);

  // ---- first transform over HTTP: each request is a fresh cache key on a never-decoded file.
  // The very first one is also the server process's first transform (sharp warming up).
  const firstHttp: number[] = [];
  for (const source of sources) {
    t = performance.now();
    const res = await fetch(`${cdnUrl}/${TRANSFORM}/${source.id}`);
    await res.arrayBuffer();
    firstHttp.push(performance.now() - t);
    if (res.status !== 200) throw new Error(`first transform over HTTP answered ${res.status}`);
  }

  // ---- throughput
  const originalUrl = `${cdnUrl}/${original.id}`;
  const transformedUrl = `${cdnUrl}/${TRANSFORM}/${original.id}`;
  const check = async (url: string): Promise<Buffer> => {
    const res = await fetch(url);
    const body = Buffer.from(await res.arrayBuffer());
    if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
    return body;
  };
  await check(originalUrl);
  const transformed = await check(transformedUrl); // also warms the transform cache
  const similar = small.sort((a, b) => Math.abs(a.m.size - transformed.length) - Math.abs(b.m.size - transformed.length))[0]!.m;
  const transformedCopy = join(work, 'transformed.jpg');
  await writeFile(transformedCopy, transformed);
  const token = tokens[org.slug]!.read;

  const original_ = await load(`original ${original.width}×${original.height} (static file)`, originalUrl);
  const cached = await load('cached transform 400×400 of it', transformedUrl);
  const similarStatic = await load(`original ${similar.width}×${similar.height} (static file, similar size)`, `${cdnUrl}/${similar.id}`);
  const json = await load('JSON read (1 post, no body)', `${apiUrl}/posts/?page_size=1&exclude_body=1`, {
    authorization: `Token ${token}`,
  });
  const bareOriginal = await load(
    'bare node:http, bytes of the original',
    await startBare(child, join(dataDir, original.file), 'image/jpeg'),
  );
  const bareCached = await load('bare node:http, bytes of the transform', await startBare(child, transformedCopy, 'image/jpeg'));
  await stopChild(child, 10_000);
  child = null;

  const scenarios = [original_, cached, similarStatic, json, bareOriginal, bareCached];
  const ratio = ratioOf(cached, original_);
  const directStats = stats(direct);
  const httpStats = stats(firstHttp.slice(1));
  const results = {
    date: new Date().toISOString(),
    environment: {
      node: process.version,
      sharp: sharp.versions.sharp,
      vips: sharp.versions.vips,
      cpu: cpus()[0]?.model ?? 'unknown',
      cpus: availableParallelism(),
      platform: `${process.platform}-${process.arch}`,
    },
    settings: { duration_s: DURATION_S, connections: CONNECTIONS, host: '127.0.0.1', server: 'child process', client: 'autocannon' },
    image: { id: original.id, width: original.width, height: original.height, bytes: original.size },
    scenarios,
    ratio_cached_transform_to_original: ratio,
    ratio_cached_transform_to_similar_size_static: ratioOf(cached, similarStatic),
    share_of_bare_ceiling: { original: ratioOf(original_, bareOriginal), cached_transform: ratioOf(cached, bareCached) },
    first_transform: {
      source: { width: SOURCE_SIDE, height: SOURCE_SIDE, bytes: Math.round(sources.reduce((sum, x) => sum + x.bytes, 0) / sources.length) },
      steps: TRANSFORM,
      direct: { first_call_ms: round1(firstCallMs), ...directStats },
      direct_single_sharp_pipeline: stats(singlePipeline),
      http_fresh_cache: { first_request_after_start_ms: round1(firstHttp[0]!), ...httpStats },
    },
    targets: {
      ratio_min: TARGET_RATIO,
      ratio_met: ratio >= TARGET_RATIO,
      first_transform_max_ms: TARGET_FIRST_MS,
      first_transform_met: directStats.median_ms < TARGET_FIRST_MS && httpStats.median_ms < TARGET_FIRST_MS,
    },
  };

  // ---- report
  const header = ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'avg ms', 'bytes'];
  const rows = scenarios.map((s) =>
    [s.name, s.requests_per_s, s.latency_p50_ms, s.latency_p99_ms, s.latency_avg_ms, s.response_bytes].map(String),
  );
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  const env = results.environment;
  console.log(`\nCDN benchmark: ${CONNECTIONS} connections, ${DURATION_S} s per scenario; ${env.cpu} ×${env.cpus}, Node ${env.node}`);
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  rows.forEach((row, i) => {
    if (i === 4) console.log(line(widths.map(() => '')));
    console.log(line(row));
  });
  const mark = (ok: boolean) => (ok ? 'ok' : 'MISSED');
  console.log(`\ncached transform / original:           ${ratio} (target ≥ ${TARGET_RATIO}: ${mark(results.targets.ratio_met)})`);
  console.log(`cached transform / similar-size static: ${results.ratio_cached_transform_to_similar_size_static}`);
  console.log(
    `share of the bare-server ceiling:       original ${results.share_of_bare_ceiling.original}, cached transform ${results.share_of_bare_ceiling.cached_transform}`,
  );
  const ft = results.first_transform;
  console.log(`\nfirst ${SOURCE_SIDE}×${SOURCE_SIDE} → 400×400 transform (sources ≈ ${Math.round(ft.source.bytes / 1024)} KiB JPEG each):`);
  console.log(
    `  transformImage, direct      median ${ft.direct.median_ms} ms, p95 ${ft.direct.p95_ms} ms (${ft.direct.runs} runs; first call ${ft.direct.first_call_ms} ms)`,
  );
  console.log(
    `  one sharp pipeline, direct  median ${ft.direct_single_sharp_pipeline.median_ms} ms, p95 ${ft.direct_single_sharp_pipeline.p95_ms} ms (for comparison)`,
  );
  console.log(
    `  over HTTP, fresh cache      median ${ft.http_fresh_cache.median_ms} ms, p95 ${ft.http_fresh_cache.p95_ms} ms (${ft.http_fresh_cache.runs} runs; ` +
      `first after server start ${ft.http_fresh_cache.first_request_after_start_ms} ms)`,
  );
  console.log(`  target < ${TARGET_FIRST_MS} ms (medians): ${mark(results.targets.first_transform_met)}`);

  const resultsDir = join(here, 'results');
  await mkdir(resultsDir, { recursive: true });
  await writeFile(join(resultsDir, 'cdn.json'), JSON.stringify(results, null, 2) + '\n');
  console.log(`\nwrote bench/results/cdn.json`);

  const broken = scenarios.filter((s) => s.non_2xx > 0 || s.errors > 0);
  if (broken.length > 0) {
    console.error(`some requests failed: ${broken.map((s) => `${s.name} (${s.non_2xx} non-2xx, ${s.errors} errors)`).join('; ')}`);
    process.exitCode = 1;
  }
} finally {
  if (child) await stopChild(child, 10_000);
  await rm(work, { recursive: true, force: true });
}
