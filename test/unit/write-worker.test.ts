import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveFixture } from '../../server/store/seed.js';
import { serializeJson, stopWriteWorker, WORKER_NICE, writeInWorker, writeWorkerHeap } from '../../server/store/write-worker.js';
import { prng } from '../../bench/generate-store.js';

/** What the file held before the serializer streamed it (atomic-file.ts serialize()). */
const expected = (value: unknown): string => JSON.stringify(value, null, 2) + '\n';

function streamed(value: unknown, chunkChars: number): { text: string; pieces: string[] } {
  const pieces: string[] = [];
  serializeJson(value, (piece) => pieces.push(piece), chunkChars);
  return { text: pieces.join(''), pieces };
}

const STRINGS = [
  '',
  'plain',
  'line\nbreak',
  'tab\tquote"back\\slash',
  'é ü ß',
  '日本語',
  '😀 emoji',
  '\u2028\u2029',
  '\ud800 lone',
  '\u0000\u001f',
];
const KEYS = ['id', 'slug', 'title', '0', '12', 'with space', 'ünïcode', '"quoted"', '__proto__x', 'fields'];

/** Random JSON-ish values, with long arrays deep down (walked item by item) and values JSON leaves out. */
function randomValue(next: () => number, depth: number): unknown {
  const roll = next();
  if (depth > 6 || roll < 0.3) {
    const pick = Math.floor(next() * 12);
    if (pick === 0) return null;
    if (pick === 1) return next() < 0.5;
    if (pick === 2) return Math.floor(next() * 1e6) - 5e5;
    if (pick === 3) return next() * 1e-3;
    if (pick === 4) return [NaN, Infinity, -0, 1e21, 5e-324][Math.floor(next() * 5)];
    if (pick === 5) return undefined;
    if (pick === 6) return new Date(Date.UTC(2026, 0, 1 + Math.floor(next() * 300)));
    return STRINGS[Math.floor(next() * STRINGS.length)]! + String(Math.floor(next() * 100));
  }
  if (roll < 0.6) {
    // Now and then a long array (walked item by item) of shallower items, so the value stays small.
    if (next() < 0.15) return Array.from({ length: 16 + Math.floor(next() * 20) }, () => randomValue(next, depth + 3));
    return Array.from({ length: Math.floor(next() * 5) }, () => randomValue(next, depth + 1));
  }
  const object: Record<string, unknown> = next() < 0.1 ? (Object.create(null) as Record<string, unknown>) : {};
  const count = Math.floor(next() * 6);
  for (let i = 0; i < count; i++)
    object[KEYS[Math.floor(next() * KEYS.length)]! + (next() < 0.5 ? '' : String(i))] = randomValue(next, depth + 1);
  return object;
}

describe('serializeJson (the write worker streams the file)', () => {
  it('writes JSON.stringify(value, null, 2) + newline exactly, for random nested values and any piece size', () => {
    const next = prng(42);
    for (let round = 0; round < 200; round++) {
      const value = { organizations: [randomValue(next, 0), randomValue(next, 0)], rest: randomValue(next, 0) };
      for (const chunk of [1, 7, 4096]) expect(streamed(value, chunk).text).toBe(expected(value));
    }
  });

  it('handles empty containers, values JSON leaves out or writes as null, toJSON and top-level primitives', () => {
    const values: unknown[] = [
      {},
      [],
      { a: [], b: {}, c: [[]], d: [{}] },
      { gone: undefined, fn: () => 1, sym: Symbol('s'), kept: 1 },
      { only: undefined },
      [undefined, () => 1, Symbol('s'), 2],
      { when: new Date(0), custom: { toJSON: () => ({ replaced: [1, 2] }) }, absent: { toJSON: () => undefined } },
      { boxed: [Object(1), Object('s'), Object(false)] },
      {
        deep: { deeper: { deepest: { long: Array.from({ length: 40 }, (_, i) => ({ i, nested: Array.from({ length: 20 }, () => i) })) } } },
      },
      'a string',
      42,
      null,
      [Array.from({ length: 17 }, (_, i) => [i, [i, { x: undefined }]])],
    ];
    for (const value of values) expect(streamed(value, 3).text).toBe(expected(value));
  });

  it('writes the demo fixture as it is on disk, in pieces of about the size asked for', () => {
    const text = readFileSync(join(resolveFixture('demo'), 'data.json'), 'utf8');
    const data: unknown = JSON.parse(text);
    const { text: out, pieces } = streamed(data, 64 * 1024);
    expect(out).toBe(expected(data));
    expect(out).toBe(text);
    expect(pieces.length).toBeGreaterThan(1);
  });

  it('walks an organization-like store record by record (no piece holds a whole collection)', () => {
    const post = (i: number) => ({ id: i, title: `Post ${i} ✓`, body: 'x'.repeat(500), tags: ['a', 'b'] });
    const data = {
      organizations: [
        {
          slug: 'o',
          posts: Array.from({ length: 2000 }, (_, i) => post(i)),
          collections: [{ items: Array.from({ length: 2000 }, (_, i) => post(i)) }],
        },
      ],
    };
    const { text, pieces } = streamed(data, 16 * 1024);
    expect(text).toBe(expected(data));
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThan(64 * 1024);
  });
});

