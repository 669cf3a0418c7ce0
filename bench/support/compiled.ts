/**
 * The benchmark's server children (the emulator, the bare ceiling, json-server) run as users run
 * the emulator: compiled JavaScript on plain node. Under tsx, a child also carries tsx's loader
 * thread (a second V8 isolate) and its transform caches: ~40 MB of resident memory that users'
 * processes never hold, counted against the memory target.
 *
 * `bench/tsconfig.children.json` compiles the child scripts and the server code they import into
 * bench/.build (gitignored) once per run, from the current sources, so a stale `dist` is never
 * measured.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const benchDir = fileURLToPath(new URL('..', import.meta.url));
const rootDir = join(benchDir, '..');
const buildDir = join(benchDir, '.build');

let compiling: Promise<void> | null = null;

function runTsc(): Promise<void> {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const child = spawn(process.execPath, [tsc, '-p', join(benchDir, 'tsconfig.children.json')], { stdio: 'inherit' });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`compiling the benchmark's children failed (tsc exit ${code})`)),
    );
  });
}

/** Compiles the children (once per process) and gives the compiled path of a child's source file. */
export async function compiledChild(source: string): Promise<string> {
  compiling ??= runTsc();
  await compiling;
  return join(buildDir, relative(rootDir, source)).replace(/\.ts$/, '.js');
}
