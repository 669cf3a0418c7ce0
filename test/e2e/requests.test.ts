/**
 * The Requests view against a real emulator on the demo fixture: a request made by the test
 * appears live, filters narrow the list, the detail shows headers and bodies (a feed as text),
 * copy as curl gives a runnable command, the HAR export downloads.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './support/browser.js';
import { startUiSession, type UiSession } from './support/session.js';

let ui: UiSession;
/** The request rows (the filter selects have options too). */
const rows = () => ui.page.getByRole('listbox', { name: 'Requests, newest first' }).getByRole('option');
beforeAll(async () => {
  ui = await startUiSession();
});
afterAll(() => ui.close());

describe('Requests view', () => {
  it('shows a request made by the test live, newest first', async () => {
    const { cms } = ui;
    const marker = `live-${Date.now()}`;
    const res = await fetch(`${cms.apiUrl}/posts/?auth_token=${cms.tokens['acme']!.read}&page_size=2&marker=${marker}`);
    expect(res.status).toBe(200);
    const row = rows().filter({ hasText: marker });
    await row.waitFor();
    expect(await rows().first().textContent()).toContain(marker);
    expect(await row.textContent()).toContain('200');
  });

  it('filters by status class and path', async () => {
    const { page, cms } = ui;
    await fetch(`${cms.apiUrl}/posts/no-such-post/?auth_token=${cms.tokens['acme']!.read}`);
    await rows().filter({ hasText: 'no-such-post' }).waitFor();
    await page.getByLabel('Status').selectOption('4xx');
    const statuses = await rows().locator('.badge').allTextContents();
    expect(statuses.length).toBeGreaterThan(0);
    for (const status of statuses) expect(status).toMatch(/^4\d\d$/);
    await page.getByLabel('Status').selectOption('');
    await page.getByLabel('Path contains').fill('no-such');
    expect(await rows().count()).toBe(1);
    await page.getByLabel('Path contains').fill('');
  });

  it('opens a request: response body pretty-printed, headers, an XML feed as text', async () => {
    const { page, cms } = ui;
    await fetch(`${cms.apiUrl}/feeds/rss/?auth_token=${cms.tokens['acme']!.read}`);
    await rows().filter({ hasText: '/feeds/rss/' }).first().click();
    const detail = page.getByTestId('request-detail');
    await detail.waitFor();
    const body = detail.locator('pre').first();
    await expect(body.textContent()).resolves.toContain('<rss');
    // Markup from the feed is text in the page, never elements.
    expect(await page.locator('[data-testid=request-detail] rss, [data-testid=request-detail] channel').count()).toBe(0);
    await screenshot(page, 'requests');
  });

  it('copies a runnable curl with the real token back in', async () => {
    const { page, cms } = ui;
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await fetch(`${cms.apiUrl}/authors/?auth_token=${cms.tokens['acme']!.read}`);
    await rows().filter({ hasText: '/v2/authors/' }).first().click();
    await page.getByRole('button', { name: 'Copy as curl' }).click();
    const copied = await page.evaluate(() =>
      (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText(),
    );
    expect(copied).toContain(`curl '${cms.url}/v2/authors/?auth_token=${cms.tokens['acme']!.read}'`);
  });

  it('moves through the list with the keyboard', async () => {
    const { page } = ui;
    const list = page.getByRole('listbox', { name: 'Requests, newest first' });
    await list.focus();
    await page.keyboard.press('Home');
    const first = await list.getByRole('option', { selected: true }).textContent();
    await page.keyboard.press('ArrowDown');
    // The selection moves when the page has rendered the key's effect: wait for it, do not read once.
    await expect.poll(() => list.getByRole('option', { selected: true }).textContent()).not.toBe(first);
    expect(page.url()).toMatch(/#\/requests\/.+/);
  });

  it('exports the log as HAR', async () => {
    const { page } = ui;
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export HAR' }).click()]);
    const path = await download.path();
    const { readFile } = await import('node:fs/promises');
    const har = JSON.parse(await readFile(path, 'utf8')) as { log: { version: string; entries: unknown[] } };
    expect(har.log.version).toBe('1.2');
    expect(har.log.entries.length).toBeGreaterThan(0);
  });

  it('holds 10,000 rows while rendering only those in view', async () => {
    const { page, cms } = ui;
    const url = `${cms.apiUrl}/categories/?auth_token=${cms.tokens['acme']!.read}`;
    let sent = 0;
    const worker = async () => {
      while (sent < 10_000) {
        sent++;
        await (await fetch(url)).arrayBuffer();
      }
    };
    await Promise.all(Array.from({ length: 32 }, worker));
    await page
      .getByTestId('request-count')
      .filter({ hasText: /of 10000$/ })
      .waitFor({ timeout: 30_000 });
    // Virtualized: a screenful of row elements, not ten thousand.
    expect(await rows().count()).toBeLessThan(80);
    const list = page.getByRole('listbox', { name: 'Requests, newest first' });
    await list.focus();
    await page.keyboard.press('End');
    const last = list.getByRole('option', { selected: true });
    await last.waitFor();
    expect(await rows().count()).toBeLessThan(80);
    // A frame after jumping to the end stays cheap: measure the time to scroll back up.
    const ms = await page.evaluate(async () => {
      const el = document.querySelector('.vlist')!;
      const start = performance.now();
      el.scrollTop = 0;
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      return performance.now() - start;
    });
    expect(ms).toBeLessThan(1000); // generous: a sanity bound on a shared machine, not a benchmark
  });

  it('breaks no rule of the CSP and logs no error', () => {
    // The oldest rows (past the server's 5000) answer 404 when opened: that is the UI saying so, not an error.
    const errors = ui.consoleErrors.filter((e) => !e.startsWith('Failed to load resource: the server responded with a status of 404'));
    expect(errors, errors.join('\n')).toEqual([]);
  });
});