describe('writeInWorker', () => {
  const dir = mkdtempSync(join(tmpdir(), 'write-worker-'));
  afterAll(async () => {
    await stopWriteWorker();
    rmSync(dir, { recursive: true, force: true });
  });

  const check = (file: string, value: unknown, written: { hash: string; size: number }) => {
    const text = expected(value);
    expect(readFileSync(file, 'utf8')).toBe(text);
    expect(written.size).toBe(Buffer.byteLength(text));
    expect(written.hash).toBe(createHash('sha256').update(text).digest('hex'));
  };

  it('writes the same bytes, size and SHA-256 as the one-piece path, for all data then for changes', async () => {
    const file = join(dir, 'data.json');
    // A record over the worker's encoding buffer (3 MiB) is encoded on its own: both paths run.
    const data = {
      organizations: [
        {
          slug: 'o',
          posts: [
            { id: 1, body: 'é'.repeat(1_200_000) },
            { id: 2, title: '😀' },
          ],
          media: [] as unknown[],
        },
      ],
    };
    const first = join(dir, 'first.tmp');
    check(first, data, await writeInWorker({ file, temporary: first, data }));

    data.organizations[0]!.posts[1]!.title = 'changed ✓';
    data.organizations[0]!.media.push({ id: 'm', alt: 'ünïcode' });
    const second = join(dir, 'second.tmp');
    const written = await writeInWorker({
      file,
      temporary: second,
      changes: [
        { op: 'set', path: ['organizations', 0, 'posts', 1, 'title'], value: 'changed ✓' },
        { op: 'push', path: ['organizations', 0, 'media'], values: [{ id: 'm', alt: 'ünïcode' }] },
      ],
    });
    check(second, data, written);

    const heap = await writeWorkerHeap();
    expect(heap?.used_heap_size).toBeGreaterThan(0);
  });

  it('writes the demo fixture byte for byte', async () => {
    const text = readFileSync(join(resolveFixture('demo'), 'data.json'), 'utf8');
    const data: unknown = JSON.parse(text);
    const temporary = join(dir, 'demo.tmp');
    const written = await writeInWorker({ file: join(dir, 'demo.json'), temporary, data });
    check(temporary, data, written);
    expect(readFileSync(temporary, 'utf8')).toBe(text);
  });

  // On Linux the nice value is a thread's own: the worker yields to the event loop, nothing else moves.
  it.runIf(process.platform === 'linux')('runs its thread at a lower priority, leaving the calling thread as it was', async () => {
    const before = getPriority();
    await writeInWorker({ file: join(dir, 'nice.json'), temporary: join(dir, 'nice.tmp'), data: { a: 1 } });
    // /proc/<pid>/task/<tid>/stat: the nice value is the 19th field, the 17th after the command's ')'.
    const niceValues = readdirSync('/proc/self/task').map((tid) => {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
    });
    expect(niceValues).toContain(Math.max(before, WORKER_NICE));
    expect(getPriority()).toBe(before);
  });

  it('stops an idle worker on request; the heap of a stopped worker reads null', async () => {
    expect(await stopWriteWorker()).toBe(true);
    expect(await writeWorkerHeap()).toBeNull();
  });
});
