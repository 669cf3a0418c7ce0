/**
 * The background queue that finishes 202-accepted writes (spec: "Write operations … are accepted
 * asynchronously"). Jobs are a kind plus a plain-data payload, so they can be recorded and later
 * journaled; they run one at a time in acceptance order, so a PATCH never overtakes the POST it
 * follows. A failed job keeps its reason: the API never reports it, the control surface will.
 *
 * Kinds registered `beside` the line (media downloads) run next to it, a few at a time: they wait
 * on other machines, and one slow image server must not hold every later write back. They
 * touch the store only in one synchronous step at their end, checking that what they update is
 * still there, so running beside the line cannot reorder writes.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { EventBus } from '../bus.js';
import type { Cause } from '../domain/events.js';
import { WriteFailure } from '../domain/errors.js';

export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed';

export interface JobRecord {
  id: string;
  kind: string;
  organization: string;
  status: JobStatus;
  /** Why the job failed, in words a user can act on; null unless failed. */
  error: string | null;
  cause: Cause;
  created: string;
  started: string | null;
  finished: string | null;
}

type Handler<P> = (payload: P, job: JobRecord) => Promise<void> | void;

/** How many jobs of the kinds beside the line run at once. */
const BESIDE_CONCURRENCY = 4;

type Pending = { record: JobRecord; payload: unknown; durable: Promise<void> };

/** Keeps the newest records; older finished ones are dropped so memory stays bounded. */
const DEFAULT_HISTORY = 2000;

/** What the queue needs of the journal (server/jobs/journal.ts) and of the store's writes. */
export interface Durability {
  append(job: { id: string; kind: string; organization: string; cause: unknown; payload: unknown }): Promise<void>;
  jobFinished(id: string): void;
}

export class JobQueue<Payloads extends object> {
  private readonly handlers = new Map<keyof Payloads, Handler<never>>();
  private readonly besideKinds = new Set<keyof Payloads>();
  private readonly pending: Pending[] = [];
  /** Jobs of the kinds beside the line, not started yet, oldest first. */
  private readonly besideQueue: Pending[] = [];
  private besideRunning = 0;
  private durability: Durability | null = null;
  private readonly history: JobRecord[] = [];
  private running = false;
  private waiters: (() => void)[] = [];

  constructor(
    private readonly clock: Clock,
    private readonly bus: EventBus,
    private readonly historySize = DEFAULT_HISTORY,
  ) {}

  /** Journals every job from now on (the emulator sets it once its journal is open). */
  useJournal(durability: Durability): void {
    this.durability = durability;
  }

  handles(kind: string): boolean {
    return this.handlers.has(kind as keyof Payloads);
  }

  register<K extends keyof Payloads>(kind: K, handler: Handler<Payloads[K]>, options: { beside?: boolean } = {}): void {
    this.handlers.set(kind, handler as Handler<never>);
    if (options.beside) this.besideKinds.add(kind);
  }

  /**
   * Accepts a write: queues the job and resolves once it is journaled on disk, so the caller may
   * answer 202 knowing a crash cannot lose it.
   */
  async accept<K extends keyof Payloads & string>(
    kind: K,
    payload: Payloads[K],
    meta: { organization: string; cause: Cause },
  ): Promise<JobRecord> {
    const { record, durable } = this.add(kind, payload, meta);
    await durable;
    return record;
  }

  /** Queues a job (journaled in the background); `replayed` jobs come from the journal already. */
  enqueue<K extends keyof Payloads & string>(
    kind: K,
    payload: Payloads[K],
    meta: { organization: string; cause: Cause },
    replayed?: { id: string },
  ): JobRecord {
    return this.add(kind, payload, meta, replayed).record;
  }

