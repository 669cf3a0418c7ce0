/**
 * One real emulator (demo fixture, temporary data folder, port 0) and one Chromium for a test
 * file. Console errors and CSP violations in the page fail the test that caused them: a UI that
 * works only by breaking its own policy is broken.
 */
import type { Browser, ConsoleMessage, Page } from 'playwright-core';
import { startEmulator, type EmulatorHandle } from '../../../server/index.js';
import { launchBrowser, newPage } from './browser.js';

export interface UiSession {
  cms: EmulatorHandle;
  browser: Browser;
  page: Page;
  /** Console errors seen since the page opened (CSP violations are reported there). */
  consoleErrors: string[];
  close(): Promise<void>;
}

export async function startUiSession(options: { colorScheme?: 'light' | 'dark'; hash?: string } = {}): Promise<UiSession> {
  // E2E_UI_DIR: serve another build of the UI (several people building at once must not share one folder).
  const uiDir = process.env['E2E_UI_DIR'];
  const cms = await startEmulator(uiDir ? { uiDir } : {});
  const browser = await launchBrowser();
  const consoleErrors: string[] = [];
  const page = await newPage(browser, options.colorScheme);
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(String(error)));
  await page.goto(cms.uiUrl + (options.hash ?? ''));
  await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
  return {
    cms,
    browser,
    page,
    consoleErrors,
    async close() {
      await browser.close();
      await cms.close();
    },
  };
}
