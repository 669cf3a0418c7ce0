/**
 * Starting and quitting: one instance at a time, and no quit before the emulator has let accepted
 * writes finish and put the store on disk (emulator.stop()), whether the user quits from the menu,
 * closes the last window, or the process gets SIGINT/SIGTERM (Ctrl+C in the terminal of `npm start`).
 */

type Listener<A extends unknown[]> = (...args: A) => void;

/** The part of Electron's `app` used here (the real `app` satisfies it). */
export interface LifecycleApp {
  on(event: 'before-quit', listener: Listener<[event: { preventDefault(): void }]>): unknown;
  on(event: 'window-all-closed', listener: Listener<[]>): unknown;
  on(event: 'second-instance', listener: Listener<[event: unknown, argv: string[]]>): unknown;
  requestSingleInstanceLock(): boolean;
  quit(): void;
  exit(exitCode?: number): void;
}

/**
 * Claims the single-instance lock. A second launch exits at once and the first one shows its
 * window (`onSecondInstance`): two emulators over one data folder would fight over its file.
 */
export function claimSingleInstance(app: LifecycleApp, onSecondInstance: () => void): boolean {
  if (!app.requestSingleInstanceLock()) return false;
  app.on('second-instance', () => onSecondInstance());
  return true;
}

export interface StopOnQuitOptions {
  stop(): Promise<void>;
  log(message: string): void;
  /** After this long, quit anyway (stop() has its own grace periods; this is the last resort). */
  timeoutMs?: number;
}

/**
 * Holds the first quit until stop() has finished, then quits for real. A quit asked for while
 * stopping waits for the same stop.
 */
export function stopBeforeQuit(app: LifecycleApp, options: StopOnQuitOptions): void {
  let state: 'running' | 'stopping' | 'stopped' = 'running';
  app.on('before-quit', (event) => {
    if (state === 'stopped') return;
    event.preventDefault();
    if (state === 'stopping') return;
    state = 'stopping';
    options.log('Quitting: finishing accepted writes and saving…');
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), options.timeoutMs ?? 20_000);
    });
    Promise.race([options.stop().then(() => 'stopped' as const), timeout]).then(
      (outcome) => {
        clearTimeout(timer);
        state = 'stopped';
        if (outcome === 'timeout') {
          options.log('The emulator did not stop in time; quitting anyway (accepted writes are in the journal).');
          app.exit(1);
        } else app.quit();
      },
      (err: unknown) => {
        clearTimeout(timer);
        state = 'stopped';
        options.log(`Error while stopping the emulator: ${err instanceof Error ? err.message : String(err)}`);
        app.exit(1);
      },
    );
  });
}

/** Closing the last window quits (and so stops the emulator), except on macOS where apps stay in the dock. */
export function quitWhenWindowsClosed(app: LifecycleApp, platform: NodeJS.Platform): void {
  app.on('window-all-closed', () => {
    if (platform !== 'darwin') app.quit();
  });
}

/** Ctrl+C or a kill in a terminal quits through the same path as the menu, so the store is flushed. */
export function quitOnSignals(proc: Pick<NodeJS.Process, 'on'>, app: Pick<LifecycleApp, 'quit'>): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) proc.on(signal, () => app.quit());
}
