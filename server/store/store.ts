/**
 * The single writer of the data file (ARCHITECTURE: convention 6). Every mutation goes through
 * `mutate`, which applies it to the in-memory state synchronously (so mutations never interleave)
 * and schedules a coalesced write. The write waits until mutations have gone quiet for
 * WRITE_QUIET_MS, but never longer than WRITE_MAX_DELAY_MS after the first mutation it covers:
 * during a burst of API writes the file is not rewritten at all (each rewrite of a large store
 * stalls the event loop and slows the journal's fsync, and the journal already holds every
 * accepted write durably), and under sustained writes it is still written every couple of seconds,
 * so every mutation is on disk within a bounded delay (issue 7). `flush` (idle, stop, a DELETE's
 * 204) writes at once. Writes are atomic and fsynced (AtomicJsonFile).
 */
import { stat, writeFile } from 'node:fs/promises';
import { Low } from 'lowdb';
import { AtomicJsonFile, fileSignature, type Touch, type Touches } from './atomic-file.js';
import { readAndMigrate } from './load.js';
import { removeStaleTemporaries } from './stale-temporaries.js';
import { WriteTimer } from './write-timer.js';
import type { Organization, StoreData } from './schema.js';

export type { Touch } from './atomic-file.js';

/** Told when a write begins and when it is on disk (the job journal marks jobs done). */
export interface WriteObserver {
  writeStarting(): string[];
  writeDone(covered: string[]): void;
}

/** The shortest time between two writes of the data file (a flush may go sooner). */
export const WRITE_INTERVAL_MS = 100;

/** A write goes once no mutation has come for this long: a burst ends before its file write. */
export const WRITE_QUIET_MS = 200;

/**
 * The longest a mutation waits for its write under sustained mutations (counted from the first
 * mutation the write covers to the moment the write begins; it is on disk once that write ends).
 */
export const WRITE_MAX_DELAY_MS = 2000;

export class Store {
  /** Bumped by every mutation; caches derived from the data (search indexes) key on it. */
  revision = 0;
  /** How many times the file was written (bench: writes per thousand API writes). */
  writes = 0;
  observer: WriteObserver | null = null;
  private dirty = false;
  private writing: Promise<void> | null = null;

  private constructor(
    private readonly low: Low<StoreData>,
    private readonly adapter: AtomicJsonFile<StoreData>,
    readonly file: string,
  ) {}

  static async open(file: string): Promise<Store> {
    const before = fileSignature(await stat(file, { bigint: true }));
    const { data, migrated, backup, fromText } = await readAndMigrate(file);
    if (backup) console.log(`cms-emulator: ${file} was migrated (${migrated.join('; ')}); the original is kept as ${backup}`);
    await removeStaleTemporaries(file);
    const stats = await stat(file, { bigint: true });
    // The file's size tells whether its writes are worth serializing in a worker (atomic-file.ts).
    const adapter = new AtomicJsonFile<StoreData>(file, { size: Number(stats.size) });
    // Unchanged while it was read, and its JSON is the data but for a few values: the worker may
    // start from the file.
    if (fromText && fileSignature(stats) === before) adapter.startFromFile(data, before, fromText);
    const low = new Low<StoreData>(adapter, data);
    low.data = data;
    return new Store(low, adapter, file);
  }

  /** How a large store's writes were sent to its worker: all of it, compared, or touched records (bench). */
  get sent(): Readonly<AtomicJsonFile<StoreData>['sent']> {
    return this.adapter.sent;
  }

  /** True when `hash` (bytesHash of the file's bytes) is one of the emulator's own recent writes. */
  wroteHash(hash: string): boolean {
    return this.adapter.isOurs(hash);
  }

  /** True when `signature` (fileSignature of the file's stats) is one of the emulator's own recent writes. */
  wroteFile(signature: string): boolean {
    return this.adapter.isOurFile(signature);
  }

  get data(): StoreData {
    return this.low.data;
  }

  organizations(): Organization[] {
    return this.low.data.organizations;
  }

  organization(slug: string): Organization | undefined {
    return this.low.data.organizations.find((org) => org.slug === slug);
  }

  /** A person's valid edit of the file becomes the state, without writing it back. */
  adopt(data: StoreData): void {
    this.low.data = data;
    this.revision += 1;
    this.touches = 'everything';
    this.brokenText = null;
  }

  /**
   * A broken edit of the file: the next write would replace it, so its text is saved beside the
   * file first (data.json.broken-<time>), never thrown away.
   */
  keepBrokenText(text: string): void {
    this.brokenText = text;
  }

