/**
 * The preload of the app's window: it gives the UI `window.cmsDesktop`, three named functions,
 * and nothing else (no ipcRenderer, no generic "send", no Node). Each passes only its declared
 * arguments on; the main process validates them again (ipc.ts).
 *
 * It runs sandboxed, where `require` knows only 'electron' and a few Node built-ins, so it is a
 * CommonJS file (.cts → .cjs) that imports nothing else: the channel names are repeated from
 * ipc.ts, and test/unit/electron/preload.test.ts checks both lists agree.
 *
 * The UI can tell it is in the desktop app by `window.cmsDesktop` being defined; in a browser it
 * is not, and the UI does the same things with links and navigator.clipboard.
 */
// A CommonJS module under verbatimModuleSyntax imports this way; the sandbox needs CommonJS.
// eslint-disable-next-line @typescript-eslint/no-require-imports
import electron = require('electron');

const CHANNELS = {
  openDataFolder: 'cms-desktop:open-data-folder',
  openInBrowser: 'cms-desktop:open-in-browser',
  copyText: 'cms-desktop:copy-text',
} as const;

const desktopApi = {
  /** Shows the data folder (data.json, media) in the system's file manager. */
  openDataFolder: (): Promise<void> => electron.ipcRenderer.invoke(CHANNELS.openDataFolder),
  /** Opens a path of the emulator (default: the UI) in the system browser, e.g. "/__emulator/openapi.json". */
  openInBrowser: (path?: string): Promise<void> => electron.ipcRenderer.invoke(CHANNELS.openInBrowser, path),
  /** Copies text to the clipboard (the window grants pages no clipboard permission). */
  copyText: (text: string): Promise<void> => electron.ipcRenderer.invoke(CHANNELS.copyText, text),
};

export type DesktopApi = typeof desktopApi;

electron.contextBridge.exposeInMainWorld('cmsDesktop', desktopApi);
