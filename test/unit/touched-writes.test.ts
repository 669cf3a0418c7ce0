/**
 * Writes from what mutations said they touched (Store.mutate's `touched`, atomic-file.ts
 * touchedChanges): the worker gets only the touched records, no comparison of the whole store,
 * and the file is still exactly JSON.stringify of the data, over random runs of declared appends,
 * in-place edits and whole small arrays mixed with changes that did not say what they touched
 * (removals, edits elsewhere), which fall back to comparing everything.
 */
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { prng } from '../../bench/generate-store.js';
import {
  AtomicJsonFile,
  WORKER_MIN_TOUCHED,
  fileSignature,
  locate,
  touchedChanges,
  touchedRecords,
  type Touches,
} from '../../server/store/atomic-file.js';
import { jsonChanges } from '../../server/store/load.js';
import type { Post } from '../../server/store/schema.js';
import { resolveFixture } from '../../server/store/seed.js';
import { Store } from '../../server/store/store.js';
import { stopWriteWorker } from '../../server/store/write-worker.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

interface Rec {
  id: number;
  title: string;
  tags: string[];
  extra?: string;
}
interface Org {
  slug: string;
  posts: Rec[];
  tags: { slug: string }[];
  collections: { key: string; items: Rec[] }[];
}
interface Data {
  format_version: number;
  organizations: Org[];
}

/** The file holds exactly what the emulator would write for `data`. */
async function expectFileOf(file: string, data: unknown): Promise<void> {
  expect(await readFile(file, 'utf8')).toBe(JSON.stringify(data, null, 2) + '\n');
}

const record = (id: number): Rec => ({ id, title: `Record ${id} «é» "q"`, tags: [`t${id % 7}`] });

function sample(): Data {
  const org = (slug: string, n: number): Org => ({
    slug,
    posts: Array.from({ length: n }, (_, i) => record(i + 1)),
    tags: [{ slug: 't0' }],
    collections: [
      { key: 'a', items: [record(1)] },
      { key: 'b', items: Array.from({ length: 100 }, (_, i) => record(i + 1)) },
    ],
  });
  return { format_version: 1, organizations: [org('one', 80), org('two', 120)] };
}

describe('locate', () => {
  it('finds arrays of organizations and collections, and nothing inside long lists of records', () => {
    const data = sample();
    expect(locate(data, data.organizations[1]!.posts)).toEqual(['organizations', 1, 'posts']);
    expect(locate(data, data.organizations[0]!.collections[1]!.items)).toEqual(['organizations', 0, 'collections', 1, 'items']);
    expect(locate(data, data.organizations)).toEqual(['organizations']);
    // A record's own array sits inside a list of 120 records: not looked for there.
    expect(locate(data, data.organizations[1]!.posts[5]!.tags)).toBeNull();
    expect(locate(data, [])).toBeNull();
  });

  it('touchedChanges gives nothing it cannot place: an array or item no longer in the data', () => {
    const data = sample();
    const posts = data.organizations[0]!.posts;
    const gone = posts[3]!;
    posts.splice(3, 1);
    expect(touchedChanges(data, new Map([[posts, new Set<object>([gone])]]))).toBeNull();
    expect(touchedChanges(data, new Map([[[1, 2], 'whole' as const]]))).toBeNull();
    // Many items are found in one pass over the array; one missing among them still gives null.
    const many = new Set<object>([posts[70]!, ...posts.slice(10, 30), posts[0]!]);
    expect(touchedChanges(data, new Map([[posts, many]]))?.map((c) => c.path[3])).toEqual([
      0,
      ...Array.from({ length: 20 }, (_, i) => 10 + i),
      70,
    ]);
    expect(touchedChanges(data, new Map([[posts, new Set<object>([...many, gone])]]))).toBeNull();
    const changes = touchedChanges(data, new Map([[posts, new Set<object>([posts[9]!, posts[2]!])]]));
    expect(changes?.map((c) => c.path)).toEqual([
      ['organizations', 0, 'posts', 2],
      ['organizations', 0, 'posts', 9],
    ]);
  });
});

