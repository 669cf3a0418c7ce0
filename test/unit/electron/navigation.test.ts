import { describe, expect, it, vi } from 'vitest';
import {
  browserSafeUrl,
  denyAllPermissions,
  guardContents,
  isUiUrl,
  openInSystemBrowser,
  uiLocation,
} from '../../../electron/navigation.js';
import { FakeContents, fakeShell, navigationEvent } from './fakes.js';

const UI_URL = 'http://127.0.0.1:4321/__emulator/ui/';
const ui = uiLocation(UI_URL);

describe('isUiUrl', () => {
  it.each([
    ['http://127.0.0.1:4321/__emulator/ui/', true],
    ['http://127.0.0.1:4321/__emulator/ui', true],
    ['http://127.0.0.1:4321/__emulator/ui/#/requests?id=3', true],
    ['http://127.0.0.1:4321/__emulator/ui/assets/index-abc.js', true],
    // Same origin but not the UI: the API, the CDN, the control API, a look-alike prefix.
    ['http://127.0.0.1:4321/v2/posts/', false],
    ['http://127.0.0.1:4321/__emulator/state', false],
    ['http://127.0.0.1:4321/__emulator/uix/', false],
    ['http://127.0.0.1:4321/__emulator/ui/../state', false],
    ['http://127.0.0.1:4321/__emulator/ui/%2e%2e/state', false],
    // Another origin: port, host, scheme.
    ['http://127.0.0.1:4322/__emulator/ui/', false],
    ['http://localhost:4321/__emulator/ui/', false],
    ['https://127.0.0.1:4321/__emulator/ui/', false],
    ['http://127.0.0.1:4321@evil.example/__emulator/ui/', false],
    ['file:///etc/passwd', false],
    ['javascript:alert(1)', false],
    ['not a url', false],
  ])('%s → %s', (url, expected) => {
    expect(isUiUrl(url, ui)).toBe(expected);
  });

  it('takes the origin and path from the running uiUrl, with or without its trailing slash', () => {
    expect(uiLocation('http://[::1]:80/__emulator/ui')).toEqual({ origin: 'http://[::1]', pathPrefix: '/__emulator/ui/' });
  });
});

describe('browserSafeUrl and openInSystemBrowser', () => {
  it.each([
    ['https://example.com/a?b=c', 'https://example.com/a?b=c'],
    ['http://127.0.0.1:4321/v2/posts/', 'http://127.0.0.1:4321/v2/posts/'],
    ['file:///etc/passwd', null],
    ['javascript:alert(1)', null],
    ['smb://server/share', null],
    ['ms-settings:', null],
    ['data:text/html,<script>1</script>', null],
    ['https://user:secret@example.com/', null],
    ['//example.com/', null],
    ['', null],
  ])('%s → %s', (url, expected) => {
    expect(browserSafeUrl(url)).toBe(expected);
    const shell = fakeShell();
    expect(openInSystemBrowser(shell, url)).toBe(expected !== null);
    expect(shell.openExternal.mock.calls).toEqual(expected === null ? [] : [[expected]]);
  });

  it('swallows a failure of the system browser (nothing to do about it in the window)', async () => {
    const shell = { openExternal: vi.fn(() => Promise.reject(new Error('no browser'))) };
    expect(openInSystemBrowser(shell, 'https://example.com/')).toBe(true);
    await new Promise((resolve) => setImmediate(resolve));
  });
});

