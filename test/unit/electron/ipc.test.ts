import { describe, expect, it, vi } from 'vitest';
import { CHANNELS, emulatorAddress, ipcHandlers, IpcRefused, registerIpc, type DesktopActions } from '../../../electron/ipc.js';
import { uiLocation } from '../../../electron/navigation.js';

const UI_URL = 'http://127.0.0.1:4321/__emulator/ui/';
const ui = uiLocation(UI_URL);
const fromUi = { senderFrame: { url: 'http://127.0.0.1:4321/__emulator/ui/#/content' } } as never;

function setUp() {
  const actions = { openDataFolder: vi.fn(), openInBrowser: vi.fn(), copyText: vi.fn() } satisfies DesktopActions;
  return { actions, handlers: ipcHandlers(actions, ui, UI_URL) };
}

describe('registerIpc', () => {
  it('handles exactly the three channels of the preload', () => {
    const ipcMain = { handle: vi.fn() };
    registerIpc(ipcMain, setUp().actions, ui, UI_URL);
    expect(ipcMain.handle.mock.calls.map(([channel]) => channel).sort()).toEqual(Object.values(CHANNELS).sort());
  });
});

describe('the IPC handlers', () => {
  it('do what the UI asks, with the arguments checked', async () => {
    const { actions, handlers } = setUp();
    await handlers[CHANNELS.openDataFolder]!(fromUi);
    await handlers[CHANNELS.copyText]!(fromUi, 'acme-read-7f3c9a1e5b');
    await handlers[CHANNELS.openInBrowser]!(fromUi, '/__emulator/openapi.json');
    await handlers[CHANNELS.openInBrowser]!(fromUi, undefined);
    await handlers[CHANNELS.openInBrowser]!(fromUi);
    expect(actions.openDataFolder).toHaveBeenCalledOnce();
    expect(actions.copyText).toHaveBeenCalledWith('acme-read-7f3c9a1e5b');
    expect(actions.openInBrowser.mock.calls).toEqual([['http://127.0.0.1:4321/__emulator/openapi.json'], [UI_URL], [UI_URL]]);
  });

  it.each([
    ['a page that is not the UI', { senderFrame: { url: 'http://127.0.0.1:4321/v2/posts/' } }],
    ['another origin', { senderFrame: { url: 'https://example.com/__emulator/ui/' } }],
    ['an inline sub-frame (the preview of untrusted HTML)', { senderFrame: { url: 'about:srcdoc' } }],
    ['a frame already gone', { senderFrame: null }],
  ])('refuse calls from %s', async (_what, event) => {
    const { actions, handlers } = setUp();
    for (const [channel, args] of [
      [CHANNELS.openDataFolder, []],
      [CHANNELS.copyText, ['x']],
      [CHANNELS.openInBrowser, ['/']],
    ] as const) {
      await expect(handlers[channel]!(event as never, ...args)).rejects.toThrow(IpcRefused);
    }
    expect(actions.openDataFolder).not.toHaveBeenCalled();
    expect(actions.copyText).not.toHaveBeenCalled();
    expect(actions.openInBrowser).not.toHaveBeenCalled();
  });

  it.each([
    [CHANNELS.openDataFolder, ['/etc']],
    [CHANNELS.copyText, []],
    [CHANNELS.copyText, [42]],
    [CHANNELS.copyText, [{ toString: 'x' }]],
    [CHANNELS.copyText, ['x'.repeat(100_001)]],
    [CHANNELS.copyText, ['a', 'b']],
    [CHANNELS.openInBrowser, ['https://example.com/']],
    [CHANNELS.openInBrowser, ['//example.com/x']],
    [CHANNELS.openInBrowser, ['/\\example.com']],
    [CHANNELS.openInBrowser, ['javascript:alert(1)']],
    [CHANNELS.openInBrowser, ['file:///etc/passwd']],
    [CHANNELS.openInBrowser, ['relative/path']],
    [CHANNELS.openInBrowser, ['/a b']],
    [CHANNELS.openInBrowser, [7]],
  ])('refuse %s with arguments %j', async (channel, args) => {
    const { actions, handlers } = setUp();
    await expect(handlers[channel]!(fromUi, ...args)).rejects.toThrow(IpcRefused);
    expect(actions.openDataFolder).not.toHaveBeenCalled();
    expect(actions.copyText).not.toHaveBeenCalled();
    expect(actions.openInBrowser).not.toHaveBeenCalled();
  });
});

describe('emulatorAddress', () => {
  it('resolves paths on the emulator and refuses to leave it', () => {
    const origin = 'http://127.0.0.1:4321';
    expect(emulatorAddress(origin, '/v2/posts/?page=2', UI_URL)).toBe('http://127.0.0.1:4321/v2/posts/?page=2');
    expect(emulatorAddress(origin, '/../../etc', UI_URL)).toBe('http://127.0.0.1:4321/etc');
    expect(emulatorAddress(origin, undefined, UI_URL)).toBe(UI_URL);
    expect(() => emulatorAddress(origin, '//evil.example/', UI_URL)).toThrow(IpcRefused);
  });
});
