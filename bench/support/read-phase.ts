/**
 * The read phase of `npm run bench`: each read case under load (autocannon, `connections`
 * connections as fast as answered: requests per second), each comparable pair with its baseline
 * right after it (so a change in the machine's load hits both alike), then the search's latency
 * one request at a time, and the first search after a write.
 *
 * Search runs over 2,000 distinct queries (dataset.ts), on both servers: a repeated query would
 * measure a cached answer rather than the search.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BareChildReady } from './bare-child.js';
import { startChild, stopChild, type Child } from './children.js';
import { exportForJsonServer, type LargeFixture } from './dataset.js';
import type { JsonServerReady } from './json-server-child.js';
import { load, type LoadResult } from './load.js';
import { ratio, type Row } from './report.js';
import type { ServeReady } from './serve.js';
import type { Stats } from './stats.js';
import { searchAfterWrite } from './writes.js';

export interface ReadCase {
  key: string;
  figure: string;
  base: 'api' | 'cdn';
  /** Cycled through in turn; most cases have one. */
  paths: string[];
  jsonServerPaths?: string[];
}

export function readCases(fixture: LargeFixture, readToken: string): ReadCase[] {
  const auth = `auth_token=${readToken}`;
  const q = (query: string) => encodeURIComponent(query);
  return [
    { key: 'post_list', figure: 'post list', base: 'api', paths: [`/posts/?${auth}`], jsonServerPaths: ['/posts?_page=1&_limit=10'] },
    {
      key: 'post_by_slug',
      figure: 'post by slug',
      base: 'api',
      paths: [`/posts/${fixture.middleSlug}/?${auth}`],
      jsonServerPaths: [`/posts?slug=${fixture.middleSlug}`],
    },
    {
      key: 'search',
      figure: 'search, distinct queries',
      base: 'api',
      paths: fixture.queries.map((query) => `/posts/search/?query=${q(query)}&${auth}`),
      jsonServerPaths: fixture.queries.map((query) => `/posts?q=${q(query)}&_page=1&_limit=10`),
    },
    {
      key: 'page_list_filter',
      figure: 'page list, fields.theme filter',
      base: 'api',
      paths: [`/pages/landing_page/?fields.theme=dark&${auth}`],
      jsonServerPaths: ['/landing_page?fields.theme=dark&_page=1&_limit=10'],
    },
    {
      key: 'collection',
      figure: 'collection read',
      base: 'api',
      paths: [`/content/products/?${auth}`],
      jsonServerPaths: ['/products?_page=1&_limit=10'],
    },
    { key: 'rss', figure: 'RSS feed', base: 'api', paths: [`/feeds/rss/?${auth}`] },
    { key: 'cdn_cached', figure: 'CDN cached transform', base: 'cdn', paths: [`/resize=width:400,height:400/${fixture.imageId}`] },
  ];
}

/** A full URL for `path` of `c`, on the emulator. */
export const urlOf = (ready: ServeReady, c: ReadCase, path = c.paths[0]!): string =>
  (c.base === 'cdn' ? ready.cdnUrl : ready.apiUrl) + path;

/** autocannon's base URL plus paths relative to the server's root. */
export function target(base: string, paths: string[]): { url: string; paths?: string[] } {
  if (paths.length === 1) return { url: base + paths[0] };
  const root = new URL(base);
  return { url: root.origin, paths: paths.map((p) => root.pathname.replace(/\/$/, '') + p) };
}

/** The first request of each case after start, timed (it builds indexes), then two more to warm. */
export async function warm(ready: ServeReady, cases: ReadCase[]): Promise<Record<string, number>> {
  const first: Record<string, number> = {};
  for (const c of cases) {
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      const res = await fetch(urlOf(ready, c));
      const bytes = (await res.arrayBuffer()).byteLength;
      if (res.status !== 200 || bytes === 0) throw new Error(`GET ${c.paths[0]} answered ${res.status} (${bytes} bytes)`);
      if (i === 0) first[c.key] = Math.round(performance.now() - started);
    }
  }
  return first;
}

/** The cases whose targets are ratios to the bare ceiling. */
const CEILING_CASES = new Set(['post_list', 'post_by_slug']);
/**
 * Rounds of a ceiling case, each the emulator then the bare server for the same time. Measured
 * once each, one after the other, the ratio moved with the machine's load between the two runs
 * (the ceiling read 11,666 to 21,680 req/s within a session: docs/performance.md, session 11).
 */
const CEILING_ROUNDS = 2;

