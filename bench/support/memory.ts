/**
 * The emulator's resident size under a long mix of reads: sampled once a second over IPC while
 * autocannon sends `amount` requests cycling through the read cases. The logs are capped (request
 * log 5000 entries, deliveries 2000), so the size must level off rather than keep growing.
 */
import type { ChildProcess } from 'node:child_process';
import { cp, mkdtemp } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ask, startChild, stopChild, type Child } from './children.js';
import type { LargeFixture } from './dataset.js';
import { load, type LoadResult } from './load.js';
import { mixedPaths, readCases, warm } from './read-phase.js';
import type { MemoryReport, ServeReady } from './serve.js';
import { writeStorm } from './writes.js';

export interface MemorySample {
  /** Seconds since the run began. */
  t_s: number;
  rss_mib: number;
  heap_used_mib: number;
  external_mib: number;
}

export interface MemoryRun {
  load: LoadResult;
  samples: MemorySample[];
  /** After the last request. */
  final: MemorySample;
  max_rss_mib: number;
  /** Median resident size over the second half of the run: the level it settles at (the target). */
  plateau_rss_mib: number;
  /** Largest RSS in the second half of the run over the largest in the first half (1 = flat). */
  growth_second_half: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.floor(sorted.length / 2)]!;
}

const mib = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

export async function memoryOf(child: ChildProcess, since = performance.now()): Promise<MemorySample> {
  const m = await ask<MemoryReport>(child, { type: 'memory' }, 'memory-report');
  return {
    t_s: Math.round((performance.now() - since) / 100) / 10,
    rss_mib: mib(m.rss),
    heap_used_mib: mib(m.heapUsed),
    external_mib: mib(m.external),
  };
}

export async function memoryUnderLoad(
  child: ChildProcess,
  baseUrl: string,
  paths: string[],
  options: { amount: number; connections: number; maxSeconds: number },
): Promise<MemoryRun> {
  const started = performance.now();
  const samples: MemorySample[] = [await memoryOf(child, started)];
  const pending: Promise<void>[] = [];
  const result = await load(baseUrl, {
    connections: options.connections,
    duration: options.maxSeconds,
    amount: options.amount,
    paths,
    onTick: () => pending.push(memoryOf(child, started).then((s) => void samples.push(s))),
  });
  await Promise.all(pending);
  const final = await memoryOf(child, started);
  samples.push(final);
  const half = Math.floor(samples.length / 2);
  const maxOf = (list: MemorySample[]) => Math.max(...list.map((s) => s.rss_mib));
  return {
    load: result,
    samples,
    final,
    max_rss_mib: maxOf(samples),
    plateau_rss_mib: median(samples.slice(half).map((s) => s.rss_mib)),
    growth_second_half: Math.round((maxOf(samples.slice(half)) / maxOf(samples.slice(0, half))) * 100) / 100,
  };
}

/**
 * glibc's malloc setting that the README gives for Linux: allocations from 32 KiB up get pages of
 * their own, given back to the system when freed. By default those up to 128 KiB come from the
 * main heap (brk), which short-lived answers and long-lived blocks share and leave fragmented:
 * after the memory phase's reads ~20 MB resident since long answers go out as strings (30 before,
 * 105 when the request log kept the sent Buffers, 84 with its slabs from malloc); the plateau
 * 278–289 MiB by default, 259–268 with this (docs/performance.md, sessions 8 to 11). Read by glibc
 * when the process starts, so only the environment the process is started with can set it.
 */
export const GLIBC_MALLOC_TUNING = { MALLOC_MMAP_THRESHOLD_: '32768' } as const;

export interface MemoryPhase extends MemoryRun {
  /** Posts written before the reads (a bounded, paced storm), and the published posts then. */
  writes_before: number;
  published_posts: number;
}

/**
 * The memory phase: an emulator of its own on a fresh copy of the large store, a bounded storm
 * of writes (so the write worker, the journal and the request log's write entries exist, as in a
 * suite that writes), then `amount` mixed reads. Run on the process the write phase had used,
 * the store had grown to two or three times its posts (29,224 published in one run), by as much
 * as the write path was fast: the figure then moved with write throughput, not with memory use.
 */
export async function memoryPhase(
  fixture: LargeFixture,
  options: {
    serveScript: string;
    nodeFlags: string[];
    children: Child<{ type: 'ready' }>[];
    amount: number;
    connections: number;
    /** Posts written before the reads, paced at `writeRate` a second over `writeConnections`. */
    writes: number;
    writeConnections: number;
    writeRate: number;
    /** Added to the emulator's environment (GLIBC_MALLOC_TUNING); none: the process's defaults. */
    env?: Record<string, string>;
  },
): Promise<MemoryPhase> {
  const dataDir = await mkdtemp(join(dirname(fixture.dataDir), 'memory-data-'));
  await cp(fixture.fixtureDir, dataDir, { recursive: true });
  const emulator = await startChild<ServeReady>(options.serveScript, [dataDir, fixture.fixtureDir], {
    nodeFlags: options.nodeFlags,
    env: options.env,
  });
  options.children.push(emulator);
  const { ready } = emulator;
  const tokens = ready.tokens[fixture.org.slug]!;
  const cases = readCases(fixture, tokens.read);
  await warm(ready, cases);
  await writeStorm(ready.apiUrl, `${ready.url}/__emulator`, tokens.write, {
    connections: options.writeConnections,
    rate: options.writeRate,
    duration: options.writes / options.writeRate,
    kind: 'paced',
  });
  const run = await memoryUnderLoad(emulator.process, ready.url, mixedPaths(ready, cases), {
    amount: options.amount,
    connections: options.connections,
    maxSeconds: 180,
  });
  const list = await fetch(`${ready.apiUrl}/posts/?auth_token=${tokens.read}&page_size=1`);
  const published = ((await list.json()) as { meta: { count: number } }).meta.count;
  await stopChild(emulator.process);
  return { ...run, writes_before: options.writes, published_posts: published };
}
