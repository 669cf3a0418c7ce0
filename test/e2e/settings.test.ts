/**
 * The Settings view against a real emulator on the demo fixture: the URLs and tokens shown are the
 * emulator's and their copy buttons copy them; the clock is set, advanced and sent back to real
 * time from the page (GET /__emulator/clock agrees each time); a snapshot restores what an API
 * write changed; reset goes back to the fixture; a fixture load shows its progress; the export
 * downloads a data.json that parses; the hand-edit webhook switch reaches the server.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPage, screenshot } from './support/browser.js';
import { startUiSession, type UiSession } from './support/session.js';

let ui: UiSession;

beforeAll(async () => {
  ui = await startUiSession({ hash: '#/settings' });
  await ui.page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
});
afterAll(() => ui.close());

const clipboard = (page: Page) =>
  page.evaluate(() =>
    (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText(),
  );

async function control<T>(path: string, init?: RequestInit): Promise<T> {
  const res = await fetch(`${ui.cms.controlUrl}/${path}`, init);
  expect(res.ok, `${path}: ${res.status}`).toBe(true);
  return ((await res.json()) as { data: T }).data;
}

interface ClockJson {
  now: string;
  mode: 'real' | 'offset' | 'frozen';
}

async function createPost(slug: string): Promise<void> {
  const res = await fetch(`${ui.cms.apiUrl}/posts/`, {
    method: 'POST',
    headers: { Authorization: `Token ${ui.cms.tokens['acme']!.write}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ title: slug, slug, status: 'published' }),
  });
  expect(res.status).toBe(202);
  await ui.cms.idle({ deliveries: false });
}

const postStatus = async (slug: string) =>
  (await fetch(`${ui.cms.apiUrl}/posts/${slug}/?auth_token=${ui.cms.tokens['acme']!.read}`)).status;

/** The emulator time the page shows, as an ISO instant (the <time> element's datetime). */
const shownTime = () => ui.page.getByTestId('clock-now').getAttribute('datetime');

