/**
 * Whole-state operations (issue 6): reset to the fixture the data folder was seeded from, load
 * another fixture, export and import the store, and named snapshots that save and restore in
 * memory (a structured clone), so a test suite can reset between tests cheaply.
 */
import { cp, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { EmulatorContext } from '../context.js';
import { detailError, notFound } from '../domain/errors.js';
import { parseStoreText, readStoreFile } from '../store/load.js';
import type { StoreData } from '../store/schema.js';
import { resolveFixture, STORE_FILE_NAME } from '../store/seed.js';

export interface SnapshotInfo {
  name: string;
  created: string;
}

export class StateService {
  private readonly snapshots = new Map<string, { data: StoreData; created: string }>();
  /** Parsed fixtures by path and modification time: a reset does not parse the file again. */
  private readonly fixtures = new Map<string, { mtimeMs: number; data: StoreData }>();
  private currentFixture: string;

  constructor(
    private readonly ctx: EmulatorContext,
    fixtureDir: string,
  ) {
    this.currentFixture = fixtureDir;
  }

  get fixture(): string {
    return this.currentFixture;
  }

  private async fixtureData(dir: string): Promise<StoreData> {
    const file = join(dir, STORE_FILE_NAME);
    if (!existsSync(file)) throw notFound(`Fixture "${dir}" has no ${STORE_FILE_NAME}.`);
    const { mtimeMs } = await stat(file);
    const cached = this.fixtures.get(file);
    if (cached && cached.mtimeMs === mtimeMs) return structuredClone(cached.data);
    let data: StoreData;
    try {
      data = await readStoreFile(file);
    } catch (err) {
      throw detailError(400, (err as Error).message);
    }
    this.fixtures.set(file, { mtimeMs, data });
    return structuredClone(data);
  }

  private replace(data: StoreData, reason: string): void {
    this.ctx.jobs.clear(`Dropped: ${reason} replaced the state this job was accepted against.`);
    this.ctx.store.replace(data);
    this.ctx.bus.emit({ type: 'store.replaced', reason });
  }

  /** Back to the fixture the data folder was seeded from (or the one loaded since). */
  async reset(): Promise<void> {
    await this.load(this.currentFixture, 'reset');
  }

  /** Replaces the state by a fixture's, copying its media files into the data folder. */
  async load(nameOrPath: string, reason = 'fixture load'): Promise<void> {
    const dir = resolveFixture(nameOrPath);
    const data = await this.fixtureData(dir);
    if (existsSync(join(dir, 'media'))) {
      await cp(join(dir, 'media'), join(dirname(this.ctx.store.file), 'media'), { recursive: true, force: false, errorOnExist: false });
    }
    this.currentFixture = dir;
    this.replace(data, reason);
  }

  export(): StoreData {
    return this.ctx.store.data;
  }

  /** Validates a whole data file (as the loader does) and makes it the state. */
  import(body: unknown): void {
    let data: StoreData;
    try {
      data = parseStoreText(JSON.stringify(body), 'imported state');
    } catch (err) {
      throw detailError(400, (err as Error).message);
    }
    this.replace(data, 'import');
  }

  save(name: string): SnapshotInfo {
    const created = this.ctx.clock.now().toISOString();
    this.snapshots.set(name, { data: structuredClone(this.ctx.store.data), created });
    return { name, created };
  }

  restore(name: string): void {
    const snapshot = this.snapshots.get(name);
    if (!snapshot) throw notFound(`No snapshot "${name}".`);
    this.replace(structuredClone(snapshot.data), `snapshot "${name}" restored`);
  }

  remove(name: string): void {
    if (!this.snapshots.delete(name)) throw notFound(`No snapshot "${name}".`);
  }

  list(): SnapshotInfo[] {
    return [...this.snapshots].map(([name, s]) => ({ name, created: s.created }));
  }
}
