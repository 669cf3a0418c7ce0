/**
 * `npm run check:package`: packages the desktop app with electron-builder exactly as configured
 * (electron-builder.yml), offline, and checks what went into it.
 *
 * The Electron binary cannot be downloaded here (../shared/TOOLCHAIN.md), so electron-builder gets
 * a stand-in unpacked Electron (`electronDist`: an `electron` file, a `version` file, empty
 * licences, `resources/`), made in a temporary folder. With `--dir` it then builds the unpacked
 * app, resources/app.asar included, in seconds and without downloading anything; the installers
 * (AppImage, deb, dmg, nsis) need tools and binaries from outside and are not built here.
 *
 * Checked in app.asar (listed with @electron/asar):
 * - in: the compiled server and shell, the preload, the built UI, the demo fixture, a package.json
 *   whose main is the shell, and the production dependencies;
 * - out: TypeScript sources, tests, source maps, declarations, scripts, docs, and every package
 *   that package-lock.json marks as dev-only (Electron, Vite, the UI's libraries, ...);
 * - unpacked next to it: sharp and its @img/* native files (the OS loads them from real files),
 *   and the fixtures (see electron/first-run.ts).
 *
 * Needs dist/: runs `npm run build` if the compiled server or shell is missing, and stops with a
 * message if the UI (dist/renderer) has not been built.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import asar from '@electron/asar';
import { repoRoot, section } from './support/repo.js';

const require = createRequire(import.meta.url);
const BUILDER_TIMEOUT_MS = 120_000;

function run(command: string, args: string[], timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: repoRoot, stdio: ['ignore', 'inherit', 'inherit'], shell: process.platform === 'win32' });
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new Error(`${command} ${args.join(' ')} took more than ${timeoutMs / 1000} s`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`${command} ${args.join(' ')} exited with ${code ?? signal}`));
    });
  });
}

async function ensureBuilt(): Promise<void> {
  const compiled = ['dist/server/index.js', 'dist/electron/main.js', 'dist/electron/preload.cjs'];
  if (compiled.some((file) => !existsSync(join(repoRoot, file)))) {
    section('dist/ has no compiled server or shell: npm run build');
    await run('npm', ['run', 'build'], 300_000);
  }
  if (!existsSync(join(repoRoot, 'dist/renderer/index.html'))) {
    throw new Error('dist/renderer/index.html is missing: build the UI first (npm run build), then run this check again.');
  }
}

/** A stand-in for an unpacked Linux Electron: what electron-builder copies, without the real binary. */
async function standInElectron(dir: string, version: string): Promise<void> {
  await mkdir(join(dir, 'resources'), { recursive: true });
  await writeFile(join(dir, 'electron'), '#!/bin/sh\necho "stand-in Electron used by scripts/check-package.ts"\nexit 1\n');
  await chmod(join(dir, 'electron'), 0o755);
  await writeFile(join(dir, 'version'), `v${version}`);
  await writeFile(join(dir, 'LICENSE'), '');
  await writeFile(join(dir, 'LICENSES.chromium.html'), '');
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((path) => statSync(join(dir, path)).isFile());
}

interface LockPackage {
  dev?: boolean;
}

