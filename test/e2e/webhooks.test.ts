/**
 * The Webhooks view against a real emulator on the demo fixture, whose webhooks post to the
 * built-in inboxes (inbox:demo, and inbox:search-indexer: 1.5 s late, fails its first delivery,
 * retried). A write through the API shows its deliveries live; a delivery is inspected (request,
 * attempts), replayed, edited and replayed; a hostile receiver's answer stays text; an inbox set
 * to answer 500 makes the next delivery fail.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Delivery } from '../../server/webhooks/delivery.js';
import { screenshot } from './support/browser.js';
import { startUiSession, type UiSession } from './support/session.js';

let ui: UiSession;
const HOSTILE = '<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">';
let hostile: Server;
let hostileUrl: string;

const list = () => ui.page.getByRole('listbox', { name: 'Deliveries, newest first' });
/** The delivery rows (the filter selects have options too). */
const rows = () => list().getByRole('option');
const detail = () => ui.page.getByTestId('delivery-detail');
const selectedId = () => decodeURIComponent(new URL(ui.page.url()).hash.split('/')[2] ?? '');

async function control<T>(path: string): Promise<T> {
  const res = await fetch(`${ui.cms.controlUrl}/${path}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: T }).data;
}

async function publishPost(title: string): Promise<void> {
  const res = await fetch(`${ui.cms.apiUrl}/posts/`, {
    method: 'POST',
    headers: { authorization: `Token ${ui.cms.tokens['acme']!.write}`, 'content-type': 'application/json' },
    body: JSON.stringify({ title, status: 'published' }),
  });
  expect(res.status).toBe(202);
}

/** Screenshots without the notices of earlier actions over them. */
async function quietScreenshot(name: string): Promise<void> {
  await expect.poll(() => ui.page.locator('.toast').count(), { timeout: 10_000 }).toBe(0);
  await screenshot(ui.page, name);
}

/** Waits until the selected delivery is a new one (a replay selects what it sent). */
async function waitForSelectionOtherThan(id: string): Promise<string> {
  await expect.poll(selectedId, { timeout: 10_000 }).not.toBe(id);
  return selectedId();
}

beforeAll(async () => {
  hostile = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(HOSTILE);
  });
  await new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', resolve));
  hostileUrl = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}/hook`;
  ui = await startUiSession({ hash: '#/webhooks' });
});
afterAll(async () => {
  await ui.close();
  await new Promise((resolve) => hostile.close(resolve));
});