/** Rounds of the same load as one result: requests and time summed, the worst of each latency percentile. */
function merged(runs: LoadResult[]): LoadResult {
  const sum = (pick: (r: LoadResult) => number) => runs.reduce((total, r) => total + pick(r), 0);
  const seconds = sum((r) => r.duration_s);
  const requests = sum((r) => r.requests);
  return {
    ...runs[0]!,
    duration_s: Math.round(seconds * 10) / 10,
    requests,
    requests_per_s: Math.round(requests / seconds),
    latency_p50_ms: Math.max(...runs.map((r) => r.latency_p50_ms)),
    latency_p90_ms: Math.max(...runs.map((r) => r.latency_p90_ms)),
    latency_p99_ms: Math.max(...runs.map((r) => r.latency_p99_ms)),
    latency_max_ms: Math.max(...runs.map((r) => r.latency_max_ms)),
    latency_avg_ms: Math.round((sum((r) => r.latency_avg_ms * r.requests) / Math.max(1, requests)) * 100) / 100,
    non_2xx: sum((r) => r.non_2xx),
    errors: sum((r) => r.errors),
  };
}

export interface ReadPhase {
  emulator: Record<string, LoadResult>;
  json_server: Record<string, LoadResult>;
  /** The ceiling measured with the post list (what the bare row shows). */
  bare: LoadResult | null;
  /** The ceiling measured in turn with each ceiling case, and each round's ratio. */
  bare_by_case: Record<string, LoadResult>;
  ceiling_rounds: Record<string, number[]>;
  /** Search one request at a time: its latency without queueing behind other requests. */
  search_latency: LoadResult | null;
  search_after_write: Stats | null;
  json_server_records: Record<string, number>;
}

export interface ReadPhaseOptions {
  connections: number;
  duration: number;
  baselines: boolean;
  work: string;
  supportDir: string;
  children: Child<{ type: 'ready' }>[];
  step: (message: string) => void;
}

export async function readPhase(ready: ServeReady, org: string, cases: ReadCase[], o: ReadPhaseOptions): Promise<ReadPhase> {
  const tokens = ready.tokens[org]!;
  const result: ReadPhase = {
    emulator: {},
    json_server: {},
    bare: null,
    bare_by_case: {},
    ceiling_rounds: {},
    search_latency: null,
    search_after_write: null,
    json_server_records: {},
  };
  let jsonServer: Child<JsonServerReady> | null = null;
  let bareChild: Child<BareChildReady> | null = null;
  if (o.baselines) {
    o.step('exporting posts, landing pages and products for json-server');
    const dbFile = join(o.work, 'db.json');
    result.json_server_records = await exportForJsonServer(ready.apiUrl, tokens.read, dbFile);
    jsonServer = await startChild<JsonServerReady>(join(o.supportDir, 'json-server-child.ts'), [dbFile]);
    o.children.push(jsonServer);
    // The ceiling answers exactly the bytes of the emulator's post list page.
    const listBody = join(o.work, 'post-list.json');
    await writeFile(listBody, Buffer.from(await (await fetch(`${ready.apiUrl}/posts/?auth_token=${tokens.read}`)).arrayBuffer()));
    bareChild = await startChild<BareChildReady>(join(o.supportDir, 'bare-child.ts'), [listBody]);
    o.children.push(bareChild);
  }
  const options = { connections: o.connections, duration: o.duration };
  for (const c of cases) {
    o.step(`reads: ${c.figure}`);
    const mine = target(c.base === 'cdn' ? ready.cdnUrl : ready.apiUrl, c.paths);
    if (bareChild && CEILING_CASES.has(c.key)) {
      const mineRuns: LoadResult[] = [];
      const bareRuns: LoadResult[] = [];
      for (let round = 0; round < CEILING_ROUNDS; round += 1) {
        mineRuns.push(await load(mine.url, { ...options, paths: mine.paths }));
        bareRuns.push(await load(bareChild.ready.url, options));
      }
      result.emulator[c.key] = merged(mineRuns);
      result.bare_by_case[c.key] = merged(bareRuns);
      result.ceiling_rounds[c.key] = mineRuns.map((run, i) => ratio(run.requests_per_s, bareRuns[i]!.requests_per_s));
      if (c.key === 'post_list') result.bare = result.bare_by_case[c.key]!;
    } else {
      result.emulator[c.key] = await load(mine.url, { ...options, paths: mine.paths });
    }
    if (c.jsonServerPaths && jsonServer) {
      await fetch(jsonServer.ready.url + c.jsonServerPaths[0]).then((r) => r.arrayBuffer()); // warm
      const theirs = target(jsonServer.ready.url, c.jsonServerPaths);
      result.json_server[c.key] = await load(theirs.url, { ...options, paths: theirs.paths });
    }
    if (c.key === 'search') {
      o.step('reads: search, one request at a time');
      const other = target(ready.apiUrl, [...c.paths].reverse()); // other queries than the run above: none cached
      result.search_latency = await load(other.url, { paths: other.paths, connections: 1, duration: o.duration });
      o.step('reads: the first search after a write');
      result.search_after_write = await searchAfterWrite(ready.apiUrl, `${ready.url}/__emulator`, tokens, { samples: 5, maxMs: 30_000 });
    }
  }
  if (jsonServer) await stopChild(jsonServer.process);
  if (bareChild) await stopChild(bareChild.process);
  return result;
}