async function main(): Promise<number> {
  const started = Date.now();
  await ensureBuilt();
  const electronVersion = (require('electron/package.json') as { version: string }).version;
  const pkg = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  const lock = JSON.parse(await readFile(join(repoRoot, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockPackage> };

  const work = await mkdtemp(join(tmpdir(), 'cms-emulator-package-'));
  try {
    const electronDist = join(work, 'electron-dist');
    const output = join(work, 'release');
    await standInElectron(electronDist, electronVersion);

    section(`electron-builder --dir --linux with a stand-in Electron ${electronVersion} (no download, no publish)`);
    const arch = process.arch === 'arm64' ? '--arm64' : '--x64';
    await run(
      process.execPath,
      [
        require.resolve('electron-builder/cli.js'),
        '--dir',
        '--linux',
        arch,
        '--publish',
        'never',
        `-c.electronDist=${electronDist}`,
        `-c.directories.output=${output}`,
      ],
      BUILDER_TIMEOUT_MS,
    );

    const appDir = readdirSync(output).find((name) => name.startsWith('linux') && name.endsWith('unpacked'));
    if (!appDir) throw new Error(`electron-builder made no unpacked app in ${output}`);
    const resources = join(output, appDir, 'resources');
    const archive = join(resources, 'app.asar');
    const unpacked = join(resources, 'app.asar.unpacked');
    const entries = asar.listPackage(archive, { isPack: false }).map((entry) => entry.replace(/\\/g, '/').replace(/^\//, ''));
    const isFile = (entry: string) => {
      const stat = asar.statFile(archive, entry, false) as { files?: unknown; link?: unknown };
      return stat.files === undefined && stat.link === undefined;
    };
    const files = entries.filter(isFile);
    const has = (path: string) => entries.includes(path);

    const problems: string[] = [];
    const expect = (ok: boolean, message: string) => {
      if (!ok) problems.push(message);
    };

    section(`app.asar: ${files.length} files`);
    // In: what runs.
    for (const path of [
      'package.json',
      'dist/electron/main.js',
      'dist/electron/preload.cjs',
      'dist/electron/window.js',
      'dist/server/index.js',
      'dist/server/emulator.js',
      'dist/server/ui/static.js',
      'dist/renderer/index.html',
      'fixtures/demo/data.json',
    ]) {
      expect(has(path), `missing from app.asar: ${path}`);
    }
    expect(
      files.some((path) => /^dist\/renderer\/assets\/.+\.js$/.test(path)),
      'missing from app.asar: the UI bundle (dist/renderer/assets/*.js)',
    );
    const packaged = JSON.parse(asar.extractFile(archive, 'package.json').toString('utf8')) as { main?: string };
    expect(
      packaged.main === 'dist/electron/main.js',
      `app.asar's package.json starts ${packaged.main ?? 'nothing'}, not dist/electron/main.js`,
    );
    for (const name of Object.keys(pkg.dependencies ?? {})) {
      expect(has(`node_modules/${name}/package.json`), `missing from app.asar: the production dependency ${name}`);
    }

    // Out: sources, tests, tooling, dev-only packages.
    const ours = files.filter((path) => !path.startsWith('node_modules/'));
    const forbidden: [RegExp, string][] = [
      [/\.(ts|tsx|cts|mts)$/, 'a TypeScript source or declaration'],
      [/\.map$/, 'a source map'],
      [/(^|\/)(test|tests|__tests__|__snapshots__)\//, 'a test'],
      [/^(server|electron|renderer|scripts|bench|docs|test)\//, 'a source folder'],
      [/^(tsconfig.*\.json|vitest\.config\.ts|eslint\.config\.js|electron-builder\.yml|package-lock\.json)$/, 'tool configuration'],
    ];
    for (const path of ours) {
      for (const [pattern, what] of forbidden) if (pattern.test(path)) problems.push(`in app.asar but should not be (${what}): ${path}`);
    }
    const packageDirs = new Set(
      entries.map((path) => /^(.*node_modules\/(@[^/]+\/)?[^/]+)\//.exec(path)?.[1]).filter((dir) => dir !== undefined),
    );
    const devOnly = [...packageDirs].filter((dir) => lock.packages[dir]?.dev === true).sort();
    for (const dir of devOnly) problems.push(`in app.asar but dev-only in package-lock.json: ${dir}`);

    // Unpacked: sharp's native code and the fixtures.
    const mustBeUnpacked = files.filter((path) => /^node_modules\/(sharp|@img)\//.test(path) || path.startsWith('fixtures/'));
    for (const path of mustBeUnpacked) {
      const stat = asar.statFile(archive, path, false) as { unpacked?: boolean };
      if (stat.unpacked !== true) problems.push(`packed inside app.asar but must be unpacked: ${path}`);
    }
    const unpackedFiles = filesUnder(unpacked).map((path) => path.replace(/\\/g, '/'));
    expect(existsSync(join(unpacked, 'node_modules/sharp/package.json')), 'sharp is not unpacked (app.asar.unpacked/node_modules/sharp)');
    expect(
      unpackedFiles.some((path) => /^node_modules\/@img\/sharp-[^/]+\/.*\.node$/.test(path)),
      "sharp's native addon (node_modules/@img/sharp-*/**/*.node) is not unpacked",
    );
    expect(existsSync(join(unpacked, 'fixtures/demo/data.json')), 'the demo fixture is not unpacked (app.asar.unpacked/fixtures/demo)');

    const asarBytes = statSync(archive).size;
    const unpackedBytes = unpackedFiles.reduce((sum, path) => sum + statSync(join(unpacked, path)).size, 0);
    console.log(
      `  ours: ${ours.length} files (${['dist/server', 'dist/electron', 'dist/renderer', 'fixtures'].map((dir) => `${dir} ${ours.filter((p) => p.startsWith(dir + '/')).length}`).join(', ')})`,
    );
    console.log(`  node_modules: ${packageDirs.size} packages, none dev-only: ${devOnly.length === 0 ? 'yes' : 'NO'}`);
    console.log(`  unpacked: ${unpackedFiles.length} files (sharp, @img/*, fixtures)`);
    console.log(`  size: app.asar ${(asarBytes / 1e6).toFixed(1)} MB, app.asar.unpacked ${(unpackedBytes / 1e6).toFixed(1)} MB`);

    section(problems.length === 0 ? `package check passed (${((Date.now() - started) / 1000).toFixed(1)} s)` : 'package check FAILED');
    for (const problem of problems) console.error(`  ${problem}`);
    return problems.length === 0 ? 0 : 1;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`check:package: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
