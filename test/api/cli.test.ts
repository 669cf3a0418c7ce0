/**
 * The `cms-emulator` command as a user runs it: a child process that prints its URLs and
 * tokens, serves the API, and on SIGTERM finishes accepted writes and leaves them on disk.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const root = new URL('../..', import.meta.url).pathname;
const dirs: string[] = [];
/** Each CLI process a test started, and when it exited. */
const started: { child: ChildProcessWithoutNullStreams; exited: Promise<number | null> }[] = [];
/**
 * A CLI process runs tsx and seeds a data folder: on a busy machine its start takes seconds. The
 * wait for its first lines, and each test that starts one, allow for that.
 */
const START_WAIT_MS = 30_000;
const CLI_TEST_TIMEOUT_MS = 60_000;

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cms-emulator-cli-'));
  dirs.push(dir);
  return dir;
}

afterEach(async () => {
  // A test that failed early leaves its process running, and still writing into its data folder:
  // stop it before the folder goes, or the removal races the writes (ENOTEMPTY).
  await Promise.all(
    started.splice(0).map(async ({ child, exited }) => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    }),
  );
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

function runCli(args: string[]): { child: ChildProcessWithoutNullStreams; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/cli.ts', ...args], { cwd: root });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  started.push({ child, exited });
  return { child, output: () => output, exited };
}

async function waitFor(pattern: RegExp, output: () => string, exited: Promise<unknown>): Promise<RegExpMatchArray> {
  let done = false;
  void exited.then(() => (done = true));
  for (const deadline = Date.now() + START_WAIT_MS; Date.now() < deadline;) {
    const match = pattern.exec(output());
    if (match) return match;
    if (done) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`expected ${String(pattern)} in the output:\n${output()}`);
}

describe('cms-emulator CLI', { timeout: CLI_TEST_TIMEOUT_MS }, () => {
  // --fsync-before-202: the 202 also waits for the journal's flush to the disk (journalSync).
  it.each([[[]], [['--fsync-before-202']]])(
    '%j: prints the base URL and tokens, serves the API, and saves accepted writes on SIGTERM',
    async (flags: string[]) => {
      const data = await tempDir();
      const cli = runCli(['--port', '0', '--data', data, ...flags]);
      const [, apiUrl] = await waitFor(/API base URL\s+(http:\/\/127\.0\.0\.1:\d+\/v2)/, cli.output, cli.exited);
      expect(cli.output()).toMatch(/write token\s+\S+/);
      const read = /read token\s+(\S+)/.exec(cli.output())![1]!;
      const write = /write token\s+(\S+)/.exec(cli.output())![1]!;

      const list = await fetch(`${apiUrl}/posts/?auth_token=${read}`);
      expect(list.status).toBe(200);

      const created = await fetch(`${apiUrl}/posts/`, {
        method: 'POST',
        headers: { authorization: `Token ${write}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'Written right before shutdown', status: 'published' }),
      });
      expect(created.status).toBe(202);
      cli.child.kill('SIGTERM');
      expect(await cli.exited).toBe(0);

      const saved = JSON.parse(await readFile(join(data, 'data.json'), 'utf8')) as { organizations: { posts: { slug: string }[] }[] };
      expect(saved.organizations.flatMap((o) => o.posts.map((p) => p.slug))).toContain('written-right-before-shutdown');
    },
  );

  it('refuses to start on a data file that fails the schema, naming the bad value', async () => {
    const data = await tempDir();
    await mkdir(data, { recursive: true });
    await writeFile(join(data, 'data.json'), JSON.stringify({ format_version: 1, organizations: [{ slug: 'x' }] }));
    const cli = runCli(['--port', '0', '--data', data]);
    expect(await cli.exited).toBe(1);
    expect(cli.output()).toContain('organizations[0].name');
  });

  it('refuses a bad --port with a clear message', async () => {
    const cli = runCli(['--port', 'eighty']);
    expect(await cli.exited).toBe(1);
    expect(cli.output()).toContain('--port takes a whole number');
  });

  it('refuses an unknown fixture', async () => {
    const data = await tempDir();
    const cli = runCli(['--port', '0', '--data', join(data, 'new'), '--fixture', './no-such-fixture']);
    expect(await cli.exited).toBe(1);
    expect(cli.output()).toContain('has no data.json');
  });
});