  private add<K extends keyof Payloads & string>(
    kind: K,
    payload: Payloads[K],
    meta: { organization: string; cause: Cause },
    replayed?: { id: string },
  ): { record: JobRecord; durable: Promise<void> } {
    if (!this.handlers.has(kind)) throw new Error(`no handler for job kind ${kind}`);
    const record: JobRecord = {
      id: replayed?.id ?? randomUUID(),
      kind,
      organization: meta.organization,
      status: 'queued',
      error: null,
      cause: meta.cause,
      created: this.clock.now().toISOString(),
      started: null,
      finished: null,
    };
    const durable =
      replayed || !this.durability
        ? Promise.resolve()
        : this.durability.append({ id: record.id, kind, organization: meta.organization, cause: meta.cause, payload });
    durable.catch((err: unknown) => console.error('cms-emulator: could not journal a job:', err));
    this.remember(record);
    if (this.besideKinds.has(kind)) {
      this.besideQueue.push({ record, payload, durable });
      this.bus.emit({ type: 'job.queued', job: record });
      this.afterAnswer(durable, () => this.startBeside());
      return { record, durable };
    }
    this.pending.push({ record, payload, durable });
    this.bus.emit({ type: 'job.queued', job: record });
    if (!this.running) {
      this.running = true;
      this.afterAnswer(durable, () => void this.drain());
    }
    return { record, durable };
  }

  /**
   * Drops every job not yet started (a reset replaced the state they were accepted against);
   * they are recorded as failed with `reason`. A job already running finishes.
   */
  clear(reason: string): number {
    const dropped = [...(this.running ? this.pending.splice(1) : this.pending.splice(0)), ...this.besideQueue.splice(0)];
    for (const { record } of dropped) {
      record.status = 'failed';
      record.error = reason;
      record.finished = this.clock.now().toISOString();
      this.durability?.jobFinished(record.id);
      this.bus.emit({ type: 'job.failed', job: record });
    }
    return dropped.length;
  }

  /** Payloads of jobs not yet finished, oldest first (lets validation see accepted writes). */
  pendingPayloads<K extends keyof Payloads>(kind: K): Payloads[K][] {
    return [...this.pending, ...this.besideQueue].filter((p) => p.record.kind === kind).map((p) => p.payload as Payloads[K]);
  }

  list(): readonly JobRecord[] {
    return this.history;
  }

  isIdle(): boolean {
    return !this.running && this.pending.length === 0 && this.besideRunning === 0 && this.besideQueue.length === 0;
  }

  /** Resolves when every accepted job has finished (succeeded or failed). */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private async drain(): Promise<void> {
    while (this.pending.length > 0) {
      const next = this.pending[0]!;
      await this.run(next.record, next.payload);
      this.pending.shift();
    }
    this.running = false;
    this.wakeIfIdle();
  }

  /**
   * Background work starts once the job is journaled and a turn later, so the 202 that waited
   * for the journal is written first. (Started sooner, the job's work ran during the journal's
   * fsync and the answer waited for it: ~2 ms more per write.)
   */
  private afterAnswer(durable: Promise<void>, start: () => void): void {
    const later = () => setImmediate(start);
    durable.then(later, later);
  }

  private wakeIfIdle(): void {
    if (!this.isIdle()) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }

  /** Starts jobs beside the line while there is room; each start pulls the next when it ends. */
  private startBeside(): void {
    while (this.besideRunning < BESIDE_CONCURRENCY && this.besideQueue.length > 0) {
      const next = this.besideQueue.shift()!;
      this.besideRunning++;
      void this.run(next.record, next.payload).finally(() => {
        this.besideRunning--;
        this.startBeside();
        this.wakeIfIdle();
      });
    }
  }

  private async run(record: JobRecord, payload: unknown): Promise<void> {
    const handler = this.handlers.get(record.kind as keyof Payloads) as Handler<unknown>;
    record.status = 'running';
    record.started = this.clock.now().toISOString();
    this.bus.emit({ type: 'job.started', job: record });
    try {
      await handler(payload, record);
      record.status = 'succeeded';
    } catch (err) {
      record.status = 'failed';
      record.error = err instanceof Error ? err.message : String(err);
      // An expected failure (bad reference, late conflict) needs no stack trace in the log.
      if (!(err instanceof WriteFailure)) console.error(`cms-emulator: job ${record.kind} ${record.id} failed:`, err);
    }
    record.finished = this.clock.now().toISOString();
    this.durability?.jobFinished(record.id);
    this.bus.emit({ type: record.status === 'failed' ? 'job.failed' : 'job.succeeded', job: record });
  }

  private remember(record: JobRecord): void {
    this.history.push(record);
    if (this.history.length > this.historySize) this.history.splice(0, this.history.length - this.historySize);
  }
}
