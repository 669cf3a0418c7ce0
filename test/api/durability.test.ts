/**
 * Durability (issue 7): `kill -9` in the middle of a write storm. The CLI runs as a child process;
 * 30 writers POST /v2/posts/ with unique titles and slugs until the child is killed with SIGKILL at
 * a random moment 20–400 ms into the storm; then it is started again on the same data folder.
 * Checked after every kill:
 *   - the data file parses (JSON.parse) and passes the data-file checks (parseStoreText): writes are
 *     atomic, so a crash leaves the old file or the new one, never a mix;
 *   - every post whose POST was answered 202 before the kill is there once the restarted emulator is
 *     idle (an accepted write is a promise: this needs the write-ahead journal of accepted jobs);
 *   - no accepted post is there twice (replaying the journal must not apply a write again);
 *   - nothing found on disk after an earlier crash went missing in a later one.
 * Each restarted emulator is the target of the next cycle's storm.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseStoreText } from '../../server/store/load.js';

const root = new URL('../..', import.meta.url).pathname;
const CYCLES = 8;
const WRITERS = 30;
const KILL_MIN_MS = 20;
const KILL_MAX_MS = 400;
const ORG = 'acme';

interface Cli {
  child: ChildProcessWithoutNullStreams;
  url: string;
  apiUrl: string;
  writeToken: string;
  exited: Promise<void>;
  output: () => string;
}

const children: ChildProcessWithoutNullStreams[] = [];
const dirs: string[] = [];

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

/** Starts `cms-emulator --port 0 --data <dir>` and resolves once it prints its API base URL. */
async function startCli(dataDir: string): Promise<Cli> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/cli.ts', '--port', '0', '--data', dataDir], { cwd: root });
  children.push(child);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = await new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the CLI did not start within 15 s:\n${output}`)), 15_000);
    const check = () => {
      const match = /API base URL\s+(http:\/\/127\.0\.0\.1:\d+)(\/v2)/.exec(output);
      if (match && /write token\s+\S+/.test(output)) {
        clearTimeout(timer);
        child.stdout.off('data', check);
        resolve(match);
      }
    };
    child.stdout.on('data', check);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`the CLI exited before it was ready:\n${output}`));
    });
  });
  // The first organization listed is acme (the demo fixture's first).
  const writeToken = /write token\s+(\S+)/.exec(output)![1]!;
  return { child, url: ready[1]!, apiUrl: ready[1]! + ready[2]!, writeToken, exited, output: () => output };
}

interface Storm {
  /** Titles of the posts whose POST was answered 202 before the kill. */
  accepted: string[];
  /** Responses other than 202, and request errors, before the kill. */
  unexpected: string[];
}

/** Runs the write storm and kills the child with SIGKILL `killAfterMs` into it. */
async function stormThenKill(cli: Cli, cycle: number, killAfterMs: number): Promise<Storm> {
  const accepted: string[] = [];
  const unexpected: string[] = [];
  const abort = new AbortController();
  let killed = false;
  const writer = async (w: number) => {
    for (let n = 0; !killed; n += 1) {
      const slug = `durability-c${cycle}-w${w}-n${n}`;
      const title = `Durability ${slug}`;
      try {
        const res = await fetch(`${cli.apiUrl}/posts/`, {
          method: 'POST',
          headers: { authorization: `Token ${cli.writeToken}`, 'content-type': 'application/json' },
          body: JSON.stringify({ title, slug, status: 'published', body: `<p>Written by writer ${w} in cycle ${cycle}.</p>` }),
          signal: abort.signal,
        });
        // Counted only when the answer arrived before the kill.
        if (!killed) {
          if (res.status === 202) accepted.push(title);
          else unexpected.push(`${res.status} for ${slug}`);
        }
        await res.arrayBuffer();
      } catch (err) {
        if (!killed) unexpected.push(`${slug}: ${String(err)}`);
      }
    }
  };
  const writers = Array.from({ length: WRITERS }, (_, w) => writer(w));
  await new Promise((resolve) => setTimeout(resolve, killAfterMs));
  killed = true;
  cli.child.kill('SIGKILL');
  abort.abort();
  await Promise.all(writers);
  await cli.exited;
  return { accepted, unexpected };
}

/** Titles of the organization's posts in the data file, with how often each occurs. */
function titleCounts(text: string, file: string): Map<string, number> {
  const data = parseStoreText(text, file);
  const counts = new Map<string, number>();
  for (const post of data.organizations.find((o) => o.slug === ORG)!.posts) counts.set(post.title, (counts.get(post.title) ?? 0) + 1);
  return counts;
}

interface Cycle {
  cycle: number;
  kill_ms: number;
  accepted: number;
  duration_ms: number;
}

describe('durability: kill -9 during a write storm', () => {
  it(`keeps the data file valid and every accepted write, over ${CYCLES} crashes`, { timeout: 60_000 }, async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'cms-emulator-durability-'));
    dirs.push(dataDir);
    const file = join(dataDir, 'data.json');

    const cycles: Cycle[] = [];
    const unreadable: { cycle: number; kill_ms: number; error: string }[] = [];
    const lost: { cycle: number; kill_ms: number; accepted: number; missing: number; examples: string[] }[] = [];
    const duplicated: { cycle: number; titles: string[] }[] = [];
    const lostLater: { cycle: number; missing: number; examples: string[] }[] = [];
    const unexpected: string[] = [];
    /** Titles seen on disk after an earlier crash and restart. */
    const confirmed = new Set<string>();

    let cli = await startCli(dataDir);
    for (let cycle = 1; cycle <= CYCLES; cycle += 1) {
      const started = performance.now();
      const killMs = KILL_MIN_MS + Math.floor(Math.random() * (KILL_MAX_MS - KILL_MIN_MS + 1));
      const storm = await stormThenKill(cli, cycle, killMs);
      unexpected.push(...storm.unexpected.slice(0, 3).map((u) => `cycle ${cycle}: ${u}`));

      // What a crash leaves behind must be a whole, valid data file.
      const afterKill = await readFile(file, 'utf8');
      try {
        JSON.parse(afterKill);
        parseStoreText(afterKill, file);
      } catch (err) {
        unreadable.push({ cycle, kill_ms: killMs, error: String(err).slice(0, 500) });
      }

      // Restart on the same folder; once idle, every accepted write must be on disk, once.
      cli = await startCli(dataDir);
      const idle = await fetch(`${cli.url}/__emulator/jobs/idle?timeout_ms=10000`);
      expect(idle.status, `GET /__emulator/jobs/idle after restart (cycle ${cycle})`).toBe(200);
      const counts = titleCounts(await readFile(file, 'utf8'), file);
      const missing = storm.accepted.filter((t) => !counts.has(t));
      if (missing.length > 0)
        lost.push({ cycle, kill_ms: killMs, accepted: storm.accepted.length, missing: missing.length, examples: missing.slice(0, 3) });
      const twice = storm.accepted.filter((t) => (counts.get(t) ?? 0) > 1);
      if (twice.length > 0) duplicated.push({ cycle, titles: twice.slice(0, 5) });
      const gone = [...confirmed].filter((t) => !counts.has(t));
      if (gone.length > 0) lostLater.push({ cycle, missing: gone.length, examples: gone.slice(0, 3) });
      for (const title of counts.keys()) if (title.startsWith('Durability ')) confirmed.add(title);

      cycles.push({ cycle, kill_ms: killMs, accepted: storm.accepted.length, duration_ms: Math.round(performance.now() - started) });
    }
    cli.child.kill('SIGKILL');
    await cli.exited;

    const summary = cycles
      .map((c) => `cycle ${c.cycle}: killed at ${c.kill_ms} ms, ${c.accepted} accepted, ${c.duration_ms} ms`)
      .join('\n');
    expect(
      cycles.reduce((sum, c) => sum + c.accepted, 0),
      `the storms got writes accepted at all\n${summary}`,
    ).toBeGreaterThan(0);
    expect.soft(unexpected, 'before the kill, every POST is answered 202').toEqual([]);
    expect.soft(unreadable, `the data file after kill -9 parses and passes parseStoreText\n${summary}`).toEqual([]);
    expect.soft(lost, `every post answered 202 before kill -9 is in the data file after restart + idle\n${summary}`).toEqual([]);
    expect.soft(duplicated, 'no accepted post is applied twice after a restart').toEqual([]);
    expect.soft(lostLater, 'posts on disk after one crash survive the later ones').toEqual([]);
  });
});