describe('a write from declared touches', () => {
  it('leaves the file exactly JSON.stringify of the data over random declared and undeclared changes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cms-emulator-touched-'));
    dirs.push(dir);
    const file = join(dir, 'data.json');
    const writer = new AtomicJsonFile<Data>(file, { workerMinBytes: 0 });
    const data = sample();
    const random = prng(7);
    const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)]!;
    let nextId = 10_000;
    await writer.write(data);

    for (let round = 0; round < 120; round++) {
      let touches: Touches = new Map();
      const touch = (array: unknown[], item?: object) => {
        if (touches === 'everything') return;
        const known = touches.get(array);
        if (item === undefined) touches.set(array, 'whole');
        else if (known === undefined) touches.set(array, new Set([item]));
        else if (known !== 'whole') known.add(item);
      };
      for (let step = 0, steps = 1 + Math.floor(random() * 6); step < steps; step++) {
        const org = pick(data.organizations);
        const roll = random();
        if (roll < 0.3) {
          const added = record(nextId++);
          org.posts.push(added);
          touch(org.posts, added);
        } else if (roll < 0.55) {
          const post = pick(org.posts);
          post.title = `edited ${round}.${step} ✓`;
          if (random() < 0.3) post.extra = 'a key added changes the order of the text';
          touch(org.posts, post);
        } else if (roll < 0.7) {
          const collection = pick(org.collections);
          const item = random() < 0.5 ? pick(collection.items) : record(nextId++);
          if (!collection.items.includes(item)) collection.items.push(item);
          item.tags.push(`n${round}`);
          touch(collection.items, item);
        } else if (roll < 0.85) {
          org.tags.push({ slug: `tag-${round}-${step}` });
          touch(org.tags);
        } else if (roll < 0.93) {
          // A removal does not say: everything is compared.
          org.posts.splice(Math.floor(random() * org.posts.length), 1);
          touches = 'everything';
        } else {
          org.slug = `${org.slug}!`;
          touches = 'everything';
        }
      }
      await writer.writeTouched(data, touches);
      await expectFileOf(file, data);
    }
    // Most rounds said what they touched and were sent just that; the others fell back.
    expect(writer.sent.touched).toBeGreaterThan(60);
    expect(writer.sent.compared + writer.sent.everything).toBeGreaterThan(10);
    // 120 written files, most through the worker: ~1 s here, several on a loaded CI machine.
  }, 30_000);
});

describe('the first write after loading starts the worker from the file', () => {
  async function loaded(): Promise<{ file: string; raw: Data; data: Data }> {
    const dir = await mkdtemp(join(tmpdir(), 'cms-emulator-from-file-'));
    dirs.push(dir);
    const file = join(dir, 'data.json');
    // Not as the emulator writes it: compact, and without a key the loaded data has.
    await writeFile(file, JSON.stringify(sample()));
    const raw = JSON.parse(await readFile(file, 'utf8')) as Data;
    const data = JSON.parse(await readFile(file, 'utf8')) as Data;
    for (const org of data.organizations) org.collections[0]!.items[0]!.extra = 'a default the checks filled in';
    return { file, raw, data };
  }

  /** Loaded as above, with a writer whose worker will start from the file. */
  async function startedFromFile(): Promise<{ file: string; data: Data; writer: AtomicJsonFile<Data> }> {
    const { file, raw, data } = await loaded();
    const writer = new AtomicJsonFile<Data>(file, { workerMinBytes: 0 });
    writer.startFromFile(data, fileSignature(await stat(file, { bigint: true })), jsonChanges(data, raw)!);
    return { file, data, writer };
  }

  it('sends the values that differ from the file and the touched records, not all the data', async () => {
    const { file, raw, data } = await loaded();
    const writer = new AtomicJsonFile<Data>(file, { workerMinBytes: 0 });
    const fromText = jsonChanges(data, raw);
    expect(fromText?.map((c) => c.path)).toEqual([
      ['organizations', 0, 'collections', 0, 'items', 0],
      ['organizations', 1, 'collections', 0, 'items', 0],
    ]);
    writer.startFromFile(data, fileSignature(await stat(file, { bigint: true })), fromText!);
    const posts = data.organizations[1]!.posts;
    const added = record(99_999);
    posts.push(added);
    posts[4]!.title = 'edited before the first write';
    await writer.writeTouched(data, new Map([[posts, new Set<object>([added, posts[4]!])]]));
    await expectFileOf(file, data);
    expect(writer.sent).toEqual({ everything: 0, compared: 0, touched: 1 });
    // And the worker's copy carries on from there.
    posts[0]!.title = 'second write';
    await writer.writeTouched(data, new Map([[posts, new Set<object>([posts[0]!])]]));
    await expectFileOf(file, data);
    expect(writer.sent).toEqual({ everything: 0, compared: 0, touched: 2 });
  });

  it('a worker started after the last one stopped reads the file that one wrote', async () => {
    const { file, data, writer } = await startedFromFile();
    const posts = data.organizations[0]!.posts;
    posts[1]!.title = 'first';
    await writer.writeTouched(data, new Map([[posts, new Set<object>([posts[1]!])]]));
    // The worker goes (as it does when idle), and with it its copy of the data.
    await stopWriteWorker();
    posts[2]!.title = 'after the worker stopped';
    const added = record(77_777);
    posts.push(added);
    await writer.writeTouched(data, new Map([[posts, new Set<object>([posts[2]!, added])]]));
    await expectFileOf(file, data);
    expect(writer.sent).toEqual({ everything: 0, compared: 0, touched: 2 });
  });

  it('sends all of the data when the file changed since it was loaded', async () => {
    const { file, data, writer } = await startedFromFile();
    await writeFile(file, JSON.stringify({ edited: 'by hand, meanwhile', padding: 'x'.repeat(100) }));
    const posts = data.organizations[0]!.posts;
    posts[1]!.title = 'edited';
    await writer.writeTouched(data, new Map([[posts, new Set<object>([posts[1]!])]]));
    await expectFileOf(file, data);
    expect(writer.sent).toEqual({ everything: 1, compared: 0, touched: 0 });
  });

  it('through Store.open: a large data file gets its first declared write without sending everything', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cms-emulator-store-from-file-'));
    dirs.push(dir);
    const file = join(dir, 'data.json');
    const fixture = JSON.parse(await readFile(join(resolveFixture('demo'), 'data.json'), 'utf8')) as {
      organizations: { posts: Post[] }[];
    };
    const posts = fixture.organizations[0]!.posts;
    const template = posts[0]!;
    // Past the worker's threshold (1 MiB), as a person might write it (not in the emulator's form).
    for (let i = 0; i < 700; i++) posts.push({ ...template, id: 10_000 + i, slug: `filler-${i}`, body: '<p>filler</p>'.repeat(120) });
    await writeFile(file, JSON.stringify(fixture));
    const store = await Store.open(file);
    const org = store.data.organizations[0]!;
    const post = org.posts[3]!;
    store.mutate(
      () => {
        post.title = 'Declared edit';
      },
      () => [{ array: org.posts, items: [post] }],
    );
    await store.flush();
    await expectFileOf(file, store.data);
    expect(store.sent).toEqual({ everything: 0, compared: 0, touched: 1 });
  });
});

