/**
 * The app menu and what its items do. The same actions serve the UI's calls over IPC
 * (open the data folder, copy text), so a menu item and a button in the UI behave alike.
 */
import type { Clipboard, MenuItemConstructorOptions, MessageBoxOptions, MessageBoxReturnValue, Shell } from 'electron';
import { openInSystemBrowser } from './navigation.js';
import type { DesktopActions } from './ipc.js';

export interface RunningEmulator {
  /** The data folder: data.json, media, journal. */
  dataFolder: string;
  /** Base URL of the emulated API, e.g. http://127.0.0.1:4010/v2 (what the user's site points at). */
  apiUrl: string;
  uiUrl: string;
  /** Back to the fixture the data folder was seeded from (POST /__emulator/reset does the same). */
  reset(): Promise<void>;
}

export interface ActionDeps {
  emulator: RunningEmulator;
  shell: Pick<Shell, 'openPath' | 'openExternal'>;
  clipboard: Pick<Clipboard, 'writeText'>;
  /** Asks the user; resolves true to go ahead. */
  confirm(message: string, detail: string): Promise<boolean>;
  showError(title: string, message: string): void;
  quit(): void;
}

export interface ShellActions extends DesktopActions {
  openUiInBrowser(): void;
  copyBaseUrl(): void;
  resetToFixture(): Promise<void>;
  quit(): void;
}

export function shellActions(deps: ActionDeps): ShellActions {
  const { emulator, shell, clipboard } = deps;
  return {
    async openDataFolder() {
      // openPath resolves to an error message, or '' when the folder was opened.
      const failure = await shell.openPath(emulator.dataFolder);
      if (failure !== '') deps.showError('Cannot open the data folder', `${emulator.dataFolder}: ${failure}`);
    },
    openInBrowser(url) {
      openInSystemBrowser(shell, url);
    },
    copyText(text) {
      clipboard.writeText(text);
    },
    openUiInBrowser() {
      openInSystemBrowser(shell, emulator.uiUrl);
    },
    copyBaseUrl() {
      clipboard.writeText(emulator.apiUrl);
    },
    async resetToFixture() {
      const go = await deps.confirm(
        'Reset the data to the fixture?',
        `Everything in ${emulator.dataFolder} that is not in the fixture (your edits, API writes) is replaced. Snapshots are kept.`,
      );
      if (!go) return;
      try {
        await emulator.reset();
      } catch (err) {
        deps.showError('Reset failed', err instanceof Error ? err.message : String(err));
      }
    },
    quit: () => deps.quit(),
  };
}

/** A confirm() for ActionDeps on top of Electron's dialog. */
export function dialogConfirm(
  showMessageBox: (options: MessageBoxOptions) => Promise<MessageBoxReturnValue>,
): (message: string, detail: string) => Promise<boolean> {
  return async (message, detail) => {
    const { response } = await showMessageBox({
      type: 'warning',
      buttons: ['Reset', 'Cancel'],
      defaultId: 1,
      cancelId: 1,
      message,
      detail,
    });
    return response === 0;
  };
}

/** The menu bar: the emulator's own items, then the standard Edit, View and Window menus. */
export function menuTemplate(actions: ShellActions, platform: NodeJS.Platform, appName: string): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin';
  const quit: MenuItemConstructorOptions = { label: `Quit ${appName}`, accelerator: 'CmdOrCtrl+Q', click: () => actions.quit() };
  const emulatorMenu: MenuItemConstructorOptions = {
    label: 'Emulator',
    submenu: [
      { label: 'Open Data Folder', accelerator: 'CmdOrCtrl+Shift+O', click: () => void actions.openDataFolder() },
      { label: 'Open UI in Browser', click: () => actions.openUiInBrowser() },
      { label: 'Copy Base URL', click: () => actions.copyBaseUrl() },
      { type: 'separator' },
      { label: 'Reset to Fixture…', click: () => void actions.resetToFixture() },
      ...(mac ? [] : [{ type: 'separator' } as const, quit]),
    ],
  };
  const appMenu: MenuItemConstructorOptions = {
    label: appName,
    submenu: [
      { role: 'about' },
      { type: 'separator' },
      { role: 'services' },
      { type: 'separator' },
      { role: 'hide' },
      { role: 'hideOthers' },
      { role: 'unhide' },
      { type: 'separator' },
      quit,
    ],
  };
  return [...(mac ? [appMenu] : []), emulatorMenu, { role: 'editMenu' }, { role: 'viewMenu' }, { role: 'windowMenu' }];
}
