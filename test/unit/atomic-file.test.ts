/**
 * The data file's writer (server/store/atomic-file.ts): a large store is serialized in a worker,
 * a small one on the main thread, and both write the very same bytes; the state written is the
 * one of the moment the write began; our own writes are recognized by the hash of their bytes;
 * what a crash left behind is cleaned up.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AtomicJsonFile, bytesHash } from '../../server/store/atomic-file.js';
import { removeStaleTemporaries } from '../../server/store/stale-temporaries.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function target(workerMinBytes: number): Promise<{ dir: string; file: string; writer: AtomicJsonFile<unknown> }> {
  const dir = await mkdtemp(join(tmpdir(), 'cms-emulator-atomic-'));
  dirs.push(dir);
  const file = join(dir, 'data.json');
  return { dir, file, writer: new AtomicJsonFile<unknown>(file, { workerMinBytes }) };
}

const sample = () => ({
  format_version: 1,
  organizations: [{ slug: 'a', name: 'Café 山の日 🏔', body: 'line\nbreak "quoted" \\ back', lone: '\ud800', n: [1, 2.5, -0, null] }],
  nested: { deep: { deeper: [{ a: true }, {}] } },
});

describe.each([
  ['in a worker', 0],
  ['on the main thread', Number.POSITIVE_INFINITY],
])('a write %s', (_, workerMinBytes) => {
  it('writes the data pretty-printed, exactly as JSON.stringify, and knows the bytes as its own', async () => {
    const { dir, file, writer } = await target(workerMinBytes);
    const data = sample();
    await writer.write(data);
    const bytes = await readFile(file);
    expect(bytes.toString('utf8')).toBe(JSON.stringify(data, null, 2) + '\n');
    expect(writer.isOurs(await bytesHash(bytes))).toBe(true);
    expect(writer.isOurs(await bytesHash(Buffer.from('{}\n')))).toBe(false);
    expect(writer.size).toBe(bytes.length);
    expect(await readdir(dir)).toEqual(['data.json']);
  });

  it('writes the state of the moment it began, whatever changes meanwhile', async () => {
    const { file, writer } = await target(workerMinBytes);
    const data = sample();
    const writing = writer.write(data);
    data.organizations[0]!.name = 'changed at once';
    await writing;
    expect(JSON.parse(await readFile(file, 'utf8')).organizations[0].name).toBe('Café 山の日 🏔');
  });

  it('writes what structured clone refuses as JSON would (a function is left out)', async () => {
    const { file, writer } = await target(workerMinBytes);
    const data = { ...sample(), helper: () => 1 };
    await writer.write(data);
    expect(await readFile(file, 'utf8')).toBe(JSON.stringify(data, null, 2) + '\n');
  });

  it('fails a write it cannot do, leaves nothing behind, and writes again afterwards', async () => {
    const { dir, file, writer } = await target(workerMinBytes);
    const gone = new AtomicJsonFile<unknown>(join(dir, 'missing', 'data.json'), { workerMinBytes });
    await expect(gone.write(sample())).rejects.toThrow();
    await writer.write({ ok: true });
    expect(await readFile(file, 'utf8')).toBe('{\n  "ok": true\n}\n');
    expect(await readdir(dir)).toEqual(['data.json']);
  });
});

describe('the choice of thread', () => {
  it('follows the size of the last write', async () => {
    const { writer } = await target(100);
    await writer.write({ small: 1 });
    expect(writer.size).toBeLessThan(100);
    await writer.write({ large: 'x'.repeat(200) });
    expect(writer.size).toBeGreaterThan(200);
  });
});

describe('temporary files of writes that never finished', () => {
  it('are removed when their process is gone, and kept while it runs', async () => {
    const { dir, file } = await target(0);
    await writeFile(file, '{}\n');
    const gone = `.data.json.${2 ** 22 + 12345}.tmp`; // above Linux's default pid_max: no such process
    const running = `.data.json.${process.ppid}.tmp`;
    await writeFile(join(dir, gone), 'half a write');
    await writeFile(join(dir, running), 'a write under way');
    await writeFile(join(dir, '.other.json.1.tmp'), 'not ours');
    expect(await removeStaleTemporaries(file)).toEqual([gone]);
    expect((await readdir(dir)).sort()).toEqual([running, '.other.json.1.tmp', 'data.json'].sort());
  });
});