describe('Webhooks view', () => {
  it('shows the deliveries of a write live, newest first', async () => {
    await publishPost('Webhooks e2e first post');
    const toIndexer = rows().filter({ hasText: 'post.published' }).filter({ hasText: 'inbox:search-indexer' });
    const toDemo = rows().filter({ hasText: 'post.all' }).filter({ hasText: 'inbox:demo' });
    await toIndexer.waitFor();
    await toDemo.waitFor();
    expect(await rows().count()).toBe(2);
    // The row appears while its delivery is still sending; it must turn to succeeded in place.
    await toDemo.filter({ hasText: 'succeeded' }).waitFor();
  });

  it('opens a delivery: the exact request and every attempt, updated live', async () => {
    const { page } = ui;
    await rows().filter({ hasText: 'inbox:search-indexer' }).click();
    expect(page.url()).toMatch(/#\/webhooks\/[0-9a-f-]{36}$/);
    await detail().getByRole('tab', { name: 'Request' }).click();
    const request = detail().getByRole('region', { name: 'Request' });
    await request.waitFor();
    await expect(request.textContent()).resolves.toContain('/__emulator/inboxes/search-indexer');
    const headers = request.getByRole('table', { name: 'Request headers' });
    await expect(headers.getByRole('row', { name: /content-type/ }).textContent()).resolves.toContain('application/json');
    // The body pretty-printed, as sent.
    const body = await request.locator('pre').textContent();
    expect(body).toContain('"event": "post.published"');
    expect(body).toContain('\n  "data": {');
    expect(body).toContain('"id": "webhooks-e2e-first-post"');
    // The indexer fails its first delivery (500), the retry after 1 s succeeds: the detail follows.
    await detail()
      .getByRole('tab', { name: /^Attempts/ })
      .click();
    const attempts = detail().getByTestId('attempt');
    await attempts.nth(1).waitFor({ timeout: 15_000 });
    await expect(attempts.nth(0).textContent()).resolves.toContain('500');
    await expect(attempts.nth(0).locator('pre').textContent()).resolves.toContain('fails its first 1 deliveries');
    await expect(attempts.nth(1).textContent()).resolves.toContain('200');
    await expect(attempts.nth(1).locator('pre').textContent()).resolves.toContain('"received": true');
    await detail().getByRole('tab', { name: 'Attempts (2 of 3)' }).waitFor();
    await detail().locator('.detail-head').getByText('succeeded').waitFor();
    // The cause links to the API request that fired it.
    const cause = detail().getByRole('link', { name: 'the API request' });
    expect(await cause.getAttribute('href')).toMatch(/^#\/requests\/.+/);
    await screenshot(page, 'webhooks');
  });

  it('filters by state, event and target', async () => {
    const { page } = ui;
    await page.getByLabel('Target contains').fill('search');
    expect(await rows().count()).toBe(1);
    await page.getByLabel('Target contains').fill('');
    await page.getByLabel('Event').selectOption('post.all');
    expect(await rows().count()).toBe(1);
    await expect(rows().first().textContent()).resolves.toContain('inbox:demo');
    await page.getByLabel('Event').selectOption('');
    await page.getByLabel('State').selectOption('failed');
    await page.getByText('No delivery matches these filters.').waitFor();
    await page.getByLabel('State').selectOption('finished');
    expect(await rows().count()).toBe(2);
    await page.getByLabel('State').selectOption('');
  });

  it('replays a delivery: the new one points at its original and is selected', async () => {
    await rows().filter({ hasText: 'inbox:demo' }).click();
    const original = selectedId();
    await detail().getByRole('button', { name: 'Replay', exact: true }).click();
    const replayId = await waitForSelectionOtherThan(original);
    await detail().getByTestId('replay-of').waitFor();
    expect(await detail().getByTestId('replay-of').getAttribute('href')).toBe(`#/webhooks/${original}`);
    // The new row arrives live and is the selected one.
    await list().getByRole('option', { selected: true }).filter({ hasText: 'post.all' }).waitFor();
    expect(await rows().count()).toBe(3);
    const replay = await control<Delivery>(`deliveries/${replayId}`);
    expect(replay.replay_of).toBe(original);
    const first = await control<Delivery>(`deliveries/${original}`);
    expect(replay.request.body).toBe(first.request.body);
  });

  it('edits and replays: a clear message for bad JSON, then the edited body is what is sent', async () => {
    const { page } = ui;
    const original = selectedId();
    await detail().getByRole('button', { name: 'Edit & replay' }).click();
    const form = page.getByRole('form', { name: 'Edit and replay' });
    const body = form.getByLabel(/^Body/);
    expect(await body.inputValue()).toContain('\n  "data": {');
    expect(await form.getByLabel('Target').inputValue()).toBe('inbox:demo');
    await body.fill('{"data": {"id": "edited-slug"},');
    await form.getByRole('button', { name: 'Send replay' }).click();
    await form.getByRole('alert').filter({ hasText: 'The body is not valid JSON' }).waitFor();
    await form.getByLabel(/^Headers/).fill('{"x-edited": 1}');
    await form.getByRole('button', { name: 'Send replay' }).click();
    await form.getByRole('alert').filter({ hasText: 'Header "x-edited" must be a string' }).waitFor();
    await form.getByLabel(/^Headers/).fill('{\n  "content-type": "application/json",\n  "x-edited": "yes"\n}');
    const edited = { data: { id: 'edited-slug', _id: 999 }, webhook: { event: 'post.all', target: 'edited' } };
    await body.fill(JSON.stringify(edited, null, 2));
    expect(await form.getByRole('alert').count()).toBe(0);
    await quietScreenshot('webhooks-replay');
    await form.getByRole('button', { name: 'Send replay' }).click();
    const replayId = await waitForSelectionOtherThan(original);
    await detail().getByRole('tab', { name: 'Request' }).click();
    const request = detail().getByRole('region', { name: 'Request' });
    await expect(request.locator('pre').textContent()).resolves.toContain('"id": "edited-slug"');
    await expect(request.getByRole('table', { name: 'Request headers' }).textContent()).resolves.toContain('x-edited');
    const sent = await control<Delivery>(`deliveries/${replayId}`);
    expect(sent.replay_of).toBe(original);
    expect(sent.request.body).toBe(JSON.stringify(edited));
    expect(sent.request.headers).toEqual({ 'content-type': 'application/json', 'x-edited': 'yes' });
    // What the inbox received is the edited body.
    await detail()
      .getByRole('tab', { name: /^Attempts/ })
      .click();
    await detail().getByTestId('attempt').waitFor();
    const inbox = await control<{ requests: { body: string; headers: Record<string, string> }[] }>('inboxes/demo');
    expect(inbox.requests[0]!.body).toBe(JSON.stringify(edited));
    expect(inbox.requests[0]!.headers['x-edited']).toBe('yes');
  });

  it("shows a hostile receiver's answer as text and runs none of it", async () => {
    const { page } = ui;
    const original = selectedId();
    await detail().getByRole('button', { name: 'Edit & replay' }).click();
    const form = page.getByRole('form', { name: 'Edit and replay' });
    await form.getByLabel('Target').fill('not a url');
    await form.getByRole('button', { name: 'Send replay' }).click();
    await form.getByRole('alert').filter({ hasText: 'http(s) URL or inbox:<name>' }).waitFor();
    await form.getByLabel('Target').fill(hostileUrl);
    await form.getByRole('button', { name: 'Send replay' }).click();
    const replayId = await waitForSelectionOtherThan(original);
    const attempt = detail().getByTestId('attempt');
    await attempt.waitFor();
    await expect(attempt.locator('pre').textContent()).resolves.toBe(HOSTILE);
    await attempt.getByText(/^Response headers/).click();
    await expect(attempt.getByRole('table').textContent()).resolves.toContain('text/html');
    expect(await page.locator('[data-testid=delivery-detail] script, [data-testid=delivery-detail] img').count()).toBe(0);
    expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
    const sent = await control<Delivery>(`deliveries/${replayId}`);
    expect(sent.target).toBe(hostileUrl);
    expect(sent.webhook_id).toBeNull();
    expect(sent.attempts[0]!.response_body).toBe(HOSTILE);
    // Shown in the list by its URL.
    await list().getByRole('option', { selected: true }).filter({ hasText: '127.0.0.1' }).waitFor();
  });

  it("changes how an inbox answers: the server's checks, then the next delivery fails", async () => {
    const { page } = ui;
    await page.getByRole('navigation', { name: 'Webhooks sections' }).getByRole('link', { name: 'Inboxes' }).click();
    const table = page.getByRole('table', { name: 'Inboxes' });
    await table.getByRole('row', { name: /search-indexer/ }).waitFor();
    await expect(table.getByRole('row', { name: /search-indexer/ }).textContent()).resolves.toContain('1500 ms');
    await table.getByRole('link', { name: 'demo', exact: true }).click();
    expect(page.url()).toMatch(/#\/webhooks\/inboxes\/demo$/);
    const inbox = page.getByTestId('inbox-detail');
    // Which webhooks post to it, from every organization.
    await inbox.getByText('acme/site-rebuild').waitFor();
    await inbox.getByText('northwind/bakery-site').waitFor();
    const form = inbox.getByRole('form', { name: 'How inbox demo answers' });
    await form.getByLabel('Status').fill('99');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByRole('alert').filter({ hasText: '100' }).waitFor();
    await form.getByLabel('Status').fill('500');
    await form.getByRole('button', { name: 'Save' }).click();
    await table.getByRole('row', { name: /demo/ }).first().getByText('500').waitFor();
    expect((await control<{ status: number }>('inboxes/demo')).status).toBe(500);

    await publishPost('Webhooks e2e refused post');
    await page
      .getByRole('navigation', { name: 'Webhooks sections' })
      .getByRole('link', { name: /Deliveries/ })
      .click();
    const refused = rows().filter({ hasText: 'post.all' }).filter({ hasText: 'inbox:demo' }).first();
    await refused.filter({ hasText: 'failed' }).waitFor();
    await expect(refused.textContent()).resolves.toContain('500');
    await refused.click();
    await detail().getByTestId('attempt').filter({ hasText: '500' }).waitFor();

    // Back in the inbox: what it received, as text.
    await page.getByRole('navigation', { name: 'Webhooks sections' }).getByRole('link', { name: 'Inboxes' }).click();
    await table.getByRole('link', { name: 'demo', exact: true }).click();
    await inbox.getByTestId('inbox-request').first().waitFor();
    await expect(inbox.getByTestId('inbox-request').first().locator('pre').textContent()).resolves.toContain('webhooks-e2e-refused-post');
    await quietScreenshot('webhooks-inboxes');

    // Put it back, and empty it.
    await form.getByLabel('Status').fill('200');
    await form.getByRole('button', { name: 'Save' }).click();
    await table.getByRole('row', { name: /demo/ }).first().getByText('200').waitFor();
    await inbox.getByRole('button', { name: 'Clear received' }).click();
    await inbox.getByText('Nothing received yet.').waitFor();
    expect((await control<{ requests: unknown[] }>('inboxes/demo')).requests).toEqual([]);
  });

  it('moves through the list with the keyboard', async () => {
    const { page } = ui;
    await page
      .getByRole('navigation', { name: 'Webhooks sections' })
      .getByRole('link', { name: /Deliveries/ })
      .click();
    await list().focus();
    await page.keyboard.press('Home');
    const first = selectedId();
    await page.keyboard.press('ArrowDown');
    await expect.poll(selectedId).not.toBe(first);
    await detail().waitFor();
    // The edit form opens with the keyboard in it; Escape leaves it untouched, back on its button.
    const edit = detail().getByRole('button', { name: 'Edit & replay' });
    await edit.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('form', { name: 'Edit and replay' }).getByLabel('Target').and(page.locator(':focus')).waitFor();
    await page.keyboard.press('Escape');
    await edit.and(page.locator(':focus')).waitFor();
    // Replay from the keyboard: the new delivery is selected and has the focus.
    const before = selectedId();
    await detail().getByRole('button', { name: 'Replay', exact: true }).focus();
    await page.keyboard.press('Enter');
    await waitForSelectionOtherThan(before);
    await detail().locator('.detail-head:focus').waitFor();
  });

  it('clears every delivery after asking', async () => {
    const { page } = ui;
    await page.getByRole('button', { name: 'Clear all…' }).click();
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect(await rows().count()).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Clear all…' }).click();
    await page.getByRole('button', { name: 'Clear deliveries' }).click();
    await page.getByText('No deliveries yet.', { exact: false }).waitFor();
    expect(await control<unknown[]>('deliveries')).toEqual([]);
  });

  it('breaks no rule of the CSP and logs no error', () => {
    // The one 400 is the inbox form's refused status (99): Chromium logs every 4xx answer.
    const refused = 'Failed to load resource: the server responded with a status of 400 (Bad Request)';
    expect(ui.consoleErrors.filter((e) => e === refused)).toHaveLength(1);
    expect(ui.consoleErrors.filter((e) => e !== refused)).toEqual([]);
  });
});
