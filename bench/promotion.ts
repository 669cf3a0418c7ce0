/**
 * What each kind of read leaves to V8's old generation: bytes allocated, bytes that survived a
 * young-generation collection (scavenge) and bytes promoted to the old generation, per request,
 * read from the emulator's own `--trace-gc-nvp` lines. Promoted bytes are what fills the old
 * generation between full collections, and the rate at which they come is what V8 sizes its heap
 * by (docs/performance.md, session 6). Not timed: figures are bytes per request.
 *
 *   npx tsx bench/promotion.ts [--cases post_list,search,…|mix] [--requests 10000] [--node-flags "…"]
 *
 * The emulator runs on the large store in a child process, compiled, as in `npm run bench`.
 */
import { fork } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { compiledChild } from './support/compiled.js';
import { prepareLargeFixture } from './support/dataset.js';
import { load } from './support/load.js';
import { mixedPaths, readCases, urlOf, warm } from './support/read-phase.js';
import type { ServeReady } from './support/serve.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const { values: args } = parseArgs({
  options: {
    cases: { type: 'string', default: 'post_list,post_by_slug,search,page_list_filter,collection,rss,cdn_cached,mix' },
    requests: { type: 'string', default: '10000' },
    'node-flags': { type: 'string', default: '' },
  },
});

interface GcTotals {
  scavenges: number;
  fullCollections: number;
  allocated: number;
  survived: number;
  promoted: number;
  pauseMs: number;
}

const field = (line: string, name: string): number => Number(new RegExp(` ${name}=([\\d.]+)`).exec(line)?.[1] ?? 0);

/** Sums the `--trace-gc-nvp` lines printed since the last call. */
function totals(lines: string[]): GcTotals {
  const sum: GcTotals = { scavenges: 0, fullCollections: 0, allocated: 0, survived: 0, promoted: 0, pauseMs: 0 };
  for (const line of lines.splice(0)) {
    if (/ gc=s /.test(line)) {
      sum.scavenges += 1;
      sum.allocated += field(line, 'allocated');
      sum.survived += field(line, 'new_space_survived');
      sum.promoted += field(line, 'promoted');
    } else if (/ gc=m/.test(line)) sum.fullCollections += 1;
    sum.pauseMs += field(line, 'pause');
  }
  return sum;
}

const work = await mkdtemp(join(tmpdir(), 'cms-emulator-promotion-'));
const fixture = await prepareLargeFixture(work);
const compiled = await compiledChild(join(here, 'support', 'serve.ts'));
const child = fork(compiled, [fixture.dataDir, fixture.fixtureDir], {
  stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  execArgv: ['--trace-gc-nvp', ...String(args['node-flags']).split(' ').filter(Boolean)],
});
try {
  const lines: string[] = [];
  let partial = '';
  child.stdout!.on('data', (data: Buffer) => {
    const text = partial + data.toString();
    const cut = text.lastIndexOf('\n');
    lines.push(
      ...text
        .slice(0, cut + 1)
        .split('\n')
        .filter(Boolean),
    );
    partial = text.slice(cut + 1);
  });
  const ready = await new Promise<ServeReady>((resolve) => child.on('message', (m: ServeReady) => m.type === 'ready' && resolve(m)));
  const cases = readCases(fixture, ready.tokens[fixture.org.slug]!.read);
  await warm(ready, cases);
  const per = (bytes: number, requests: number) => String(Math.round(bytes / requests)).padStart(9);
  console.log('case                requests    req/s  allocated/req  survived/req  promoted/req  scavenges  full  GC pause ms');
  for (const key of String(args.cases).split(',')) {
    const chosen = key === 'mix' ? cases : cases.filter((c) => c.key === key);
    if (chosen.length === 0) throw new Error(`no read case ${key}`);
    const paths =
      key === 'mix'
        ? mixedPaths(ready, chosen)
        : chosen[0]!.paths.map((path) => {
            const url = new URL(urlOf(ready, chosen[0]!, path));
            return url.pathname + url.search;
          });
    // A first round so that caches and code are warm, then the measured one.
    await load(ready.url, { connections: 10, duration: 60, amount: 2000, paths });
    await new Promise((resolve) => setTimeout(resolve, 300));
    totals(lines);
    const run = await load(ready.url, { connections: 10, duration: 120, amount: Number(args.requests), paths });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const gc = totals(lines);
    console.log(
      [
        key.padEnd(18),
        String(run.requests).padStart(9),
        String(Math.round(run.requests_per_s)).padStart(8),
        per(gc.allocated, run.requests).padStart(14),
        per(gc.survived, run.requests).padStart(13),
        per(gc.promoted, run.requests).padStart(13),
        String(gc.scavenges).padStart(10),
        String(gc.fullCollections).padStart(5),
        gc.pauseMs.toFixed(0).padStart(12),
      ].join(' '),
    );
  }
} finally {
  child.send('stop');
  await new Promise((resolve) => child.once('exit', resolve));
  await rm(work, { recursive: true, force: true });
}