export function readRows(
  r: ReadPhase,
  cases: ReadCase[],
  targets: { ceiling_share: number; json_server_multiple: number; search_p99_ms: number },
): Row[] {
  const rows: Row[] = [];
  for (const c of cases) {
    const mine = r.emulator[c.key];
    if (!mine) continue;
    const theirs = r.json_server[c.key];
    const rounds = r.ceiling_rounds[c.key];
    const row: Row = {
      figure: `${c.figure}: req/s`,
      value: mine.requests_per_s,
      unit: `req/s (p50 ${mine.latency_p50_ms} ms, p99 ${mine.latency_p99_ms} ms${rounds ? `; × bare by round ${rounds.join(', ')}` : ''})`,
    };
    const bare = r.bare_by_case[c.key] ?? r.bare;
    if (bare && CEILING_CASES.has(c.key)) row.vs_bare = ratio(mine.requests_per_s, bare.requests_per_s);
    if (theirs) row.vs_json_server = ratio(mine.requests_per_s, theirs.requests_per_s);
    if (CEILING_CASES.has(c.key)) {
      row.target = `≥ ${targets.ceiling_share}× bare, ≥ ${targets.json_server_multiple}× json-server`;
      row.pass = (row.vs_bare ?? 0) >= targets.ceiling_share && (row.vs_json_server ?? 0) >= targets.json_server_multiple;
    }
    rows.push(row);
  }
  if (r.search_latency) {
    const s = r.search_latency;
    rows.push({
      figure: 'search, one at a time: p99',
      value: s.latency_p99_ms,
      unit: `ms (p50 ${s.latency_p50_ms}, max ${s.latency_max_ms}; ${s.requests} queries)`,
      target: `p99 < ${targets.search_p99_ms} ms`,
      pass: s.latency_p99_ms < targets.search_p99_ms && s.non_2xx === 0,
    });
  }
  if (r.search_after_write) {
    const s = r.search_after_write;
    rows.push({ figure: 'first search after a write', value: s.median_ms, unit: `ms median (max ${s.max_ms}, ${s.runs} writes)` });
  }
  if (r.bare) rows.push({ figure: 'bare node:http, post list bytes: req/s', value: r.bare.requests_per_s, unit: 'req/s' });
  for (const [key, j] of Object.entries(r.json_server)) {
    rows.push({
      figure: `json-server ${key}: req/s`,
      value: j.requests_per_s,
      unit: `req/s (p50 ${j.latency_p50_ms} ms, p99 ${j.latency_p99_ms} ms)`,
    });
  }
  return rows;
}

/**
 * How often each case comes round in the memory run's mix: mostly the JSON reads a test suite
 * makes, the heavy feed now and then (it is also the slowest, and the run must stay short).
 */
const MIX: Record<string, number> = {
  post_list: 2,
  post_by_slug: 2,
  search: 2,
  collection: 1,
  cdn_cached: 1,
  page_list_filter: 1,
  rss: 0.25,
};

/** The memory run's mix: the cases in turn, by MIX, with a different search query each time. */
export function mixedPaths(ready: ServeReady, cases: ReadCase[], rounds = 200): string[] {
  const absolute = (c: ReadCase, path: string) => {
    const url = new URL(urlOf(ready, c, path));
    return url.pathname + url.search;
  };
  const paths: string[] = [];
  let turn = 0;
  for (let round = 0; round < rounds; round++) {
    for (const c of cases) {
      const weight = MIX[c.key] ?? 1;
      const times = weight >= 1 ? weight : round % Math.round(1 / weight) === 0 ? 1 : 0;
      for (let i = 0; i < times; i++) paths.push(absolute(c, c.paths[turn++ % c.paths.length]!));
    }
  }
  return paths;
}
