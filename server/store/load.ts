/**
 * Reads and checks a data file. Errors name their exact place: line and column for JSON syntax,
 * the path of the bad value for schema violations, so a hand edit is quick to mend.
 */
import { copyFile, readFile } from 'node:fs/promises';
import { AtomicJsonFile } from './atomic-file.js';
import { migrate, MigrationError, versionOf } from './migrations.js';
import { z } from 'zod';
import { checkStoreContent } from './content-check.js';
import { storeSchema, type StoreData } from './schema.js';
import type { Change } from './snapshot-diff.js';

export class StoreLoadError extends Error {
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(`${file}: ${reason}`);
    this.name = 'StoreLoadError';
  }
}

export async function readStoreFile(file: string): Promise<StoreData> {
  return (await readAndMigrate(file)).data;
}

/**
 * Reads a data file, migrating one written in an older format: the original is kept as
 * `<file>.v<version>.bak` and the migrated text written in its place.
 */
export async function readAndMigrate(
  file: string,
): Promise<{ data: StoreData; migrated: string[]; backup: string | null; fromText: Change[] | null }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new StoreLoadError(file, `cannot read the file (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  // Parsed once: a current file (the usual case) goes straight to the checks.
  const raw = parseJson(text, file);
  const version = versionOf(raw);
  let result: { data: unknown; applied: string[] };
  try {
    result = migrate(raw);
  } catch (err) {
    if (err instanceof MigrationError) throw new StoreLoadError(file, err.message);
    throw err;
  }
  if (result.applied.length === 0) {
    const data = checkParsed(raw, file);
    return { data, migrated: [], backup: null, fromText: jsonChanges(data, raw) };
  }
  const data = checkParsed(result.data, file);
  const backup = `${file}.v${version}.bak`;
  await copyFile(file, backup);
  // Atomic like every other write of the file: a crash now leaves the old file or the migrated one.
  await new AtomicJsonFile<StoreData>(file).write(data);
  return { data, migrated: result.applied, backup, fromText: null };
}

/** More differences than this between the checked data and the parsed text: not worth listing. */
const FROM_TEXT_MAX_CHANGES = 1000;

/**
 * What turns the value `parsed` (the file's text, parsed) into `data` (the same, checked: defaults
 * filled in, say), as changes that set the data's value at each path where the two differ (keys
 * differing or in another order, arrays of another length, other primitives); null past
 * FROM_TEXT_MAX_CHANGES. The store's write worker can then read the file for its copy of the
 * data and apply these (write-worker.ts), instead of the main thread cloning all of it. The
 * checks keep records as parsed when they are already in stored form, so most of the walk stops
 * at the first identity.
 */
export function jsonChanges(data: unknown, parsed: unknown, path: (string | number)[] = [], out: Change[] = []): Change[] | null {
  if (data === parsed) return out;
  const set = () => {
    out.push({ op: 'set', path: [...path], value: data });
    return out.length > FROM_TEXT_MAX_CHANGES ? null : out;
  };
  if (typeof data !== 'object' || typeof parsed !== 'object' || data === null || parsed === null) return set();
  if (Array.isArray(data) !== Array.isArray(parsed)) return set();
  if (Array.isArray(data)) {
    const other = parsed as unknown[];
    if (data.length !== other.length) return set();
    for (let i = 0; i < data.length; i++) {
      path.push(i);
      const found = jsonChanges(data[i], other[i], path, out);
      path.pop();
      if (!found) return null;
    }
    return out;
  }
  const keys = Object.keys(data);
  const otherKeys = Object.keys(parsed);
  if (keys.length !== otherKeys.length || keys.some((key, i) => key !== otherKeys[i])) return set();
  for (const key of keys) {
    path.push(key);
    const found = jsonChanges((data as Record<string, unknown>)[key], (parsed as Record<string, unknown>)[key], path, out);
    path.pop();
    if (!found) return null;
  }
  return out;
}

export function parseStoreText(text: string, file: string): StoreData {
  return checkParsed(parseJson(text, file), file);
}

function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new StoreLoadError(file, describeJsonError(text, (err as Error).message));
  }
}

/** Schema and content checks of parsed JSON. */
function checkParsed(raw: unknown, file: string): StoreData {
  const result = storeSchema.safeParse(raw);
  if (!result.success) {
    throw new StoreLoadError(file, `does not match the data-file schema (docs/data-file.md):\n${formatIssues(result.error)}`);
  }
  const problems = checkStoreContent(result.data);
  if (problems.length > 0) {
    const listed = problems.slice(0, 20).map((p) => `  at ${p}`);
    if (problems.length > 20) listed.push(`  … and ${problems.length - 20} more`);
    throw new StoreLoadError(file, `does not match the data-file schema (docs/data-file.md):\n${listed.join('\n')}`);
  }
  return result.data;
}

/** One line per issue: `organizations[0].posts[3].author: no author with slug "x"`. */
export function formatIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 20)
    .map((issue) => `  at ${formatPath(issue.path)}: ${issue.message}`)
    .join('\n');
}

function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(top level)';
  return path.map((part, i) => (typeof part === 'number' ? `[${part}]` : i === 0 ? String(part) : `.${String(part)}`)).join('');
}

/** V8 reports a character position; people want a line and a column. */
function describeJsonError(text: string, message: string): string {
  const match = /position (\d+)/.exec(message);
  if (!match?.[1]) return `invalid JSON: ${message}`;
  const position = Number(match[1]);
  const before = text.slice(0, position);
  const line = before.split('\n').length;
  const column = position - before.lastIndexOf('\n');
  return `invalid JSON at line ${line}, column ${column}: ${message}`;
}
