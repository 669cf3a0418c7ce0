import type { BrowserWindowConstructorOptions } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { createMainWindow, reveal, type ShellWindow } from '../../../electron/window.js';

class FakeWindow implements ShellWindow {
  static made: FakeWindow[] = [];
  readonly listeners = new Map<string, () => void>();
  loadURL = vi.fn(() => Promise.resolve());
  show = vi.fn();
  focus = vi.fn();
  restore = vi.fn();
  minimized = false;
  constructor(readonly options: BrowserWindowConstructorOptions) {
    FakeWindow.made.push(this);
  }
  isMinimized(): boolean {
    return this.minimized;
  }
  once(event: 'ready-to-show', listener: () => void): this {
    this.listeners.set(event, listener);
    return this;
  }
}

describe('createMainWindow', () => {
  const window = createMainWindow(FakeWindow, { preload: '/app/dist/electron/preload.cjs', title: 'CMS Emulator' });

  it('locks the renderer down as the Electron security checklist says', () => {
    expect(window.options.webPreferences).toEqual({
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      disableBlinkFeatures: 'Auxclick',
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: false,
      preload: '/app/dist/electron/preload.cjs',
    });
  });

  it('has no option that would loosen it (no enableBlinkFeatures, no additional arguments)', () => {
    const prefs = window.options.webPreferences ?? {};
    for (const key of ['enableBlinkFeatures', 'additionalArguments', 'partition', 'session', 'enableRemoteModule']) {
      expect(prefs).not.toHaveProperty(key);
    }
  });

  it('stays hidden until the UI has painted, then shows', () => {
    expect(window.options.show).toBe(false);
    expect(window.options.title).toBe('CMS Emulator');
    expect(window.show).not.toHaveBeenCalled();
    window.listeners.get('ready-to-show')!();
    expect(window.show).toHaveBeenCalledOnce();
  });
});

describe('reveal', () => {
  it('restores a minimised window, shows and focuses it', () => {
    const window = new FakeWindow({});
    window.minimized = true;
    reveal(window);
    expect(window.restore).toHaveBeenCalled();
    expect(window.show).toHaveBeenCalled();
    expect(window.focus).toHaveBeenCalled();
  });

  it('does not restore a window that is not minimised', () => {
    const window = new FakeWindow({});
    reveal(window);
    expect(window.restore).not.toHaveBeenCalled();
    expect(window.focus).toHaveBeenCalled();
  });
});
