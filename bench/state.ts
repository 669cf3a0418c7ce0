/**
 * State benchmark (issue 6): what a test suite pays to reset between tests. Measures, on the
 * demo fixture and in-process: reset to the fixture (cached parse), snapshot save, snapshot
 * restore, a full export, and a first start. Prints a table, writes bench/results/state.json.
 *
 *   npm run bench:state -- [--runs 200]
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { startEmulator } from '../server/index.js';
import { stats, timed, type Stats } from './support/stats.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const runsArg = process.argv.indexOf('--runs');
const runs = runsArg === -1 ? 200 : Number(process.argv[runsArg + 1]);
if (!Number.isInteger(runs) || runs <= 0) throw new Error('--runs takes a positive whole number');

const startMs = performance.now();
const cms = await startEmulator();
const started = performance.now() - startMs;

const rows: ({ operation: string } & Stats)[] = [];
const measure = async (operation: string, fn: () => Promise<unknown> | unknown) => {
  const samples: number[] = [];
  for (let i = 0; i < runs; i += 1) samples.push(await timed(fn));
  rows.push({ operation, ...stats(samples) });
};

await cms.reset(); // the first reset parses the fixture; later ones use the cached parse
await measure('POST /__emulator/reset (HTTP)', async () => {
  const res = await fetch(`${cms.controlUrl}/reset`, { method: 'POST' });
  await res.arrayBuffer();
});
await measure('reset() (in-process)', () => cms.reset());
cms.snapshot('bench');
await measure('snapshot save', () => cms.snapshot('bench'));
await measure('snapshot restore', () => cms.restore('bench'));
await measure('GET /__emulator/state (export)', async () => {
  const res = await fetch(`${cms.controlUrl}/state`);
  await res.arrayBuffer();
});
await cms.close();

console.log(`\nState benchmark: demo fixture, ${runs} runs each, Node ${process.version}; first start ${started.toFixed(1)} ms`);
console.log('operation'.padEnd(36), 'median ms'.padStart(10), 'p95 ms'.padStart(8), 'max ms'.padStart(8));
for (const r of rows)
  console.log(
    r.operation.padEnd(36),
    r.median_ms.toFixed(1).padStart(10),
    r.p95_ms.toFixed(1).padStart(8),
    r.max_ms.toFixed(1).padStart(8),
  );
const reset = rows.find((r) => r.operation.startsWith('POST'))!;
console.log(
  `\nreset over HTTP: median ${reset.median_ms.toFixed(1)} ms (target: milliseconds, < 50 ms: ${reset.median_ms < 50 ? 'ok' : 'MISSED'})`,
);
await mkdir(join(root, 'bench/results'), { recursive: true });
await writeFile(join(root, 'bench/results/state.json'), JSON.stringify({ runs, started_ms: started, rows }, null, 2));
console.log('wrote bench/results/state.json');