  /** Where the last broken edit was kept, if one was. */
  brokenCopy: string | null = null;
  private brokenText: string | null = null;

  /** Replaces the whole state (reset, import, snapshot restore) and persists it. */
  replace(data: StoreData): void {
    this.low.data = data;
    this.revision += 1;
    this.touches = 'everything';
    this.scheduleWrite();
  }

  /**
   * Applies `change` now and persists it soon; returns what `change` returns.
   *
   * `touched` (given the result) says exactly what the change did, so a large store's write sends
   * its worker those records instead of comparing the whole store with its last write
   * (atomic-file.ts): the arrays it appended to or changed items of in place, with those items.
   * It must name every such item: appended ones too. A change that removes or reorders items, or
   * touches anything outside the arrays it names, leaves `touched` out: the next write then
   * compares everything, as it does for every change that does not say.
   */
  mutate<T>(change: (data: StoreData) => T, touched?: (result: T) => readonly Touch[]): T {
    const result = change(this.low.data);
    this.revision += 1;
    if (touched && this.touches !== 'everything') {
      for (const touch of touched(result)) {
        const known = this.touches.get(touch.array);
        if (touch.items === undefined) this.touches.set(touch.array, 'whole');
        else if (known === undefined) this.touches.set(touch.array, new Set(touch.items));
        else if (known !== 'whole') for (const item of touch.items) known.add(item);
      }
    } else this.touches = 'everything';
    this.scheduleWrite();
    return result;
  }

  /** What the mutations since the last write began said they touched (mutate's `touched`). */
  private touches: Touches = new Map();

  /** When the last mutation came, and the first one not yet in a write that has begun. */
  private lastMutation = 0;
  private firstUnwritten: number | null = null;

  /** True while something mutated is not yet on disk. */
  get busy(): boolean {
    return this.writing !== null || this.dirty;
  }

  /** Resolves once everything mutated so far is on disk; a write waiting for its slot goes now. */
  async flush(): Promise<void> {
    while (this.writing) {
      // A flush during a write under way hurries the next one too (it covers what came since).
      this.timer.hurry();
      await this.writing;
    }
  }

  private scheduleWrite(): void {
    // Date.now() per mutation is cheap next to the mutation itself; a timer per mutation is not,
    // so the write loop re-arms its own timer only when it fires.
    this.lastMutation = Date.now();
    this.firstUnwritten ??= this.lastMutation;
    this.dirty = true;
    if (this.writing) return;
    this.writing = this.writeLoop().finally(() => {
      this.writing = null;
    });
  }

  private lastWrite = 0;
  /** When the pending write may begin; a flush hurries it. */
  private readonly timer = new WriteTimer();

  /** When the pending write may begin: quiet for a moment, or waited long enough, and not too soon after the last. */
  private writeDue(): number {
    const quiet = this.lastMutation + WRITE_QUIET_MS;
    const bound = (this.firstUnwritten ?? this.lastMutation) + WRITE_MAX_DELAY_MS;
    return Math.max(Math.min(quiet, bound), this.lastWrite + WRITE_INTERVAL_MS);
  }

  private async writeLoop(): Promise<void> {
    while (this.dirty) {
      // Wait (at least one tick) until the write is due, or a flush asks for it: everything
      // mutated meanwhile lands in the same write. A mutation while waiting moves the quiet
      // deadline on, so the timer is re-armed for the new deadline when it fires.
      await this.timer.wait(() => this.writeDue(), { atLeastOneTick: true });
      this.timer.hurried = false;
      this.dirty = false;
      this.firstUnwritten = null;
      if (this.brokenText !== null) {
        const copy = `${this.file}.broken-${new Date().toISOString().replace(/[:.]/g, '-')}`;
        await writeFile(copy, this.brokenText);
        console.error(`cms-emulator: your broken edit of ${this.file} is kept as ${copy}; the emulator now writes its last good state`);
        this.brokenCopy = copy;
        this.brokenText = null;
      }
      // Jobs finished by now have their effects in memory, so in the text this write serializes.
      const covered = this.observer?.writeStarting() ?? [];
      const touches = this.touches;
      this.touches = new Map();
      await this.adapter.writeTouched(this.low.data, touches);
      this.observer?.writeDone(covered);
      this.writes += 1;
      this.lastWrite = Date.now();
    }
    // A flush that came during the last write is answered by it; it must not rush the next burst.
    this.timer.hurried = false;
  }
}
