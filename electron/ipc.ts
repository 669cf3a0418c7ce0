/**
 * The few things the UI may ask of the desktop shell, over IPC. Everything else the UI does goes
 * over HTTP to the emulator, exactly as in a browser (ARCHITECTURE: one live channel, no second
 * IPC stream). Each call is checked twice (Electron security checklist, "validate the sender of
 * all IPC messages"): it must come from a frame showing the UI, and its arguments must match the
 * channel's zod schema. Anything else is refused with an error the page sees as a rejection.
 */
import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import { z } from 'zod';
import { isUiUrl, type UiLocation } from './navigation.js';

/**
 * Channel names. preload.cts repeats them (a sandboxed preload can require nothing but
 * 'electron'); test/unit/electron/preload.test.ts checks the two lists agree.
 */
export const CHANNELS = {
  openDataFolder: 'cms-desktop:open-data-folder',
  openInBrowser: 'cms-desktop:open-in-browser',
  copyText: 'cms-desktop:copy-text',
} as const;

export type ChannelName = keyof typeof CHANNELS;

/** A path of the emulator (e.g. "/__emulator/openapi.json"): absolute, same origin, not "//host". */
const emulatorPath = z
  .string()
  .max(2048)
  .regex(/^\/(?![/\\])[^\\\s]*$/, 'a path of the emulator, starting with a single "/"');

export const ARGUMENTS = {
  openDataFolder: z.tuple([]),
  openInBrowser: z.tuple([emulatorPath.optional()]),
  copyText: z.tuple([z.string().max(100_000)]),
} satisfies Record<ChannelName, z.ZodType<unknown[]>>;

export interface DesktopActions {
  openDataFolder(): Promise<void> | void;
  /** Opens an address of the emulator (already checked to be on its origin) in the system browser. */
  openInBrowser(url: string): Promise<void> | void;
  copyText(text: string): Promise<void> | void;
}

export class IpcRefused extends Error {}

/** Resolves `path` against the emulator's origin and insists the result stays there. */
export function emulatorAddress(origin: string, path: string | undefined, fallback: string): string {
  if (path === undefined) return fallback;
  const url = new URL(path, origin);
  if (url.origin !== origin) throw new IpcRefused('the address is not on the emulator');
  return url.href;
}

type Handler = (event: Pick<IpcMainInvokeEvent, 'senderFrame'>, ...args: unknown[]) => Promise<void>;

/** The handlers by channel, before registration (exported so tests can call them directly). */
export function ipcHandlers(actions: DesktopActions, ui: UiLocation, uiUrl: string): Record<string, Handler> {
  function checked<K extends ChannelName>(channel: K, run: (args: z.output<(typeof ARGUMENTS)[K]>) => Promise<void> | void): Handler {
    return async (event, ...args) => {
      const frameUrl = event.senderFrame?.url;
      if (frameUrl === undefined || !isUiUrl(frameUrl, ui))
        throw new IpcRefused(`${CHANNELS[channel]}: only the emulator's UI may call this`);
      const parsed = ARGUMENTS[channel].safeParse(args);
      if (!parsed.success) throw new IpcRefused(`${CHANNELS[channel]}: ${z.prettifyError(parsed.error)}`);
      await run(parsed.data as z.output<(typeof ARGUMENTS)[K]>);
    };
  }
  return {
    [CHANNELS.openDataFolder]: checked('openDataFolder', () => actions.openDataFolder()),
    [CHANNELS.openInBrowser]: checked('openInBrowser', ([path]) => actions.openInBrowser(emulatorAddress(ui.origin, path, uiUrl))),
    [CHANNELS.copyText]: checked('copyText', ([text]) => actions.copyText(text)),
  };
}

export function registerIpc(ipcMain: Pick<IpcMain, 'handle'>, actions: DesktopActions, ui: UiLocation, uiUrl: string): void {
  for (const [channel, handler] of Object.entries(ipcHandlers(actions, ui, uiUrl))) ipcMain.handle(channel, handler);
}
