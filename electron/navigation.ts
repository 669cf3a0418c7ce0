/**
 * What the app's web contents may load, open and ask for (Electron security checklist, items
 * "limit navigation", "limit creation of new windows", "handle permission requests" and "do not
 * use shell.openExternal with untrusted content").
 *
 * The rule: a window shows the emulator's UI and nothing else. Any other http(s) address (the
 * emulator's own API and feeds included) is refused in the window and handed to the system
 * browser; every other scheme is refused outright. No new Electron windows, no <webview>, no
 * permission (camera, notifications, clipboard, ...) granted to any page.
 */
import type { Session, Shell, WebContents } from 'electron';

/** Where the UI lives: its origin and path prefix, from the running emulator's `uiUrl`. */
export interface UiLocation {
  origin: string;
  pathPrefix: string;
}

export function uiLocation(uiUrl: string): UiLocation {
  const url = new URL(uiUrl);
  return { origin: url.origin, pathPrefix: url.pathname.endsWith('/') ? url.pathname : url.pathname + '/' };
}

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** True for an address of the UI itself: same origin (scheme, host, port) and under its path. */
export function isUiUrl(url: string, ui: UiLocation): boolean {
  const parsed = parse(url);
  if (!parsed || parsed.origin !== ui.origin) return false;
  // new URL() has already resolved dot segments, so "/__emulator/ui/../x" cannot pass as the UI.
  return parsed.pathname === ui.pathPrefix.slice(0, -1) || parsed.pathname.startsWith(ui.pathPrefix);
}

/** The address to give the system browser, or null: only plain http(s), no credentials in it. */
export function browserSafeUrl(url: string): string | null {
  const parsed = parse(url);
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) return null;
  if (parsed.username !== '' || parsed.password !== '') return null;
  return parsed.href;
}

/**
 * The only door to the system browser. Anything else than http(s) (file:, smb:, custom schemes
 * that launch programs) is refused, so a link in untrusted content cannot run anything.
 */
export function openInSystemBrowser(shell: Pick<Shell, 'openExternal'>, url: string): boolean {
  const safe = browserSafeUrl(url);
  if (safe === null) return false;
  // Reviewed: `safe` is an http(s) URL checked just above; see browserSafeUrl.
  void shell.openExternal(safe).catch(() => undefined); // eng-disable OPEN_EXTERNAL_JS_CHECK
  return true;
}

/** Frames inside the UI (the sandboxed preview of an HTML body) may hold only these besides the UI. */
const INERT_FRAME_URLS = new Set(['about:blank', 'about:srcdoc']);

/** The part of WebContents this module touches (tests pass an EventEmitter). */
export type GuardedContents = Pick<WebContents, 'on' | 'setWindowOpenHandler'>;

/**
 * Locks one web contents down. Called for every web contents the app creates
 * (`app.on('web-contents-created')`), so nothing escapes by being created later.
 */
export function guardContents(contents: GuardedContents, ui: UiLocation, shell: Pick<Shell, 'openExternal'>): void {
  // A link or script taking the main frame elsewhere: stay on the UI, show the page in the browser.
  contents.on('will-navigate', (event) => {
    if (isUiUrl(event.url, ui)) return;
    event.preventDefault();
    openInSystemBrowser(shell, event.url);
  });
  // A UI address that redirects elsewhere is refused too (and not handed on: nobody clicked it).
  contents.on('will-redirect', (event) => {
    if (!isUiUrl(event.url, ui)) event.preventDefault();
  });
  // Sub-frames (will-navigate covers only the main frame): the preview iframe holds untrusted
  // HTML, so it may show inline content or the UI, never load another site.
  contents.on('will-frame-navigate', (event) => {
    if (event.isMainFrame || INERT_FRAME_URLS.has(event.url) || isUiUrl(event.url, ui)) return;
    event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  // window.open and target=_blank: never a new Electron window; http(s) goes to the browser.
  contents.setWindowOpenHandler(({ url }) => {
    openInSystemBrowser(shell, url);
    return { action: 'deny' };
  });
}

/** Every permission request and check is answered "no", for every page, in this session. */
export function denyAllPermissions(
  session: Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler' | 'setDevicePermissionHandler'>,
): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
}
