import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { claimSingleInstance, quitOnSignals, quitWhenWindowsClosed, stopBeforeQuit } from '../../../electron/lifecycle.js';
import { FakeApp } from './fakes.js';

function deferred() {
  let resolve!: () => void;
  let reject!: (err: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('stopBeforeQuit', () => {
  it('holds the quit until the emulator has stopped, then quits', async () => {
    const app = new FakeApp();
    const stopping = deferred();
    const stop = vi.fn(() => stopping.promise);
    stopBeforeQuit(app, { stop, log: () => undefined });

    app.quit();
    expect(app.quitted).toBe(false);
    app.quit(); // asked again while stopping: still held, and stop() is not run twice
    expect(stop).toHaveBeenCalledOnce();
    expect(app.quitted).toBe(false);

    stopping.resolve();
    await vi.waitFor(() => expect(app.quitted).toBe(true));
    expect(app.exitCode).toBeNull();
  });

  it('exits with an error code when stopping fails', async () => {
    const app = new FakeApp();
    const log = vi.fn();
    stopBeforeQuit(app, { stop: () => Promise.reject(new Error('disk full')), log });
    app.quit();
    await vi.waitFor(() => expect(app.exitCode).toBe(1));
    expect(log).toHaveBeenCalledWith(expect.stringContaining('disk full'));
  });

  it('gives up after the timeout rather than hang', async () => {
    vi.useFakeTimers();
    const app = new FakeApp();
    const log = vi.fn();
    stopBeforeQuit(app, { stop: () => new Promise<void>(() => undefined), log, timeoutMs: 5000 });
    app.quit();
    await vi.advanceTimersByTimeAsync(5000);
    expect(app.exitCode).toBe(1);
    expect(log).toHaveBeenCalledWith(expect.stringContaining('did not stop in time'));
  });
});

describe('claimSingleInstance', () => {
  it('lets the first instance run and shows it when a second one starts', () => {
    const app = new FakeApp();
    const show = vi.fn();
    expect(claimSingleInstance(app, show)).toBe(true);
    app.emit('second-instance', {}, ['electron', '.']);
    expect(show).toHaveBeenCalledOnce();
  });

  it('tells a second instance to leave', () => {
    const app = new FakeApp();
    app.lock = false;
    const show = vi.fn();
    expect(claimSingleInstance(app, show)).toBe(false);
    expect(app.listenerCount('second-instance')).toBe(0);
  });
});

describe('quitWhenWindowsClosed', () => {
  it('quits when the last window closes, except on macOS', () => {
    for (const [platform, quits] of [
      ['linux', true],
      ['win32', true],
      ['darwin', false],
    ] as const) {
      const app = new FakeApp();
      quitWhenWindowsClosed(app, platform);
      app.emit('window-all-closed');
      expect(app.quitted, platform).toBe(quits);
    }
  });
});

describe('quitOnSignals', () => {
  it('turns SIGINT and SIGTERM into a normal quit (which flushes the store)', () => {
    const proc = new EventEmitter();
    const app = { quit: vi.fn() };
    quitOnSignals(proc as unknown as NodeJS.Process, app);
    proc.emit('SIGINT');
    proc.emit('SIGTERM');
    expect(app.quit).toHaveBeenCalledTimes(2);
  });
});
