/**
 * A data folder holds the store file (`data.json`) and, later, media. A new folder is seeded
 * from a fixture; fixtures themselves are never written to.
 */
import { cp, mkdir, stat } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const STORE_FILE_NAME = 'data.json';

/** The package root, found by walking up from this file (works from sources and from dist/). */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('cms-emulator: cannot find the package root');
    dir = parent;
  }
  return dir;
}

/** The version in package.json (for HAR's creator and the CLI). */
export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version?: unknown };
  return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
}

/** `demo` names a built-in fixture; anything with a slash, or an existing folder, is a path. */
export function resolveFixture(nameOrPath: string): string {
  if (nameOrPath.includes('/') || nameOrPath.includes('\\') || isAbsolute(nameOrPath)) return resolve(nameOrPath);
  const builtIn = join(packageRoot(), 'fixtures', nameOrPath);
  return existsSync(builtIn) ? builtIn : resolve(nameOrPath);
}

export class FixtureError extends Error {}

/** Ensures `dataDir` has a store file, copying the fixture's when it has none. Returns its path. */
export async function prepareDataDir(dataDir: string, fixtureDir: string): Promise<{ file: string; seeded: boolean }> {
  const file = join(dataDir, STORE_FILE_NAME);
  if (existsSync(file)) return { file, seeded: false };
  const fixtureFile = join(fixtureDir, STORE_FILE_NAME);
  if (!existsSync(fixtureFile)) {
    throw new FixtureError(`fixture "${fixtureDir}" has no ${STORE_FILE_NAME}`);
  }
  await mkdir(dataDir, { recursive: true });
  await cp(fixtureDir, dataDir, { recursive: true, force: false, errorOnExist: false });
  await stat(file);
  return { file, seeded: true };
}