describe('guardContents', () => {
  function guarded() {
    const contents = new FakeContents();
    const shell = fakeShell();
    guardContents(contents.asContents(), ui, shell);
    return { contents, shell };
  }

  it('lets the main frame move within the UI', () => {
    const { contents, shell } = guarded();
    const event = navigationEvent('http://127.0.0.1:4321/__emulator/ui/#/webhooks');
    contents.emit('will-navigate', event);
    expect(event.preventDefault).not.toHaveBeenCalled();
    expect(shell.openExternal).not.toHaveBeenCalled();
  });

  it('keeps the main frame on the UI and hands other http(s) pages to the system browser', () => {
    const { contents, shell } = guarded();
    for (const url of ['https://example.com/docs', 'http://127.0.0.1:4321/v2/feeds/rss/']) {
      const event = navigationEvent(url);
      contents.emit('will-navigate', event);
      expect(event.preventDefault).toHaveBeenCalled();
    }
    expect(shell.openExternal.mock.calls).toEqual([['https://example.com/docs'], ['http://127.0.0.1:4321/v2/feeds/rss/']]);
  });

  it('refuses other schemes outright, without opening anything', () => {
    const { contents, shell } = guarded();
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'vscode://open']) {
      const event = navigationEvent(url);
      contents.emit('will-navigate', event);
      expect(event.preventDefault).toHaveBeenCalled();
    }
    expect(shell.openExternal).not.toHaveBeenCalled();
  });

  it('refuses a redirect away from the UI without opening it', () => {
    const { contents, shell } = guarded();
    const away = navigationEvent('https://example.com/');
    const within = navigationEvent('http://127.0.0.1:4321/__emulator/ui/index.html');
    contents.emit('will-redirect', away);
    contents.emit('will-redirect', within);
    expect(away.preventDefault).toHaveBeenCalled();
    expect(within.preventDefault).not.toHaveBeenCalled();
    expect(shell.openExternal).not.toHaveBeenCalled();
  });

  it('lets sub-frames hold inline content or the UI, nothing else', () => {
    const { contents, shell } = guarded();
    const allowed = ['about:srcdoc', 'about:blank', 'http://127.0.0.1:4321/__emulator/ui/preview'];
    const refused = ['https://example.com/', 'http://127.0.0.1:4321/v2/posts/', 'data:text/html,hi', 'javascript:1'];
    for (const url of allowed) {
      const event = navigationEvent(url, false);
      contents.emit('will-frame-navigate', event);
      expect(event.preventDefault, url).not.toHaveBeenCalled();
    }
    for (const url of refused) {
      const event = navigationEvent(url, false);
      contents.emit('will-frame-navigate', event);
      expect(event.preventDefault, url).toHaveBeenCalled();
    }
    // A sub-frame's link is not handed to the browser: untrusted HTML could open pages at will.
    expect(shell.openExternal).not.toHaveBeenCalled();
    // The main frame is will-navigate's business.
    const main = navigationEvent('https://example.com/', true);
    contents.emit('will-frame-navigate', main);
    expect(main.preventDefault).not.toHaveBeenCalled();
  });

  it('never opens a new Electron window; http(s) targets go to the system browser', () => {
    const { contents, shell } = guarded();
    const handler = contents.windowOpenHandler!;
    expect(handler({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
    expect(handler({ url: 'http://127.0.0.1:4321/__emulator/ui/' })).toEqual({ action: 'deny' });
    expect(handler({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(shell.openExternal.mock.calls).toEqual([['https://example.com/'], ['http://127.0.0.1:4321/__emulator/ui/']]);
  });

  it('refuses <webview>', () => {
    const { contents } = guarded();
    const event = { preventDefault: vi.fn() };
    contents.emit('will-attach-webview', event);
    expect(event.preventDefault).toHaveBeenCalled();
  });
});

describe('denyAllPermissions', () => {
  it('answers no to every request, check and device', () => {
    const session = { setPermissionRequestHandler: vi.fn(), setPermissionCheckHandler: vi.fn(), setDevicePermissionHandler: vi.fn() };
    denyAllPermissions(session);
    const request = session.setPermissionRequestHandler.mock.calls[0]![0] as (c: unknown, p: string, cb: (ok: boolean) => void) => void;
    for (const permission of ['media', 'notifications', 'clipboard-read', 'clipboard-sanitized-write', 'openExternal', 'geolocation']) {
      const callback = vi.fn();
      request({}, permission, callback);
      expect(callback).toHaveBeenCalledWith(false);
    }
    const check = session.setPermissionCheckHandler.mock.calls[0]![0] as (...args: unknown[]) => boolean;
    expect(check(null, 'clipboard-read', 'http://127.0.0.1:4321', {})).toBe(false);
    const device = session.setDevicePermissionHandler.mock.calls[0]![0] as (...args: unknown[]) => boolean;
    expect(device({ deviceType: 'usb' })).toBe(false);
  });
});
