/**
 * The loader's answers, pinned (issue 7: loading got faster, with identical validation). Every
 * kind of value in two data files (the demo fixture and a small generated store) is broken in
 * the ways people break hand-edited JSON (deleted, null, wrong type, too long, a duplicate, an
 * unknown key, keys reordered, non-ASCII text), and the loader's answer is compared with the one
 * recorded in __snapshots__/store-load-fidelity.json before the loader was optimized: the exact
 * error message (paths, line and column) or, for a file that loads, a hash of what it loads to,
 * as the emulator would write it back (so defaults, normalized values and key order count too).
 * Regenerate only for an intended change of behaviour: `npx vitest run -u <this file>`.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateLargeStore } from '../../bench/generate-store.js';
import { parseStoreText, readAndMigrate, StoreLoadError } from '../../server/store/load.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Path = (string | number)[];

/** The demo fixture with fewer posts and items (the same kinds of values, a faster test). */
const demo = trimmed(JSON.parse(readFileSync(new URL('../../fixtures/demo/data.json', import.meta.url), 'utf8')) as Json);
const generated = JSON.parse(
  JSON.stringify(generateLargeStore({ posts: 12, pages: 8, items: 10, authors: 4, categories: 4, tags: 4, bodyChars: 200 })),
) as Json;

function trimmed(doc: Json): Json {
  for (const org of (doc as { organizations: Record<string, Json[]>[] }).organizations) {
    org['posts'] = org['posts']!.slice(0, 4);
    for (const collection of org['collections'] as { items: Json[] }[]) collection.items = collection.items.slice(0, 2);
  }
  return doc;
}

const hash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);

/** What the loader answers for `text`: its error, or what it loaded (as the emulator writes it). */
function answer(text: string): string {
  try {
    return `ok ${hash(JSON.stringify(parseStoreText(text, 'data.json'), null, 2))}`;
  } catch (err) {
    if (!(err instanceof StoreLoadError)) throw err;
    return err.message;
  }
}

/** One path per kind of place: the first occurrence of each path with array indices as `*`. */
function samplePaths(doc: Json): Path[] {
  const seen = new Set<string>();
  const out: Path[] = [];
  const walk = (value: Json, path: Path) => {
    // Locales hold the same kinds of values: one sample of them is enough.
    const pattern = path.map((p) => (typeof p === 'number' ? '*' : /^[a-z]{2}$/.test(p) ? '~' : p)).join('.');
    if (!seen.has(pattern)) {
      seen.add(pattern);
      out.push(path);
    }
    if (Array.isArray(value)) value.forEach((v, i) => walk(v, [...path, i]));
    else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, [...path, k]);
  };
  walk(doc, []);
  return out;
}

type Mutation = [name: string, apply: (parent: Record<string | number, Json>, key: string | number, value: Json) => void];

const set =
  (replacement: Json): Mutation[1] =>
  (parent, key) => {
    parent[key] = replacement;
  };

const deleted: Mutation = [
  'deleted',
  (parent, key) => (Array.isArray(parent) ? parent.splice(Number(key), 1) : Reflect.deleteProperty(parent, key)),
];

/**
 * Field values (checked against their definitions): a few ways to break each, and the loose
 * forms a loader brings to their stored form (a media URL alone, numbers as strings, "" for null).
 */
function contentMutations(value: Json): Mutation[] {
  const base: Mutation[] = [deleted, ['null', set(null)], ['empty', set('')]];
  if (Array.isArray(value))
    return [
      ...base,
      ['wrong type', set('x y')],
      ['as strings', set(value.map((v) => (typeof v === 'number' ? String(v) : v)))],
      ['first only', set(value[0] ?? null)],
    ];
  if (value !== null && typeof value === 'object')
    return [
      deleted,
      ['unknown key', (parent, key) => ((parent[key] as Record<string, Json>)['zz_unknown'] = 'x')],
      ['array', set([1])],
      ['keys reversed', set(Object.fromEntries(Object.entries(value).reverse()))],
      ...('url' in value ? ([['url alone', set(value['url']!)]] as Mutation[]) : []),
    ];
  if (typeof value === 'number') return [...base, ['numeric string', set(String(value))], ['wrong type', set(true)]];
  return [...base, ['wrong type', set(typeof value === 'string' ? 7 : 'x y')]];
}

/** Ways to break each kind of value. */
function mutationsFor(value: Json): Mutation[] {
  const common: Mutation[] = [deleted, ['null', set(null)]];
  if (typeof value === 'string')
    return [
      ...common,
      ['empty', set('')],
      ['number', set(7)],
      ['spaced', set('has space/x')],
      ['long', set('x'.repeat(260))],
      ['non-ascii', set(`${value}-山の日 é`)],
      ...(/^\d{4}-/.test(value) ? ([['bad date', set('2026-02-30T10:00:00+01:00')]] as Mutation[]) : []),
    ];
  if (typeof value === 'number')
    return [...common, ['negative', set(-1)], ['fraction', set(1.5)], ['string', set(String(value))], ['huge', set(2 ** 60)]];
  if (typeof value === 'boolean') return [...common, ['string', set(String(value))], ['number', set(1)]];
  if (Array.isArray(value))
    return [
      ...common,
      ['object', set({})],
      ['first doubled', (parent, key) => value.length > 0 && (parent[key] as Json[]).push(structuredClone(value[0]!))],
    ];
  if (value !== null && typeof value === 'object')
    return [
      ...common,
      ['array', set([])],
      ['unknown key', (parent, key) => ((parent[key] as Record<string, Json>)['zz_unknown'] = 'x')],
      [
        'keys reversed',
        (parent, key) => {
          parent[key] = Object.fromEntries(Object.entries(value).reverse());
        },
      ],
    ];
  return [...common, ['string', set('x')], ['number', set(1)]];
}

