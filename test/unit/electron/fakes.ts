/**
 * Stand-ins for the Electron objects the shell's modules take as arguments: just enough behaviour
 * to observe what the modules do with them. The real `electron` module is never imported in unit
 * tests (outside Electron it tries to download the binary).
 */
import { EventEmitter } from 'node:events';
import { vi } from 'vitest';
import type { GuardedContents } from '../../../electron/navigation.js';

/** An event as Electron passes to will-navigate and friends. */
export function navigationEvent(url: string, isMainFrame = true) {
  return { url, isMainFrame, preventDefault: vi.fn() };
}

/** A WebContents: an event emitter with a window-open handler slot. */
export class FakeContents extends EventEmitter {
  windowOpenHandler: ((details: { url: string }) => { action: 'deny' }) | null = null;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void {
    this.windowOpenHandler = handler;
  }
  /** Typed as the WebContents it stands for (whose `on` returns a WebContents). */
  asContents(): GuardedContents {
    return this as unknown as GuardedContents;
  }
}

export function fakeShell() {
  return {
    openExternal: vi.fn((_url: string) => Promise.resolve()),
    openPath: vi.fn((_path: string) => Promise.resolve('')),
  };
}

/** Electron's `app` as far as lifecycle.ts sees it: quit() emits before-quit, as Electron does. */
export class FakeApp extends EventEmitter {
  quitted = false;
  exitCode: number | null = null;
  lock = true;
  requestSingleInstanceLock(): boolean {
    return this.lock;
  }
  quit(): void {
    const event = {
      prevented: false,
      preventDefault() {
        this.prevented = true;
      },
    };
    this.emit('before-quit', event);
    if (!event.prevented) this.quitted = true;
  }
  exit(code = 0): void {
    this.exitCode = code;
  }
}
