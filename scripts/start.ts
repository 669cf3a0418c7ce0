/**
 * `npm start`: the desktop app where the Electron binary is installed, otherwise the emulator
 * headless (the CLI, which prints the API base URL, the UI's URL and the tokens) with one line on
 * how to get the desktop app. Arguments go to either: `npm start -- --port 4010 --data ./my-data`.
 * `--headless` (or CMS_EMULATOR_HEADLESS=1) runs the CLI even where Electron is installed.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { findElectron, INSTALL_HINT, noDisplayReason } from './support/electron-binary.js';
import { repoRoot } from './support/repo.js';

const MAIN = join(repoRoot, 'dist', 'electron', 'main.js');
/** What the desktop app is built from, and what the build writes. */
const SOURCES = ['server', 'electron', 'renderer', 'package.json'].map((path) => join(repoRoot, path));
const OUTPUTS = [MAIN, join(repoRoot, 'dist', 'renderer', 'index.html')];

function newest(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = 0;
  for (const entry of readdirSync(path))
    if (entry !== 'node_modules' && entry !== 'dist') latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

function needsBuild(): boolean {
  const built = Math.min(...OUTPUTS.map((file) => (existsSync(file) ? statSync(file).mtimeMs : 0)));
  return built === 0 || Math.max(...SOURCES.map(newest)) > built;
}

function exec(command: string, args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: repoRoot, stdio: 'inherit', shell: process.platform === 'win32' && command === 'npm' });
    child.on('error', reject);
    // Ctrl+C reaches the child too (same process group): wait for it to save and exit rather than
    // die first. A SIGTERM sent to this process alone is passed on.
    const onInt = () => undefined;
    const onTerm = () => child.kill('SIGTERM');
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);
    child.on('exit', (code, signal) => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

async function desktop(binary: string, args: string[]): Promise<void> {
  if (needsBuild()) {
    console.log('Building the app first (npm run build)…');
    const code = await exec('npm', ['run', 'build']);
    if (code !== 0) process.exit(code);
  }
  process.exit(await exec(binary, [MAIN, ...args]));
}

const NO_BINARY = 'the Electron binary is not installed';

/** The one line saying why there is no window, and how to get one where that helps. */
function headlessNote(reason: string): string {
  const how = reason === NO_BINARY ? ` To get the desktop app: ${INSTALL_HINT} (downloads Electron), then npm start.` : '';
  return `Desktop app: not available here (${reason}); running the emulator headless.${how}`;
}

async function headless(args: string[], reason: string | null): Promise<void> {
  if (reason !== null) console.log(headlessNote(reason));
  // The CLI reads its options from process.argv, as when run directly.
  process.argv = [process.argv[0]!, join(repoRoot, 'server', 'cli.ts'), ...args];
  await import('../server/cli.js');
}

const argv = process.argv.slice(2);
const args = argv.filter((arg) => arg !== '--headless');
if (argv.includes('--headless') || process.env['CMS_EMULATOR_HEADLESS'] === '1') {
  await headless(args, null);
} else {
  const { binary } = findElectron();
  const noDisplay = noDisplayReason();
  if (binary === null) await headless(args, NO_BINARY);
  else if (noDisplay !== null) await headless(args, noDisplay);
  else await desktop(binary, args);
}
