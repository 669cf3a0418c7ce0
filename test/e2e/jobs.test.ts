/**
 * The Jobs view against a real emulator on the demo fixture. A local image origin (node:http on
 * port 0) answers 404 for one path (so the media.import job of a post fails, and the view shows
 * why) and holds its answers for another until the test lets them go (so the batch progress bar
 * and the header's indicator can be seen while jobs wait).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './support/browser.js';
import { startUiSession, type UiSession } from './support/session.js';

/** A 1×1 PNG: a real image, so a released download succeeds. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

let ui: UiSession;
let origin: Server;
let originUrl = '';
/** Answers held back until release(). */
let held: ServerResponse[] = [];
let holding = true;

function answerImage(res: ServerResponse): void {
  res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': PNG.length });
  res.end(PNG);
}

function release(): void {
  holding = false;
  for (const res of held) answerImage(res);
  held = [];
}

const rows = () => ui.page.getByRole('listbox', { name: 'Jobs, newest first' }).getByRole('option');

async function createPost(slug: string, featuredImage: string): Promise<void> {
  const res = await fetch(`${ui.cms.apiUrl}/posts/`, {
    method: 'POST',
    headers: { Authorization: `Token ${ui.cms.tokens['acme']!.write}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ title: slug, slug, featured_image: featuredImage }),
  });
  expect(res.status, await res.text()).toBe(202);
}

beforeAll(async () => {
  origin = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.url?.startsWith('/missing/')) {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('not here');
    } else if (req.url?.startsWith('/held/')) {
      if (holding) held.push(res);
      else answerImage(res);
    } else {
      answerImage(res);
    }
  });
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  originUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
  ui = await startUiSession({ hash: '#/jobs' });
});

afterAll(async () => {
  release();
  await ui?.close();
  await new Promise<void>((resolve) => origin.close(() => resolve()));
});

describe('Jobs view', () => {
  it('shows a failed media download with its reason and what caused it', async () => {
    const { page, cms } = ui;
    const url = `${originUrl}/missing/photo-${Date.now()}.jpg`;
    await createPost(`missing-image-${Date.now()}`, url);
    await cms.idle({ deliveries: false });

    await page.getByLabel('Status').selectOption('failed');
    await page.getByLabel('Kind').selectOption('media.import');
    const row = rows().filter({ hasText: url });
    await row.waitFor();
    expect(await row.textContent()).toContain('failed');
    await row.click();

    const detail = page.getByTestId('job-detail');
    await detail.waitFor();
    const reason = detail.getByTestId('job-error');
    await expect(reason.textContent()).resolves.toContain(`Could not download ${url}: the server answered 404`);
    expect(page.url()).toMatch(/#\/jobs\/[0-9a-f-]{36}$/);

    // The cause links to the request that accepted the write.
    const link = detail.getByTestId('job-cause-link');
    const requestId = cms.requests().find((r) => r.method === 'POST' && r.path.endsWith('/posts/'))!.id;
    expect(await link.getAttribute('href')).toBe(`#/requests/${requestId}`);
    await detail.getByText('POST', { exact: true }).waitFor();

    // The navigation counts failed jobs.
    await expect(page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: /Jobs/ }).textContent()).resolves.toMatch(
      /Jobs\s*1/,
    );
  });

  it('shows the progress of a batch while its downloads are held, then the batch done', async () => {
    const { page } = ui;
    await page.getByLabel('Status').selectOption('');
    await page.getByLabel('Kind').selectOption('');
    const stamp = Date.now();
    for (let i = 0; i < 3; i++) await createPost(`held-image-${stamp}-${i}`, `${originUrl}/held/${stamp}-${i}.png`);

    const progress = page.getByTestId('jobs-progress');
    await progress.waitFor();
    // Downloads run beside the write line: the three creations are done while their three
    // downloads wait on the held origin, all at once.
    // The third download may start a moment after the creations are done: wait for the whole line.
    await expect.poll(() => progress.textContent()).toMatch(/^3 of 6 background jobs done.*3 media downloads waiting · 3 running at once/);
    await expect.poll(() => page.getByTestId('jobs-activity').textContent()).toBe('3 in progress');
    expect(await progress.locator('progress').getAttribute('max')).toBe('6');
    expect(await progress.locator('progress').getAttribute('value')).toBe('3');
    await screenshot(page, 'jobs');

    release();
    await expect.poll(() => progress.textContent(), { timeout: 10_000 }).toMatch(/6 of 6 background jobs done/);
    await expect.poll(() => page.getByTestId('jobs-activity').textContent()).toBe('Idle');
    expect(await rows().filter({ hasText: 'media.import' }).filter({ hasText: 'succeeded' }).count()).toBe(3);
  });

  it('filters by organization and keeps the selection in the URL on reload', async () => {
    const { page } = ui;
    await page.getByLabel('Organization').selectOption('northwind');
    await page.getByText('No job matches these filters.').waitFor();
    await page.getByLabel('Organization').selectOption('');
    const first = rows().first();
    await first.click();
    const url = page.url();
    await page.reload();
    await page.getByTestId('job-detail').waitFor();
    expect(page.url()).toBe(url);
  });

  it('breaks no rule of the CSP and logs no error', () => {
    expect(ui.consoleErrors).toEqual([]);
  });
});
