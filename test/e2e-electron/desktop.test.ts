/**
 * The desktop app end to end, through Playwright's Electron support: the real binary, the compiled
 * shell (dist/electron), a real emulator over a temporary data folder. It runs wherever the
 * Electron binary is installed and a display is available; elsewhere (as on our CI machines,
 * where the binary cannot be downloaded) the suite is skipped and its title says why.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findElectron, INSTALL_HINT, noDisplayReason } from '../../scripts/support/electron-binary.js';
import { repoRoot } from '../../scripts/support/repo.js';

const MAIN = join(repoRoot, 'dist', 'electron', 'main.js');
const { binary, lookedAt } = findElectron();

function skipReason(): string | null {
  if (binary === null) return `no Electron binary at ${lookedAt}; ${INSTALL_HINT} installs it where it can be downloaded`;
  const noDisplay = noDisplayReason();
  if (noDisplay !== null) return noDisplay;
  if (!existsSync(MAIN) || !existsSync(join(repoRoot, 'dist', 'renderer', 'index.html'))) return 'the app is not built (npm run build)';
  return null;
}

const skip = skipReason();
if (skip !== null) console.warn(`test/e2e-electron: SKIPPED: ${skip}`);

describe.skipIf(skip !== null)(`desktop app${skip === null ? '' : ` (SKIPPED: ${skip})`}`, () => {
  let app: ElectronApplication;
  let page: Page;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'cms-desktop-e2e-'));
    app = await _electron.launch({ executablePath: binary!, args: [MAIN, '--port', '0', '--data', dataDir], cwd: repoRoot });
    // Links must not reach a real browser during the test: record them instead. (If the property
    // could not be replaced this throws, and the suite fails rather than open browser tabs.)
    await app.evaluate(({ shell }) => {
      const opened: string[] = [];
      (globalThis as unknown as { opened: string[] }).opened = opened;
      Object.defineProperty(shell, 'openExternal', {
        value: async (url: string) => {
          opened.push(url);
        },
      });
    });
    page = await app.firstWindow();
    await page.waitForURL(/\/__emulator\/ui\//);
  });

  afterAll(async () => {
    await app?.close().catch(() => undefined);
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const opened = () => app.evaluate(() => (globalThis as unknown as { opened: string[] }).opened);

  it("opens one window on the UI the emulator serves, with the server's CSP", async () => {
    expect(page.url()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/__emulator\/ui\/$/);
    const response = await fetch(page.url());
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(app.windows()).toHaveLength(1);
  });

  it('seeded the new data folder from the demo fixture', () => {
    expect(existsSync(join(dataDir, 'data.json'))).toBe(true);
  });

  it('gives the page no Node and only the three functions of the preload', async () => {
    expect(await page.evaluate('typeof require')).toBe('undefined');
    expect(await page.evaluate('typeof process')).toBe('undefined');
    expect(await page.evaluate('Object.keys(window.cmsDesktop).sort().join()')).toBe('copyText,openDataFolder,openInBrowser');
  });

  it('shows the window once the UI has painted', async () => {
    await expect.poll(() => app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]?.isVisible())).toBe(true);
  });

  it('keeps the window on the UI and sends other pages to the system browser', async () => {
    const before = page.url();
    await page.evaluate("location.href = 'https://example.com/elsewhere'");
    await expect.poll(opened).toContain('https://example.com/elsewhere');
    expect(page.url()).toBe(before);
  });

  it('opens no new window', async () => {
    expect(await page.evaluate("window.open('https://example.com/popup') === null")).toBe(true);
    await expect.poll(opened).toContain('https://example.com/popup');
    expect(app.windows()).toHaveLength(1);
  });

  it('denies permissions', async () => {
    expect(await page.evaluate("navigator.permissions.query({ name: 'notifications' }).then((s) => s.state)")).toBe('denied');
  });

  it('copies text through the preload', async () => {
    await page.evaluate("window.cmsDesktop.copyText('copied by the e2e test')");
    expect(await app.evaluate(({ clipboard }) => clipboard.readText())).toBe('copied by the e2e test');
  });

  it('refuses an IPC call with bad arguments', async () => {
    const error = await page.evaluate("window.cmsDesktop.openInBrowser('//evil.example/').then(() => 'accepted', (e) => String(e))");
    expect(error).toMatch(/only|path|address/);
    expect(await opened()).not.toContain('http://evil.example/');
  });

  it('finishes accepted writes and saves them when it quits', async () => {
    const data = JSON.parse(await readFile(join(dataDir, 'data.json'), 'utf8')) as { organizations: { tokens: { write: string } }[] };
    const token = data.organizations[0]!.tokens.write;
    const base = new URL(page.url()).origin;
    const res = await fetch(`${base}/v2/posts/`, {
      method: 'POST',
      headers: { Authorization: `Token ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: 'Written just before quitting', status: 'draft' }),
    });
    expect(res.status).toBe(202);
    await app.close();
    expect(await readFile(join(dataDir, 'data.json'), 'utf8')).toContain('Written just before quitting');
  });
});
