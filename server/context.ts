/** What every part of a running emulator shares: built once by createEmulator. */
import type { EventBus } from './bus.js';
import type { Clock } from './clock.js';
import type { EmulatorConfig } from './config.js';
import type { JobPayloads } from './jobs/kinds.js';
import type { JobQueue } from './jobs/queue.js';
import type { Store } from './store/store.js';

export interface EmulatorContext {
  config: EmulatorConfig;
  store: Store;
  jobs: JobQueue<JobPayloads>;
  bus: EventBus;
  clock: Clock;
}
