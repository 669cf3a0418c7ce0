/**
 * Summarizes a V8 CPU profile (node --cpu-prof; `npm run bench -- --profile`): the functions
 * with the most self time, and self time by file, so a missed target points at its cause.
 *
 *   npx tsx bench/profile-summary.ts <file.cpuprofile> [--top 25] [--stalls 50] [--after s] [--before s]
 *
 * --stalls <ms> also lists each stretch of at least that long in which the process never went
 * idle (the event loop could answer nothing), with the functions that filled it.
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: 'string', default: '25' }, stalls: { type: 'string' }, after: { type: 'string' }, before: { type: 'string' } },
});
const file = positionals[0];
if (!file) {
  console.error('usage: tsx bench/profile-summary.ts <file.cpuprofile> [--top 25]');
  process.exit(2);
}
const top = Number(values.top);
const profile = JSON.parse(await readFile(file, 'utf8')) as CpuProfile;

// Self time of a node: the time deltas of the samples that landed in it.
const selfUs = new Map<number, number>();
profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);

const shortUrl = (url: string) =>
  url
    .replace(/^file:\/\//, '')
    .replace(/^.*\/node_modules\//, 'node_modules/')
    .replace(/^.*\/work\/main\//, '');
const byFunction = new Map<string, number>();
const byFile = new Map<string, number>();
for (const node of profile.nodes) {
  const us = selfUs.get(node.id) ?? 0;
  if (us === 0) continue;
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url ? `${shortUrl(url)}:${lineNumber + 1}` : '';
  const key = `${functionName || '(anonymous)'}  ${where}`.trim();
  byFunction.set(key, (byFunction.get(key) ?? 0) + us);
  const fileKey = url ? shortUrl(url).replace(/^(node_modules\/(@[^/]+\/)?[^/]+)\/.*$/, '$1') : functionName;
  byFile.set(fileKey, (byFile.get(fileKey) ?? 0) + us);
}

const print = (title: string, map: Map<string, number>) => {
  console.log(`\n${title}`);
  for (const [key, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${((us / total) * 100).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(7)} ms  ${key}`);
  }
};
console.log(`${file}: ${(total / 1e6).toFixed(1)} s sampled`);
print('self time by function', byFunction);
print('self time by file or package', byFile);

// ---- stalls: runs of samples with no (idle) sample among them
if (values.stalls !== undefined) {
  const minUs = Number(values.stalls) * 1000;
  const nodeById = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const isIdle = (id: number) => ['(idle)', '(program)'].includes(nodeById.get(id)?.callFrame.functionName ?? '');
  /** The innermost frame of ours (server/ or bench/) on the sample's stack, to name the work. */
  const ours = (id: number): string => {
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const f = nodeById.get(at)!.callFrame;
      if (/\/(server|bench)\//.test(f.url)) return `${f.functionName || '(anonymous)'}  ${shortUrl(f.url)}:${f.lineNumber + 1}`;
    }
    return nodeById.get(id)?.callFrame.functionName || '(native)';
  };
  let start = 0;
  let us = 0;
  let time = profile.startTime;
  const stalls: { at: number; us: number; work: Map<string, number> }[] = [];
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    time += delta;
    if (isIdle(id)) {
      if (us >= minUs) {
        const work = new Map<string, number>();
        for (let j = start; j < i; j++) {
          const key = ours(profile.samples[j]!);
          work.set(key, (work.get(key) ?? 0) + (profile.timeDeltas[j] ?? 0));
        }
        stalls.push({ at: (time - profile.startTime) / 1e6, us, work });
      }
      us = 0;
      start = i + 1;
    } else us += delta;
  });
  // --after/--before (seconds since the profile began): only the stretches of that window, in time order.
  const windowed = values.after !== undefined || values.before !== undefined;
  const inWindow = stalls.filter((s) => s.at >= Number(values.after ?? 0) && s.at <= Number(values.before ?? Infinity));
  console.log(`\nstretches of at least ${values.stalls} ms without idling: ${inWindow.length}`);
  for (const s of windowed ? inWindow.slice(0, top) : inWindow.sort((a, b) => b.us - a.us).slice(0, top)) {
    const work = [...s.work].sort((a, b) => b[1] - a[1]).slice(0, 4);
    console.log(
      `${(s.us / 1000).toFixed(0).padStart(6)} ms at ${s.at.toFixed(1)} s: ${work.map(([k, v]) => `${k} ${(v / 1000).toFixed(0)} ms`).join('; ')}`,
    );
  }
}
