/**
 * The preload as Electron runs it: preload.cts transpiled to CommonJS (as tsc does) and evaluated
 * in a fresh context whose `require` knows only 'electron', like a sandboxed preload's. So this
 * also proves the preload needs nothing a sandbox refuses.
 */
import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import ts from 'typescript';
import { describe, expect, it, vi } from 'vitest';
import { CHANNELS, ipcHandlers } from '../../../electron/ipc.js';
import { uiLocation } from '../../../electron/navigation.js';

const source = readFileSync(new URL('../../../electron/preload.cts', import.meta.url), 'utf8');
const UI_URL = 'http://127.0.0.1:4321/__emulator/ui/';

function loadPreload(invoke: (channel: string, ...args: unknown[]) => Promise<unknown>) {
  const exposed = new Map<string, Record<string, unknown>>();
  const electron = {
    contextBridge: { exposeInMainWorld: (key: string, api: Record<string, unknown>) => exposed.set(key, api) },
    ipcRenderer: { invoke: vi.fn(invoke) },
  };
  const required: string[] = [];
  const code = ts.transpileModule(source, { fileName: 'preload.cts', compilerOptions: { module: ts.ModuleKind.CommonJS } }).outputText;
  const module = { exports: {} };
  runInNewContext(code, {
    module,
    exports: module.exports,
    require: (name: string) => {
      required.push(name);
      if (name !== 'electron') throw new Error(`a sandboxed preload cannot require "${name}"`);
      return electron;
    },
  });
  return { exposed, required, invoke: electron.ipcRenderer.invoke };
}

describe('preload', () => {
  it('requires nothing but electron, and exposes one object of three functions as window.cmsDesktop', () => {
    const { exposed, required } = loadPreload(() => Promise.resolve());
    expect(required).toEqual(['electron']);
    expect([...exposed.keys()]).toEqual(['cmsDesktop']);
    const api = exposed.get('cmsDesktop')!;
    expect(Object.keys(api).sort()).toEqual(['copyText', 'openDataFolder', 'openInBrowser']);
    for (const value of Object.values(api)) expect(typeof value).toBe('function');
  });

  it('passes on only the declared arguments, on the channels ipc.ts handles', async () => {
    const { exposed, invoke } = loadPreload(() => Promise.resolve());
    const api = exposed.get('cmsDesktop') as Record<string, (...args: unknown[]) => Promise<unknown>>;
    await api['openDataFolder']!('ignored', 'extra');
    await api['openInBrowser']!('/__emulator/openapi.json', 'extra');
    await api['copyText']!('token', 'extra');
    expect(invoke.mock.calls).toEqual([
      [CHANNELS.openDataFolder],
      [CHANNELS.openInBrowser, '/__emulator/openapi.json'],
      [CHANNELS.copyText, 'token'],
    ]);
  });

  it('reaches the main-process handlers end to end, which accept what it sends', async () => {
    const actions = { openDataFolder: vi.fn(), openInBrowser: vi.fn(), copyText: vi.fn() };
    const handlers = ipcHandlers(actions, uiLocation(UI_URL), UI_URL);
    const event = { senderFrame: { url: UI_URL } } as never;
    const { exposed } = loadPreload((channel, ...args) => {
      const handler = handlers[channel];
      if (!handler) return Promise.reject(new Error(`no handler for ${channel}`));
      return handler(event, ...args);
    });
    const api = exposed.get('cmsDesktop') as Record<string, (...args: unknown[]) => Promise<unknown>>;
    await api['openDataFolder']!();
    await api['openInBrowser']!();
    await api['openInBrowser']!('/v2/');
    await api['copyText']!('hello');
    expect(actions.openDataFolder).toHaveBeenCalledOnce();
    expect(actions.openInBrowser.mock.calls).toEqual([[UI_URL], ['http://127.0.0.1:4321/v2/']]);
    expect(actions.copyText).toHaveBeenCalledWith('hello');
  });
});
