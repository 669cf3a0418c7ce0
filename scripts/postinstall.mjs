/**
 * Root `postinstall`: a best-effort download of the Electron binary, so `npm start` can open the
 * desktop app. Electron 42+ has no install script of its own (the binary would be fetched on the
 * first `require('electron')`, which throws where it cannot be downloaded: ../shared/TOOLCHAIN.md).
 *
 * It never fails the install and never hangs it: every outcome exits 0, and the download is given
 * up after CMS_EMULATOR_ELECTRON_INSTALL_TIMEOUT seconds (default 120). Nothing happens when
 * Electron is not installed (a production install, or this package installed as a dependency) or
 * when ELECTRON_SKIP_BINARY_DOWNLOAD is set. Plain JavaScript on purpose: it runs before `prepare`
 * builds anything, and must not need tsx.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import process from 'node:process';
import { clearTimeout, setTimeout } from 'node:timers';

const HEADLESS = 'npm start will run the emulator headless; `npx install-electron` later gets the desktop app.';

function done(message) {
  if (message) process.stdout.write(`cms-emulator: ${message}\n`);
  process.exit(0);
}

function main() {
  const skip = process.env.ELECTRON_SKIP_BINARY_DOWNLOAD;
  if (skip && skip !== '0' && skip !== 'false') done(`ELECTRON_SKIP_BINARY_DOWNLOAD is set: Electron binary not downloaded. ${HEADLESS}`);

  let installScript;
  try {
    installScript = createRequire(import.meta.url).resolve('electron/install.js');
  } catch {
    done(); // Electron is not installed here: nothing to download.
  }

  const seconds = Number(process.env.CMS_EMULATOR_ELECTRON_INSTALL_TIMEOUT ?? 120);
  const timeoutMs = Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 120_000;
  // Its output is kept and summed up in one line: a failed download prints a long stack trace.
  const child = spawn(process.execPath, [installScript], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const timer = setTimeout(() => {
    child.kill();
    done(`downloading the Electron binary took more than ${timeoutMs / 1000} s; gave up. ${HEADLESS}`);
  }, timeoutMs);
  child.on('error', (err) => done(`could not run Electron's installer (${err.message}). ${HEADLESS}`));
  child.on('exit', (code) => {
    clearTimeout(timer);
    if (code === 0) done();
    const reason = output
      .split('\n')
      .map((line) => line.trim())
      .find((line) => /error|fail/i.test(line));
    done(`the Electron binary could not be downloaded${reason ? ` (${reason})` : ''}. ${HEADLESS}`);
  });
}

try {
  main();
} catch (err) {
  done(`Electron binary not installed (${err instanceof Error ? err.message : String(err)}). ${HEADLESS}`);
}
