/**
 * Browser tests drive Debian's Chromium through playwright-core (no browser download). The path
 * comes from CHROMIUM_PATH, else /usr/bin/chromium, else Playwright's own browser (a user's
 * machine after `npx playwright install chromium`). Missing all three is a clear failure, not a skip:
 * .ci/run installs Chromium, so CI always runs these.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { packageRoot } from '../../../server/store/seed.js';

export const SCREENSHOT_DIR = join(packageRoot(), 'docs', 'screenshots');

function executablePath(): string | undefined {
  const candidates = [process.env['CHROMIUM_PATH'], '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(
    (p): p is string => typeof p === 'string' && p !== '',
  );
  const found = candidates.find((p) => existsSync(p));
  if (found) return found;
  try {
    const own = chromium.executablePath();
    if (existsSync(own)) return undefined; // Playwright's own browser: let it pick.
  } catch {
    // no browser of Playwright's own either
  }
  throw new Error(
    'No Chromium found for the browser tests: run `apt-get install -y chromium` (Debian/Ubuntu), set CHROMIUM_PATH, or `npx playwright install chromium`.',
  );
}

export async function launchBrowser(): Promise<Browser> {
  const path = executablePath();
  return chromium.launch(path ? { executablePath: path } : {});
}

/** A page with a fixed size (screenshots comparable run to run) and the given colour scheme. */
export async function newPage(browser: Browser, colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme });
  return context.newPage();
}

/** Saves docs/screenshots/<name>.png (README shows them). */
export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`) });
}
