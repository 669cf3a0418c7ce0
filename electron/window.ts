/**
 * The one window of the desktop app. Its options are the Electron security checklist written
 * down (https://www.electronjs.org/docs/latest/tutorial/security): the page it shows is the
 * emulator's UI, which displays untrusted text (post bodies, webhook responses), so the renderer
 * gets no Node, no shared context with the preload, and Chromium's sandbox.
 *
 * The constructor comes in as an argument (tests pass a fake) and is called `BrowserWindow` on
 * purpose: electronegativity recognises `new BrowserWindow({...})` by that name and checks the
 * literal options below, so keep them literal and in this call.
 */
import type { BrowserWindowConstructorOptions } from 'electron';

/** The part of a BrowserWindow the shell uses (a real BrowserWindow satisfies it). */
export interface ShellWindow {
  loadURL(url: string): Promise<void>;
  show(): void;
  focus(): void;
  restore(): void;
  isMinimized(): boolean;
  once(event: 'ready-to-show', listener: () => void): unknown;
}

export type WindowConstructor<W extends ShellWindow = ShellWindow> = new (options: BrowserWindowConstructorOptions) => W;

export interface MainWindowOptions {
  /** Absolute path of the compiled preload (preload.cjs: sandboxed preloads are CommonJS). */
  preload: string;
  title: string;
}

export function createMainWindow<W extends ShellWindow>(BrowserWindow: WindowConstructor<W>, options: MainWindowOptions): W {
  const window = new BrowserWindow({
    title: options.title,
    width: 1280,
    height: 820,
    minWidth: 720,
    minHeight: 480,
    // Shown once the UI has painted, so the user never sees an empty white frame.
    show: false,
    backgroundColor: '#ffffff',
    webPreferences: {
      // The renderer runs in Chromium's sandbox with no Node.js, in a world separate from the preload.
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      // Same-origin policy on, no http content in an https page, nothing experimental.
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      // No <webview>: a guest page could be given other preferences than these.
      webviewTag: false,
      // No auxclick (middle-click) events: Doyensec's advice, so a middle click cannot open a
      // link by a path that skips the new-window checks; the UI has no use for them.
      disableBlinkFeatures: 'Auxclick',
      // Dropping a file or link on the window must not navigate away from the UI.
      navigateOnDragDrop: false,
      // A page that loops on alert() can be silenced by the user.
      safeDialogs: true,
      spellcheck: false,
      // Reviewed: preload.cts exposes three named functions through contextBridge, each one IPC call whose arguments ipc.ts validates; no Node API reaches the page.
      preload: options.preload, // eng-disable PRELOAD_JS_CHECK
    },
  });
  window.once('ready-to-show', () => window.show());
  return window;
}

/** Brings the window back to the front (a second launch of the app lands here). */
export function reveal(window: ShellWindow): void {
  if (window.isMinimized()) window.restore();
  window.show();
  window.focus();
}
