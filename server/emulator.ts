/**
 * createEmulator: the one factory that the CLI, the test harness and Electron all host
 * (ARCHITECTURE: one factory, thin hosts). It seeds the data folder, loads the store, wires the
 * job queue and the bus, and builds the express app; start/stop bind it to a port.
 */
import type { AddressInfo } from 'node:net';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { localCertificate } from './http/tls.js';
import { dirname, join, resolve } from 'node:path';
import type { Express } from 'express';
import { createApp } from './app.js';
import { ReadReplay } from './http/read-replay.js';
import { expressMessageClasses } from './http/express-messages.js';
import type { QueryParser } from './http/request-log.js';
import { EventBus } from './bus.js';
import { EmulatorClock } from './clock.js';
import { parseOptions, type EmulatorConfig, type EmulatorOptions } from './config.js';
import type { EmulatorContext } from './context.js';
import type { JobPayloads } from './jobs/kinds.js';
import { registerContentJobs } from './jobs/content-jobs.js';
import { registerMediaJobs } from './jobs/media-jobs.js';
import { CDN_PATH } from './media/cdn-path.js';
import { UI_PATH } from './ui/static.js';
import { registerPostJobs } from './jobs/post-jobs.js';
import { JobJournal } from './jobs/journal.js';
import type { Cause } from './domain/events.js';
import { startScheduler } from './jobs/scheduler.js';
import { JobQueue } from './jobs/queue.js';
import { packageVersion, prepareDataDir, resolveFixture } from './store/seed.js';
import { Store } from './store/store.js';
import { StoreWatcher } from './store/watch.js';
import { RequestLog } from './http/request-log.js';
import { StateService } from './control/state-service.js';
import { createEventStream } from './control/events.js';
import { DeliveryLog } from './webhooks/delivery-log.js';
import { WebhookDispatcher } from './webhooks/dispatcher.js';
import { InboxHub } from './webhooks/inboxes.js';

export interface OrganizationInfo {
  slug: string;
  name: string;
  readToken: string;
  writeToken: string;
}

export interface RunningInfo {
  /** Root of the server, e.g. http://127.0.0.1:4010 */
  url: string;
  /** Base URL of the emulated API, e.g. http://127.0.0.1:4010/v2 */
  apiUrl: string;
  /** Base URL of the image CDN (the spec's cdn_url), e.g. http://127.0.0.1:4010/cdn */
  cdnUrl: string;
  /** The emulator's window (requests, content, webhooks), served to any browser. */
  uiUrl: string;
  port: number;
}

export interface Emulator {
  readonly app: Express;
  readonly config: EmulatorConfig;
  readonly store: Store;
  readonly bus: EventBus;
  readonly jobs: JobQueue<JobPayloads>;
  /** The emulator's clock: set, freeze or advance it to move scheduled content along. */
  readonly clock: EmulatorClock;
  /** Webhook deliveries: the log, replay, waiting for one. */
  readonly webhooks: WebhookDispatcher;
  /** The built-in webhook receivers. */
  readonly inboxes: InboxHub;
  /** Requests to the emulated API and the CDN, newest kept. */
  readonly requests: RequestLog;
  /** Reset, fixtures, import/export, snapshots. */
  readonly state: StateService;
  /** Watches the data file for people's edits while running. */
  readonly watcher: StoreWatcher;
  /** Repeated reads answered before Express while the store is unchanged (its `hits` count them). */
  readonly readReplay: ReadReplay;
  /** Path of the data file and whether this start created it from the fixture. */
  readonly dataFile: { path: string; seeded: boolean; fixture: string };
  organizations(): OrganizationInfo[];
  /** With `https`, the certificate file clients may trust (after start). */
  certificateFile(): string | null;
  start(): Promise<RunningInfo>;
  /** Stops listening, lets accepted writes finish, and puts everything on disk. */
  stop(): Promise<void>;
  /** Resolves when every accepted write has finished and the store is on disk. */
  idle(): Promise<void>;
}