describe('Settings view', () => {
  it('shows the API and CDN URLs and every token of every organization', async () => {
    const { page, cms } = ui;
    await expect(page.getByLabel('API base URL', { exact: true }).inputValue()).resolves.toBe(cms.apiUrl);
    await expect(page.getByLabel('CDN URL', { exact: true }).inputValue()).resolves.toBe(cms.cdnUrl);
    const slugs = Object.keys(cms.tokens);
    expect(slugs.length).toBeGreaterThan(1);
    for (const slug of slugs) {
      await expect(page.getByLabel(`Read token (${slug})`, { exact: true }).inputValue()).resolves.toBe(cms.tokens[slug]!.read);
      await expect(page.getByLabel(`Write token (${slug})`, { exact: true }).inputValue()).resolves.toBe(cms.tokens[slug]!.write);
    }
    await expect(page.getByLabel('Data folder', { exact: true }).inputValue()).resolves.toBe(cms.dataDir);
    await screenshot(page, 'settings');
  });

  it('copies URLs, tokens and a curl example that works as it is', async () => {
    const { page, cms } = ui;
    await page.getByRole('button', { name: 'Copy API base URL' }).click();
    await expect.poll(() => clipboard(page)).toBe(cms.apiUrl);
    await page.getByRole('button', { name: 'Copy Write token (northwind)' }).click();
    await expect.poll(() => clipboard(page)).toBe(cms.tokens['northwind']!.write);
    await page.getByRole('button', { name: 'Copy Read example (acme)' }).click();
    await expect.poll(() => clipboard(page)).toContain(cms.tokens['acme']!.read);
    const command = await clipboard(page);
    const url = /^curl '([^']+)'$/.exec(command)?.[1];
    expect(url?.startsWith(`${cms.apiUrl}/posts/`)).toBe(true);
    const res = await fetch(url!);
    expect(res.status).toBe(200);
  });

  it('sets the clock (frozen), advances it and sends it back to real time', async () => {
    const { page } = ui;
    await page.getByLabel('Date and time', { exact: true }).fill('2031-05-06T07:08:09');
    await page.getByLabel('Freeze', { exact: true }).check();
    await page.getByRole('button', { name: 'Set clock' }).click();
    const set = new Date('2031-05-06T07:08:09').toISOString(); // local time, as the page reads it
    await expect.poll(shownTime).toBe(set);
    await expect(page.getByTestId('clock-mode').textContent()).resolves.toBe('Frozen');
    let server = await control<ClockJson>('clock');
    expect(server).toMatchObject({ now: set, mode: 'frozen' });
    // The shell's clock badge follows too.
    await page.getByRole('link', { name: /Frozen at/ }).waitFor();

    await page.getByLabel('Days', { exact: true }).fill('1');
    await page.getByLabel('Hours', { exact: true }).fill('2');
    await page.getByLabel('Minutes', { exact: true }).fill('3');
    await page.getByRole('button', { name: 'Advance' }).click();
    const advanced = new Date(Date.parse(set) + ((24 + 2) * 60 + 3) * 60_000).toISOString();
    await expect.poll(shownTime).toBe(advanced);
    server = await control<ClockJson>('clock');
    expect(server).toMatchObject({ now: advanced, mode: 'frozen' });

    await page.getByRole('button', { name: 'Back to real time' }).click();
    await expect.poll(() => page.getByTestId('clock-mode').textContent()).toBe('Real time');
    // The mode and the time are rendered apart: the time may still be the frozen one a moment
    // after the mode has changed (a .ci/run read it once, 4.5 years off). It must come to now.
    await expect.poll(async () => Math.abs(Date.parse((await shownTime())!) - Date.now())).toBeLessThan(5000);
    server = await control<ClockJson>('clock');
    expect(server.mode).toBe('real');
    expect(Math.abs(Date.parse(server.now) - Date.now())).toBeLessThan(5000);
    await expect(page.getByRole('button', { name: 'Back to real time' }).isDisabled()).resolves.toBe(true);
  });

  it('saves a snapshot, and restoring it undoes a change made through the API', async () => {
    const { page } = ui;
    const name = `before-${Date.now()}`;
    await page.getByLabel('Snapshot name', { exact: true }).fill(name);
    await page.getByRole('button', { name: 'Save snapshot' }).click();
    const restore = page.getByRole('button', { name: `Restore snapshot ${name}` });
    await restore.waitFor();
    expect((await control<{ name: string }[]>('snapshots')).map((s) => s.name)).toContain(name);

    const slug = `made-after-snapshot-${Date.now()}`;
    await createPost(slug);
    expect(await postStatus(slug)).toBe(200);
    await restore.click();
    await expect.poll(() => postStatus(slug)).toBe(404);
    await page
      .getByRole('status')
      .filter({ hasText: `Snapshot "${name}" restored` })
      .waitFor();

    await page.getByRole('button', { name: `Delete snapshot ${name}` }).click();
    await restore.waitFor({ state: 'detached' });
    expect((await control<{ name: string }[]>('snapshots')).map((s) => s.name)).not.toContain(name);
  });

  it('resets to the fixture after asking', async () => {
    const { page } = ui;
    const slug = `made-before-reset-${Date.now()}`;
    await createPost(slug);
    await page.getByRole('button', { name: 'Reset to fixture…' }).click();
    // Asked inline, the confirming button focused: Cancel leaves everything as it is.
    const confirm = page.getByRole('button', { name: 'Reset', exact: true });
    await expect(confirm.evaluate((el) => el === el.ownerDocument.activeElement)).resolves.toBe(true);
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect(await postStatus(slug)).toBe(200);
    await page.getByRole('button', { name: 'Reset to fixture…' }).click();
    await confirm.click();
    await expect.poll(() => postStatus(slug)).toBe(404);
  });

  it('shows progress while a fixture loads', async () => {
    const { page } = ui;
    // Hold the request a moment so the progress can be seen (a demo load takes milliseconds).
    let letGo!: () => void;
    const gate = new Promise<void>((resolve) => (letGo = resolve));
    await page.route('**/__emulator/fixtures/load', async (route) => {
      await gate;
      await route.continue();
    });
    await page.getByLabel('Fixture', { exact: true }).fill('demo');
    await page.getByRole('button', { name: 'Load fixture…' }).click();
    await page.getByRole('button', { name: 'Load', exact: true }).click();
    const progress = page.getByRole('status').filter({ hasText: 'Loading fixture “demo”' });
    await progress.waitFor();
    expect(await progress.locator('progress').count()).toBe(1);
    letGo();
    await progress.waitFor({ state: 'detached' });
    await page.getByRole('status').filter({ hasText: 'Fixture “demo” loaded' }).waitFor();
    await page.unroute('**/__emulator/fixtures/load');
  });

  it('exports the data file as a data.json that parses, with progress', async () => {
    const { page } = ui;
    // Hold the answer a moment so the progress can be seen, then let the real one through.
    let letGo!: () => void;
    const gate = new Promise<void>((resolve) => (letGo = resolve));
    await page.route('**/__emulator/state*', async (route) => {
      await gate;
      await route.continue();
    });
    const downloaded = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export data file' }).click();
    const progress = page.getByTestId('export-progress');
    await progress.waitFor();
    expect(await progress.getAttribute('role')).toBe('status');
    await expect(page.getByRole('button', { name: 'Export data file' }).isDisabled()).resolves.toBe(true);
    letGo();
    const download = await downloaded;
    await page.unroute('**/__emulator/state*');
    expect(download.suggestedFilename()).toBe('data.json');
    const data = JSON.parse(await readFile(await download.path(), 'utf8')) as { format_version: number; organizations: { slug: string }[] };
    expect(data.organizations.map((o) => o.slug)).toEqual(Object.keys(ui.cms.tokens));
    await expect(page.getByTestId('export-link').textContent()).resolves.toMatch(/Save data\.json \(\d+(\.\d)? KiB\)/);
  });

  it('switches whether hand edits fire webhooks', async () => {
    const { page } = ui;
    const toggle = page.getByLabel('Hand edits fire webhooks', { exact: true });
    expect(await toggle.isChecked()).toBe(false);
    await toggle.check();
    await expect.poll(async () => (await control<{ edits_fire_webhooks: boolean }>('store')).edits_fire_webhooks).toBe(true);
    await toggle.uncheck();
    await expect.poll(async () => (await control<{ edits_fire_webhooks: boolean }>('store')).edits_fire_webhooks).toBe(false);
  });

  it('looks right in the dark theme too', async () => {
    const page = await newPage(ui.browser, 'dark');
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(ui.cms.uiUrl + '#/settings');
    await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
    await page.getByLabel(`Read token (acme)`, { exact: true }).waitFor();
    await screenshot(page, 'settings-dark');
    await page.close();
    expect(errors).toEqual([]);
  });

  it('breaks no rule of the CSP and logs no error', () => {
    expect(ui.consoleErrors).toEqual([]);
  });
});
