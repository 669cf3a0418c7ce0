/**
 * Reads and checks a data file. Errors name their exact place: line and column for JSON syntax,
 * the path of the bad value for schema violations, so a hand edit is quick to mend.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { checkStoreContent } from './content-check.js';
import { storeSchema, type StoreData } from './schema.js';

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
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new StoreLoadError(file, `cannot read the file (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  return parseStoreText(text, file);
}

export function parseStoreText(text: string, file: string): StoreData {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new StoreLoadError(file, describeJsonError(text, (err as Error).message));
  }
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
