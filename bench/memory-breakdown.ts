/**
 * Where the emulator's resident memory goes on the large store (issue 10's memory target), in
 * steps that follow `npm run bench`'s order: load, a burst of post writes (so the store's write
 * worker and its shadow copy exist), then mixed reads. After each step it reports the process's
 * resident size, the V8 heap before and after forced collections (the child runs with
 * --expose-gc), the write worker's own heap, glibc's malloc arenas, and at the end what stopping
 * the write worker gives back. Not timed: figures are sizes, so a busy machine does not skew them.
 *
 *   npx tsx bench/memory-breakdown.ts [--writes 6000] [--reads 30000] [--connections 10] [--node-flags "…"] [--bench-order] [--spaces]
 *
 * --bench-order collects only after the reads: a forced collection early on makes V8 size its heap
 * to the smaller live set, so the steps before it no longer match what `npm run bench` measures.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ask, startChild, stopChild, type Child } from './support/children.js';
import { prepareLargeFixture } from './support/dataset.js';
import { load } from './support/load.js';
import { memoryOf } from './support/memory.js';
import { mixedPaths, readCases, warm } from './support/read-phase.js';
import type { DiagnoseReport, DiagnoseRequest, ServeReady } from './support/serve.js';
import { writeStorm } from './support/writes.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const { values: args } = parseArgs({
  options: {
    writes: { type: 'string', default: '6000' },
    reads: { type: 'string', default: '30000' },
    connections: { type: 'string', default: '10' },
    // Extra node flags for the emulator's process, e.g. "--max-semi-space-size=2".
    'node-flags': { type: 'string', default: '' },
    'bench-order': { type: 'boolean', default: false },
    // Also print each V8 heap space's used and committed size at every step.
    spaces: { type: 'boolean', default: false },
  },
});

const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1).padStart(6);
const rows: string[] = [];

async function diagnose(child: Child<ServeReady>, label: string, request: Omit<DiagnoseRequest, 'type'> = {}): Promise<DiagnoseReport> {
  const r = await ask<DiagnoseReport>(child.process, { type: 'diagnose', ...request }, 'diagnose-report');
  const young = r.spaces.new_space?.[1] ?? 0;
  if (args.spaces) {
    const spaces = Object.entries(r.spaces).map(
      ([name, [used, size]]) => `${name.replace(/_space$/, '')} ${mib(used).trim()}/${mib(size).trim()}`,
    );
    process.stderr.write(`… ${label}: ${spaces.join(', ')}\n`);
  }
  rows.push(
    [
      label.padEnd(36),
      mib(r.usage.rss),
      mib(r.rssAnon),
      mib(r.rssFile),
      mib(r.usage.heapUsed),
      mib(r.usage.heapTotal),
      mib(young),
      mib(r.usage.external),
      r.worker ? mib(r.worker.used) : '     -',
      r.worker ? mib(r.worker.total) : '     -',
      mib(r.brkHeap),
      mib(r.threadArenas),
      String(r.threads).padStart(4),
    ].join(' '),
  );
  return r;
}

/** The child's largest mappings by resident size (/proc/<pid>/smaps), to tell heaps, arenas and files apart. */
function largestMappings(pid: number): void {
  const mappings = readFileSync(`/proc/${pid}/smaps`, 'utf8').split(/\n(?=[0-9a-f]+-[0-9a-f]+ )/);
  const sized = mappings.map((text) => {
    const [range = '', perms = '', , , , name = ''] = text.split('\n')[0]!.split(/\s+/);
    const [start = 0, end = 0] = range.split('-').map((hex) => parseInt(hex, 16));
    return { name: `${perms} ${name || '(anonymous)'}`, size: end - start, rss: Number(/^Rss:\s+(\d+)/m.exec(text)?.[1] ?? 0) * 1024 };
  });
  sized.sort((a, b) => b.rss - a.rss);
  console.log('largest mappings of the emulator process (resident MiB, size MiB):');
  for (const m of sized.slice(0, 14)) console.log(`${mib(m.rss)} ${mib(m.size)}  ${m.name}`);
  const small = sized.filter((m) => m.name.endsWith('(anonymous)') && m.size <= 1024 * 1024);
  console.log(
    `${mib(small.reduce((sum, m) => sum + m.rss, 0))} in ${small.length} anonymous mappings of 1 MiB or less (V8 pages: 256 KiB)`,
  );
}

const work = await mkdtemp(join(tmpdir(), 'cms-emulator-memory-'));
let child: Child<ServeReady> | null = null;
try {
  const fixture = await prepareLargeFixture(work);
  child = await startChild<ServeReady>(join(here, 'support', 'serve.ts'), [fixture.dataDir, fixture.fixtureDir], {
    nodeFlags: ['--expose-gc', ...String(args['node-flags']).split(' ').filter(Boolean)],
  });
  const org = fixture.org.slug;
  const tokens = child.ready.tokens[org]!;
  const early = !args['bench-order'];
  await diagnose(child, 'after load');
  if (early) await diagnose(child, 'after load, collected', { gc: true });

  const cases = readCases(fixture, tokens.read);
  await warm(child.ready, cases);
  await diagnose(child, 'each read once (indexes built)', { gc: early });

  const writes = Number(args.writes);
  if (writes > 0) {
    // A bounded number of posts, paced, as the bench's memory phase writes before its reads (2,000 there).
    const storm = await writeStorm(child.ready.apiUrl, `${child.ready.url}/__emulator`, child.ready.tokens[org]!.write, {
      connections: 50,
      duration: Math.ceil(writes / 250) + 5,
      rate: 250,
    });
    process.stderr.write(`… ${storm.requests} writes, drained in ${storm.drain_ms} ms\n`);
    await diagnose(child, `after ${storm.requests} writes`);
    if (early) await diagnose(child, `after ${storm.requests} writes, collected`, { gc: true });
  }

  let maxRss = 0;
  const reads = Number(args.reads);
  const paths = mixedPaths(child.ready, cases);
  const samplers: Promise<void>[] = [];
  const result = await load(child.ready.url, {
    connections: Number(args.connections),
    duration: 600,
    amount: reads,
    paths,
    onTick: () => samplers.push(memoryOf(child!.process).then((s) => void (maxRss = Math.max(maxRss, s.rss_mib)))),
  });
  await Promise.all(samplers);
  process.stderr.write(`… ${result.requests} mixed reads, max RSS sampled ${maxRss} MiB\n`);
  await diagnose(child, `after ${result.requests} mixed reads`);
  await diagnose(child, `after the reads, collected`, { gc: true });
  await diagnose(child, 'write worker stopped, collected', { gc: true, stopWorker: true });
  largestMappings(child.process.pid!);

  console.log(
    [
      'step'.padEnd(36),
      '   rss',
      '  anon',
      '  file',
      '  heap',
      ' heapT',
      ' young',
      '   ext',
      ' wHeap',
      'wHeapT',
      '   brk',
      'arenas',
      ' thr',
    ].join(' '),
  );
  for (const row of rows) console.log(row);
  console.log('MiB. heap/heapT: main isolate used/committed (young: its new space); wHeap: the write worker');
  console.log(`isolate; brk/arenas: glibc malloc (resident). Max RSS sampled during the reads: ${maxRss} MiB.`);
} finally {
  if (child) await stopChild(child.process);
  await rm(work, { recursive: true, force: true });
}
