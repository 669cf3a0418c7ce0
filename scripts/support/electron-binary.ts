/**
 * Where the Electron binary is, found without running `require('electron')` (which, when the
 * binary is missing, tries to download it and throws: ../shared/TOOLCHAIN.md). Same lookup as
 * electron/index.js: ELECTRON_OVERRIDE_DIST_PATH, else node_modules/electron/dist/<path.txt>.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const EXECUTABLE: Partial<Record<NodeJS.Platform, string>> = {
  darwin: 'Electron.app/Contents/MacOS/Electron',
  linux: 'electron',
  freebsd: 'electron',
  openbsd: 'electron',
  win32: 'electron.exe',
};

export interface ElectronLookup {
  /** The executable, or null when it is not installed. */
  binary: string | null;
  /** Where it was looked for (for messages). */
  lookedAt: string;
}

export function findElectron(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): ElectronLookup {
  let packageDir: string;
  try {
    packageDir = dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    return { binary: null, lookedAt: 'node_modules/electron (not installed)' };
  }
  const pathFile = join(packageDir, 'path.txt');
  const recorded = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : '';
  const override = env['ELECTRON_OVERRIDE_DIST_PATH'];
  const candidate = override
    ? join(override, recorded || (EXECUTABLE[platform] ?? 'electron'))
    : recorded
      ? join(packageDir, 'dist', recorded)
      : join(packageDir, 'dist', EXECUTABLE[platform] ?? 'electron');
  return { binary: existsSync(candidate) ? candidate : null, lookedAt: candidate };
}

/** Why a window cannot be opened here, or null: Linux needs an X11 or Wayland display. */
export function noDisplayReason(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string | null {
  if (platform !== 'linux' || env['DISPLAY'] || env['WAYLAND_DISPLAY']) return null;
  return 'no display: DISPLAY and WAYLAND_DISPLAY are unset, xvfb-run provides one';
}

/** The command that downloads the binary where the network allows it. */
export const INSTALL_HINT = 'npx install-electron';
