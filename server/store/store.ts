/**
 * The single writer of the data file (ARCHITECTURE: convention 6). Every mutation goes through
 * `mutate`, which applies it to the in-memory state synchronously (so mutations never interleave)
 * and schedules a coalesced atomic write: a burst of mutations costs a bounded number of writes.
 * lowdb's JSONFile writes through a temporary file and a rename, so the file is never half-written.
 */
import { Low } from 'lowdb';
import { JSONFile } from 'lowdb/node';
import { readStoreFile } from './load.js';
import type { Organization, StoreData } from './schema.js';

export class Store {
  /** Bumped by every mutation; caches derived from the data (search indexes) key on it. */
  revision = 0;
  private dirty = false;
  private writing: Promise<void> | null = null;

  private constructor(
    private readonly low: Low<StoreData>,
    readonly file: string,
  ) {}

  static async open(file: string): Promise<Store> {
    const data = await readStoreFile(file);
    const low = new Low<StoreData>(new JSONFile<StoreData>(file), data);
    low.data = data;
    return new Store(low, file);
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

  /** Replaces the whole state (reset, import, snapshot restore) and persists it. */
  replace(data: StoreData): void {
    this.low.data = data;
    this.revision += 1;
    this.scheduleWrite();
  }

  /** Applies `change` now and persists it soon; returns what `change` returns. */
  mutate<T>(change: (data: StoreData) => T): T {
    const result = change(this.low.data);
    this.revision += 1;
    this.scheduleWrite();
    return result;
  }

  /** Resolves once everything mutated so far is on disk. */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
  }

  private scheduleWrite(): void {
    this.dirty = true;
    if (this.writing) return;
    this.writing = this.writeLoop().finally(() => {
      this.writing = null;
    });
  }

  private async writeLoop(): Promise<void> {
    // Yield once so that every mutation of the current tick lands in the same write.
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (this.dirty) {
      this.dirty = false;
      await this.low.write();
    }
  }
}