export async function createEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const config = parseOptions(options);
  const fixture = resolveFixture(config.fixture);
  const dataDir = resolve(config.dataDir);
  const { file, seeded } = await prepareDataDir(dataDir, fixture);
  const store = await Store.open(file);
  const bus = new EventBus();
  const clock = new EmulatorClock();
  const jobs = new JobQueue<JobPayloads>(clock, bus);
  const ctx: EmulatorContext = { config, store, jobs, bus, clock };
  registerPostJobs(ctx);
  registerContentJobs(ctx);
  registerMediaJobs(ctx, { timeoutMs: config.downloadTimeoutMs, maxBytes: config.downloadMaxBytes });
  let stopScheduler: (() => void) | null = null;

  // Accepted jobs are journaled before their 202; what a previous run left unfinished runs again.
  const journal = new JobJournal(
    join(dirname(file), 'journal', 'journal.ndjson'),
    undefined,
    config.journalSync,
    join(dirname(file), 'journal.ndjson'),
  );
  const unfinished = await journal.recover();
  store.observer = journal;
  jobs.useJournal({
    append: (job) => journal.append(job),
    // A job that leaves nothing to write is done at once; otherwise once its write is on disk.
    jobFinished: (id) => (store.busy ? journal.jobFinished(id) : journal.writeDone([id])),
  });
  for (const job of unfinished) {
    if (!jobs.handles(job.kind)) {
      console.error(`cms-emulator: a journaled job of unknown kind "${job.kind}" was skipped`);
      continue;
    }
    jobs.enqueue(
      job.kind as keyof JobPayloads & string,
      job.payload as never,
      { organization: job.organization, cause: job.cause as Cause },
      { id: job.id },
    );
  }

  let server: Server | null = null;
  let certificate: string | null = null;
  let serverUrl: string | null = null;
  const deliveryLog = await DeliveryLog.open(join(dirname(file), 'deliveries.json'));
  const webhooks = new WebhookDispatcher(ctx, deliveryLog, () => serverUrl);
  webhooks.attach();
  const inboxes = new InboxHub(store, clock);
  const requests = new RequestLog();
  const state = new StateService(ctx, fixture);
  const watcher = new StoreWatcher(store, bus, () => clock.now());
  const events = createEventStream(ctx, { requests, webhooks, clock, watcher });
  const app = createApp(ctx, { webhooks, inboxes, requests, state, clock, events, watcher, version: packageVersion() });
  const replay = new ReadReplay({
    revision: () => store.revision,
    basePath: config.basePath,
    log: requests,
    bus,
    clock,
    parseQuery: app.get('query parser fn') as QueryParser | undefined,
  });

  async function idle(): Promise<void> {
    while (!jobs.isIdle()) await jobs.idle();
    await store.flush();
  }

  return {
    app,
    config,
    store,
    bus,
    jobs,
    clock,
    webhooks,
    inboxes,
    requests,
    state,
    watcher,
    readReplay: replay,
    dataFile: { path: file, seeded, fixture },
    certificateFile: () => certificate,
    organizations: () =>
      store.organizations().map((org) => ({ slug: org.slug, name: org.name, readToken: org.tokens.read, writeToken: org.tokens.write })),
    idle,

    async start() {
      if (server) throw new Error('the emulator is already started');
      const tls = config.https ? await localCertificate(dirname(file)) : null;
      certificate = tls?.certFile ?? null;
      // Repeated reads are answered before Express when nothing changed (http/read-replay.ts).
      const handler = (req: IncomingMessage, res: ServerResponse) => {
        if (!replay.handle(req, res)) app(req, res);
      };
      // Made with the app's prototypes, so Express need not swap them per request (http/express-messages.ts).
      const messageClasses = expressMessageClasses(app);
      const listening = tls
        ? createHttpsServer({ key: tls.key, cert: tls.cert, ...messageClasses }, handler)
        : createServer(messageClasses, handler);
      await new Promise<void>((resolveListen, reject) => {
        listening.once('error', reject);
        listening.listen(config.port, config.host, () => {
          listening.off('error', reject);
          resolveListen();
        });
      });
      server = listening;
      stopScheduler = startScheduler(ctx, clock);
      if (config.watch) await watcher.start();
      const { port } = listening.address() as AddressInfo;
      const host = config.host.includes(':') ? `[${config.host}]` : config.host;
      const url = `${tls ? 'https' : 'http'}://${host}:${port}`;
      serverUrl = url;
      return { url, apiUrl: url + config.basePath, cdnUrl: url + CDN_PATH, uiUrl: url + UI_PATH + '/', port };
    },

    async stop() {
      await watcher.stop();
      events.close();
      stopScheduler?.();
      stopScheduler = null;
      const closing = server;
      server = null;
      // No new connections from here; requests in flight finish.
      const closed = closing ? new Promise<void>((done) => closing.close(() => done())) : Promise.resolve();
      closing?.closeIdleConnections();
      await idle();
      await journal.close();
      // Deliveries in flight get a moment (a receiver may take seconds), then the rest is stopped
      // and recorded as failed, so nothing keeps the process alive. This comes before waiting for
      // the server, whose own inboxes may be what those deliveries are talking to.
      let grace: NodeJS.Timeout | undefined;
      await Promise.race([webhooks.idle(), new Promise((resolve) => (grace = setTimeout(resolve, 1000)))]);
      clearTimeout(grace);
      await webhooks.close();
      // Then every socket goes, after a last moment for slow requests.
      const timer = setTimeout(() => closing?.closeAllConnections(), 2000);
      await closed;
      clearTimeout(timer);
      await deliveryLog.close();
    },
  };
}
