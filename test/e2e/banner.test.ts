/**
 * The banner for a broken data file, against a real emulator on the demo fixture: the test edits
 * the running emulator's data.json by hand. Invalid JSON raises the banner with its line and
 * column, a schema violation with its path, and putting the original text back takes it away.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './support/browser.js';
import { startUiSession, type UiSession } from './support/session.js';

let ui: UiSession;
let file = '';
let original = '';

beforeAll(async () => {
  ui = await startUiSession({ hash: '#/settings' });
  file = join(ui.cms.dataDir, 'data.json');
  original = await readFile(file, 'utf8');
});
afterAll(async () => {
  if (original) await writeFile(file, original);
  await ui.close();
});

const banner = () => ui.page.getByTestId('store-error-banner');

describe('Broken data file banner', () => {
  it('is not there while the file is fine', async () => {
    await ui.page.getByLabel('Data folder', { exact: true }).waitFor();
    expect(await banner().count()).toBe(0);
  });

  it('appears with the line and column of invalid JSON', async () => {
    const lines = original.split('\n');
    expect(lines[0]).toBe('{');
    // Line 2 becomes `  oops`: the parser stops at its third character.
    await writeFile(file, [lines[0], '  oops', ...lines.slice(1)].join('\n'));
    await banner().waitFor();
    expect(await banner().getAttribute('role')).toBe('alert');
    await expect.poll(() => banner().textContent()).toContain('invalid JSON at line 2, column 3');
    // The data-file card says so too.
    await expect.poll(() => ui.page.getByTestId('store-status').textContent()).toContain('Invalid edit: invalid JSON at line 2, column 3');
    await ui.page.getByTestId('store-status').scrollIntoViewIfNeeded();
    await screenshot(ui.page, 'banner');
  });

  it('names the path of a schema violation', async () => {
    const data = JSON.parse(original) as { organizations: Record<string, unknown>[] };
    data.organizations[0]!['page_limit'] = 'many';
    await writeFile(file, JSON.stringify(data, null, 2) + '\n');
    await expect.poll(() => banner().textContent()).toContain('organizations[0].page_limit');
    expect(await banner().textContent()).not.toContain('line 2, column 3');
  });

  it('goes away when the valid text is back, and the API still serves the same data', async () => {
    await writeFile(file, original);
    await banner().waitFor({ state: 'detached' });
    await expect.poll(() => ui.page.getByTestId('store-status').textContent()).toContain('Matches what the emulator serves');
    const res = await fetch(`${ui.cms.apiUrl}/posts/?auth_token=${ui.cms.tokens['acme']!.read}`);
    expect(res.status).toBe(200);
  });

  it('breaks no rule of the CSP and logs no error', () => {
    expect(ui.consoleErrors).toEqual([]);
  });
});
