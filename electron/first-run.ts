/**
 * Which data folder the desktop app serves, and what a new one is seeded from.
 *
 * - `--data <dir>` wins; otherwise the folder is `<userData>/data` (e.g. ~/.config/CMS Emulator/data
 *   on Linux, ~/Library/Application Support/CMS Emulator/data on macOS, %APPDATA%\CMS Emulator\data
 *   on Windows), so every launch finds the data of the last one.
 * - A folder without data.json is seeded from the fixture (`--fixture`, default the built-in demo)
 *   by createEmulator() itself: the same code path as the CLI's.
 * - In the packaged app the built-in fixtures are unpacked next to app.asar (see
 *   electron-builder.yml, asarUnpack): seeding and "reset to fixture" copy whole folders with
 *   fs.cp, which Electron's asar layer does not serve (electron/electron#49012). So the fixture is
 *   named by its real path there, not by name.
 */
import { isAbsolute, join, resolve } from 'node:path';

export const DATA_FILE_NAME = 'data.json';
export const DEFAULT_FIXTURE = 'demo';

export interface DataFolderInput {
  /** `--data`, if given (relative to the working directory). */
  requested?: string | undefined;
  /** `--fixture`, if given: a built-in name or a path. */
  fixture?: string | undefined;
  /** app.getPath('userData') */
  userData: string;
  /** app.getAppPath(): the repository in development, …/resources/app.asar when packaged. */
  appPath: string;
  /** app.isPackaged */
  packaged: boolean;
  cwd: string;
}

export interface DataFolderPlan {
  dataDir: string;
  /** What createEmulator gets as `fixture`. */
  fixture: string;
  /** No data.json yet: this start seeds the folder. */
  firstRun: boolean;
}

/** Where the built-in fixtures are as real files. */
export function builtInFixturesDir(appPath: string, packaged: boolean): string | null {
  if (!packaged) return null; // createEmulator finds them by name from the package root
  return join(appPath.endsWith('.asar') ? `${appPath}.unpacked` : appPath, 'fixtures');
}

export function planDataFolder(input: DataFolderInput, exists: (path: string) => boolean): DataFolderPlan {
  const dataDir = input.requested === undefined ? join(input.userData, 'data') : resolve(input.cwd, input.requested);
  const name = input.fixture ?? DEFAULT_FIXTURE;
  const isPath = name.includes('/') || name.includes('\\') || isAbsolute(name);
  const builtIns = builtInFixturesDir(input.appPath, input.packaged);
  const fixture = isPath ? resolve(input.cwd, name) : builtIns === null ? name : join(builtIns, name);
  return { dataDir, fixture, firstRun: !exists(join(dataDir, DATA_FILE_NAME)) };
}

/** One line for the log after start, saying whether this run created the data. */
export function startNote(dataFile: { path: string; seeded: boolean; fixture: string }): string {
  return dataFile.seeded ? `Data file ${dataFile.path} (new, seeded from ${dataFile.fixture})` : `Data file ${dataFile.path}`;
}
