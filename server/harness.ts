/**
 * The test harness (issue 6): one call starts an emulator on a free port over a temporary copy of
 * a fixture and returns everything a test suite needs; `close()` stops it and removes the copy.
 *
 *   const cms = await startEmulator();            // the demo fixture
 *   await fetch(`${cms.apiUrl}/posts/?auth_token=${cms.tokens.acme.read}`);
 *   await cms.reset();                            // between tests
 *   await cms.close();
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EmulatorOptions } from './config.js';
import { createEmulator, type Emulator, type OrganizationInfo } from './emulator.js';
import type { LoggedRequest } from './http/request-log.js';
import type { Delivery } from './webhooks/delivery.js';

export interface StartOptions extends Omit<EmulatorOptions, 'dataDir' | 'port'> {
  /** Default 0 (a free port). */
  port?: number;
  /** Default: a new temporary folder, removed by close(). */
  dataDir?: string;
}

export interface EmulatorHandle {
  /** Root of the server, e.g. http://127.0.0.1:39123 */
  url: string;
  /** Base URL of the emulated API (…/v2). */
  apiUrl: string;
  /** Base URL of the image CDN (…/cdn). */
  cdnUrl: string;
  /** Base URL of the control API (…/__emulator). */
  controlUrl: string;
  /** The emulator's window, for a browser (…/__emulator/ui/). */
  uiUrl: string;
  dataDir: string;
  /** Tokens by organization slug. */
  tokens: Record<string, { read: string; write: string }>;
  organizations: OrganizationInfo[];
  /** The emulator itself, for anything the handle does not cover. */
  emulator: Emulator;
  /** Back to the fixture; cheap enough to run before every test. */
  reset(): Promise<void>;
  snapshot(name: string): void;
  restore(name: string): void;
  /** Resolves when every accepted write has finished (and, by default, every webhook delivery). */
  idle(options?: { deliveries?: boolean }): Promise<void>;
  clock: {
    now(): Date;
    set(date: Date | string, options?: { freeze?: boolean }): void;
    advance(ms: number): void;
    /** Back to real time. */
    real(): void;
  };
  /** Logged requests to the API and CDN, newest first. */
  requests(): LoggedRequest[];
  /** Webhook deliveries, newest first. */
  deliveries(): Delivery[];
  /** The first finished delivery (succeeded or failed) matching `predicate`, waiting for one. */
  waitForDelivery(predicate: (delivery: Delivery) => boolean, options?: { timeoutMs?: number }): Promise<Delivery>;
  /** Stops the emulator and removes its temporary data folder. */
  close(): Promise<void>;
}

const finished = (d: Delivery) => d.state === 'succeeded' || d.state === 'failed';

export async function startEmulator(options: StartOptions = {}): Promise<EmulatorHandle> {
  const temporary = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'cms-emulator-')));
  let emulator: Emulator;
  let running: Awaited<ReturnType<Emulator['start']>>;
  try {
    emulator = await createEmulator({ ...options, dataDir, port: options.port ?? 0 });
    running = await emulator.start();
  } catch (err) {
    if (temporary) await rm(dataDir, { recursive: true, force: true });
    throw err;
  }
  const organizations = emulator.organizations();

  return {
    url: running.url,
    apiUrl: running.apiUrl,
    cdnUrl: running.cdnUrl,
    uiUrl: running.uiUrl,
    controlUrl: `${running.url}/__emulator`,
    dataDir,
    tokens: Object.fromEntries(organizations.map((o) => [o.slug, { read: o.readToken, write: o.writeToken }])),
    organizations,
    emulator,
    reset: () => emulator.state.reset(),
    snapshot: (name) => void emulator.state.save(name),
    restore: (name) => emulator.state.restore(name),
    async idle({ deliveries = true } = {}) {
      await emulator.idle();
      if (deliveries) await emulator.webhooks.idle();
    },
    clock: {
      now: () => emulator.clock.now(),
      set: (date, { freeze = false } = {}) => emulator.clock.set(new Date(date), freeze),
      advance: (ms) => emulator.clock.advance(ms),
      real: () => emulator.clock.reset(),
    },
    requests: () => emulator.requests.list(),
    deliveries: () => emulator.webhooks.log.list(),
    waitForDelivery(predicate, { timeoutMs = 5000 } = {}) {
      const existing = emulator.webhooks.log
        .list()
        .reverse()
        .find((d) => finished(d) && predicate(d));
      if (existing) return Promise.resolve(existing);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          unsubscribe();
          reject(new Error(`waitForDelivery: no matching delivery within ${timeoutMs} ms`));
        }, timeoutMs);
        const unsubscribe = emulator.bus.subscribe((event) => {
          if (event.type === 'delivery.updated' && finished(event.delivery) && predicate(event.delivery)) {
            clearTimeout(timer);
            unsubscribe();
            resolve(event.delivery);
          }
        });
      });
    },
    async close() {
      await emulator.stop();
      if (temporary) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
