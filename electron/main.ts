/**
 * The desktop app's main process: a thin host of createEmulator() (ARCHITECTURE: one factory,
 * thin hosts). It only wires Electron's objects into the modules next to it, which hold the
 * logic and are unit-tested without Electron: args.ts (command line), first-run.ts (data folder),
 * window.ts (window options), navigation.ts (what pages may load and ask), ipc.ts (the preload's
 * calls), menu.ts (menu and actions), lifecycle.ts (one instance, flush on quit).
 */
import { app, BrowserWindow, clipboard, dialog, ipcMain, Menu, session, shell } from 'electron';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createEmulator } from '../server/index.js';
import { parseDesktopArgs } from './args.js';
import { planDataFolder, startNote } from './first-run.js';
import { registerIpc } from './ipc.js';
import { claimSingleInstance, quitOnSignals, quitWhenWindowsClosed, stopBeforeQuit } from './lifecycle.js';
import { dialogConfirm, menuTemplate, shellActions } from './menu.js';
import { denyAllPermissions, guardContents, uiLocation } from './navigation.js';
import { createMainWindow, reveal } from './window.js';

const PRODUCT_NAME = 'CMS Emulator';
const PRELOAD = fileURLToPath(new URL('./preload.cjs', import.meta.url));

// Before ready: the userData folder (and so the default data folder) is named after the product,
// the same in development and in the packaged app.
app.setName(PRODUCT_NAME);
// Every renderer sandboxed, whatever created it.
app.enableSandbox();

let mainWindow: BrowserWindow | null = null;

async function start(): Promise<void> {
  const args = parseDesktopArgs(process.argv.slice(1));
  const plan = planDataFolder(
    {
      requested: args.data,
      fixture: args.fixture,
      userData: app.getPath('userData'),
      appPath: app.getAppPath(),
      packaged: app.isPackaged,
      cwd: process.cwd(),
    },
    existsSync,
  );
  const emulator = await createEmulator({ port: args.port, dataDir: plan.dataDir, fixture: plan.fixture });
  const running = await emulator.start();
  stopBeforeQuit(app, { stop: () => emulator.stop(), log: (message) => console.log(message) });
  console.log(
    [
      `${PRODUCT_NAME} is running`,
      `  API base URL   ${running.apiUrl}`,
      `  UI             ${running.uiUrl}`,
      `  ${startNote(emulator.dataFile)}`,
    ].join('\n'),
  );

  const ui = uiLocation(running.uiUrl);
  denyAllPermissions(session.defaultSession);
  // Registered before any window exists, so every web contents is guarded from its creation.
  app.on('web-contents-created', (_event, contents) => guardContents(contents, ui, shell));

  const actions = shellActions({
    emulator: {
      dataFolder: plan.dataDir,
      apiUrl: running.apiUrl,
      uiUrl: running.uiUrl,
      reset: () => emulator.state.reset(),
    },
    shell,
    clipboard,
    confirm: dialogConfirm((options) => (mainWindow ? dialog.showMessageBox(mainWindow, options) : dialog.showMessageBox(options))),
    showError: (title, message) => dialog.showErrorBox(title, message),
    quit: () => app.quit(),
  });
  registerIpc(ipcMain, actions, ui, running.uiUrl);
  Menu.setApplicationMenu(Menu.buildFromTemplate(menuTemplate(actions, process.platform, PRODUCT_NAME)));

  const openWindow = (): void => {
    const window = createMainWindow(BrowserWindow, { preload: PRELOAD, title: PRODUCT_NAME });
    window.on('closed', () => {
      if (mainWindow === window) mainWindow = null;
    });
    mainWindow = window;
    window.loadURL(running.uiUrl).catch((err: unknown) => console.error(`Cannot load ${running.uiUrl}: ${String(err)}`));
  };
  // macOS: clicking the dock icon after the window was closed brings a new one.
  app.on('activate', () => {
    if (mainWindow === null) openWindow();
  });
  openWindow();
}

if (claimSingleInstance(app, () => mainWindow && reveal(mainWindow))) {
  quitOnSignals(process, app);
  quitWhenWindowsClosed(app, process.platform);
  app
    .whenReady()
    .then(start)
    .catch((err: unknown) => {
      const message = err instanceof Error ? err.message : String(err);
      console.error(`${PRODUCT_NAME} could not start: ${message}`);
      dialog.showErrorBox(`${PRODUCT_NAME} could not start`, message);
      app.exit(1);
    });
} else {
  app.quit();
}