/** A third of the cases, always the same ones: all of them take a while and say little more. */
const sampled = (name: string): boolean => createHash('md5').update(name).digest()[0]! % 3 === 0;

function cases(name: string, doc: Json): [string, string][] {
  const out: [string, string][] = [[`${name}: as it is`, JSON.stringify(doc, null, 2)]];
  for (const path of samplePaths(doc)) {
    if (path.length === 0) continue;
    const at = (root: Json) => path.slice(0, -1).reduce<Json>((node, p) => (node as Record<string | number, Json>)[p]!, root);
    const original = (at(doc) as Record<string | number, Json>)[path.at(-1)!]!;
    const inContent = path.some((p, i) => p === 'fields' && typeof path[i + 1] === 'string' && path[i - 1] !== 'collections');
    for (const [mutation, apply] of inContent ? contentMutations(original) : mutationsFor(original)) {
      const label = `${name}: ${path.join('.')} ${mutation}`;
      if (!sampled(label)) continue;
      const copy = structuredClone(doc);
      apply(at(copy) as Record<string | number, Json>, path.at(-1)!, original);
      out.push([label, JSON.stringify(copy, null, 2)]);
    }
  }
  return out;
}

/** Broken JSON text: line and column of the problem, counted in characters (non-ASCII lines too). */
function syntaxCases(): [string, string][] {
  const text = JSON.stringify(demo, null, 2);
  const accented = text.indexOf('Español');
  return [
    ['text: empty', ''],
    ['text: truncated', text.slice(0, Math.floor(text.length / 2))],
    ['text: trailing comma', text.replace(/"\n(\s*)\}/, '",\n$1}')],
    ['text: garbage after the end', `${text}x`],
    ['text: byte order mark', `\ufeff${text}`],
    ['text: error after non-ASCII on the same line', `${text.slice(0, accented + 8)}"oops${text.slice(accented + 8)}`],
    ['text: invalid escape before non-ASCII', text.replace('Español', 'Espa\\ñol')],
    ['text: escaped non-ASCII loads', text.replace('Español', 'Espa\\u00f1ol')],
    ['text: escaped backslash before non-ASCII loads', text.replace('Español', 'Espa\\\\ñol')],
    ['text: non-ASCII outside a string', text.replace('"format_version"', '\u00a0"format_version"')],
    ['text: control character in a string', text.replace('Español', 'Espa\u0001ol')],
    ['text: lone surrogate escape', text.replace('Español', 'Espa\\ud800ol')],
    ['text: not an object', '[]'],
  ];
}

describe('loading a data file answers as it always did', () => {
  it('for every kind of broken value (error paths) and every file that loads (what it loads to)', { timeout: 60_000 }, async () => {
    const all = [...cases('demo', demo), ...cases('generated', generated), ...syntaxCases()];
    const answers = Object.fromEntries(all.map(([name, text]) => [name, answer(text)]));
    await expect(JSON.stringify(answers, null, 2) + '\n').toMatchFileSnapshot('./__snapshots__/store-load-fidelity.json');
  });
});

/** Bytes, not text: how the file is decoded (invalid UTF-8, a BOM) is part of the answer too. */
describe('reading the file', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  async function readAnswer(bytes: Buffer): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'cms-emulator-fidelity-'));
    dirs.push(dir);
    const file = join(dir, 'data.json');
    await writeFile(file, bytes);
    try {
      return `ok ${hash(JSON.stringify((await readAndMigrate(file)).data, null, 2))}`;
    } catch (err) {
      if (!(err instanceof StoreLoadError)) throw err;
      return err.message.replace(file, 'data.json');
    }
  }

  it('answers as it always did for odd bytes', async () => {
    const text = JSON.stringify(demo, null, 2);
    const utf8 = Buffer.from(text);
    const at = utf8.indexOf('Español');
    const splice = (bytes: number[]) => Buffer.concat([utf8.subarray(0, at + 4), Buffer.from(bytes), utf8.subarray(at + 4)]);
    const byteCases: [string, Buffer][] = [
      ['as it is', utf8],
      ['all ASCII', Buffer.from(text.replace(/[\u0080-\uffff]/g, 'x'))],
      ['byte order mark', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8])],
      ['invalid byte in a string', splice([0xff])],
      ['truncated sequence in a string', splice([0xe5, 0xb1])],
      ['overlong sequence in a string', splice([0xc0, 0xaf])],
      ['encoded surrogate in a string', splice([0xed, 0xa0, 0x80])],
      ['four-byte character in a string', splice([0xf0, 0x9f, 0x8f, 0x94])],
      ['invalid byte outside a string', Buffer.concat([Buffer.from([0x80]), utf8])],
      [
        'invalid byte, then a syntax error on its line',
        Buffer.concat([
          utf8.subarray(0, at + 4),
          Buffer.from([0xff]),
          utf8.subarray(at + 4, at + 8),
          Buffer.from('"oops'),
          utf8.subarray(at + 8),
        ]),
      ],
    ];
    const answers: Record<string, string> = {};
    for (const [name, bytes] of byteCases) answers[name] = await readAnswer(bytes);
    await expect(JSON.stringify(answers, null, 2) + '\n').toMatchFileSnapshot('./__snapshots__/store-read-fidelity.json');
  });
});