describe('a small store: which thread serializes a write', () => {
  /** Posts touched as `count` new records. */
  function appended(posts: Rec[], count: number, from: number): Touches {
    const added = Array.from({ length: count }, (_, i) => record(from + i));
    posts.push(...added);
    return new Map([[posts, new Set<object>(added)]]);
  }

  it('a write of many touched records goes to the worker, which starts from the file last written here', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cms-emulator-small-'));
    dirs.push(dir);
    const file = join(dir, 'data.json');
    await stopWriteWorker();
    // The default threshold: the sample is a few KB, far under it.
    const writer = new AtomicJsonFile<Data>(file);
    const data = sample();
    const posts = data.organizations[1]!.posts;
    await writer.write(data);
    // A few records short of the count: still serialized here.
    await writer.writeTouched(data, appended(posts, WORKER_MIN_TOUCHED - 1, 20_000));
    await expectFileOf(file, data);
    expect(writer.sent).toEqual({ everything: 0, compared: 0, touched: 0 });
    // As many as the count: the worker, sent those records only (it reads the file written here).
    await writer.writeTouched(data, appended(posts, WORKER_MIN_TOUCHED, 30_000));
    await expectFileOf(file, data);
    expect(writer.sent).toEqual({ everything: 0, compared: 0, touched: 1 });
    // The worker now holds a copy: a one-record write goes there too.
    posts[0]!.title = 'one edit, to the worker that holds the data';
    await writer.writeTouched(data, new Map([[posts, new Set<object>([posts[0]!])]]));
    await expectFileOf(file, data);
    expect(writer.sent).toEqual({ everything: 0, compared: 0, touched: 2 });
    // Without a worker (stopped when idle) a small write is serialized here again.
    await stopWriteWorker();
    posts[1]!.title = 'one edit, here';
    await writer.writeTouched(data, new Map([[posts, new Set<object>([posts[1]!])]]));
    await expectFileOf(file, data);
    expect(writer.sent).toEqual({ everything: 0, compared: 0, touched: 2 });
    await writer.writeTouched(data, appended(posts, WORKER_MIN_TOUCHED, 40_000));
    await expectFileOf(file, data);
    expect(writer.sent).toEqual({ everything: 0, compared: 0, touched: 3 });
  });

  it('counts the records mutations said they touched, a whole array as all of its items', () => {
    const a = [{}, {}, {}];
    const b = [{}, {}];
    expect(touchedRecords('everything')).toBe(0);
    expect(touchedRecords(new Map())).toBe(0);
    expect(
      touchedRecords(
        new Map<unknown[], Set<object> | 'whole'>([
          [a, new Set([a[0]!, a[2]!])],
          [b, 'whole'],
        ]),
      ),
    ).toBe(4);
  });
});
