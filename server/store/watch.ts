/**
 * Watches the data file for edits made by people (issue 7; ARCHITECTURE convention 7). A valid
 * edit is applied at once and announced, firing no webhooks (it is not an API write). The
 * emulator's own writes are recognized by their text and ignored. An edit that is not valid JSON,
 * or breaks the schema, is reported with its place and the last good state keeps being served;
 * the broken text is kept beside the file before the emulator writes it again.
 */
import { readFile, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import type { EventBus } from '../bus.js';
import { editEvents } from '../domain/edit-diff.js';
import { bytesHash, fileSignature } from './atomic-file.js';
import { parseStoreText, StoreLoadError } from './load.js';
import type { Store } from './store.js';

export interface StoreWatchState {
  /** The problem with the file on disk, or null when it is what the emulator serves. */
  error: { message: string; at: string } | null;
  /** Off by default: an edit is not an API write. On, edits fire the events (and webhooks) of what they changed. */
  editsFireWebhooks: boolean;
}

export class StoreWatcher {
  private watcher: FSWatcher | null = null;
  readonly state: StoreWatchState = { error: null, editsFireWebhooks: false };
  private checking: Promise<void> = Promise.resolve();
  /** Hash of the text last applied (a hash, not the text: a large store's text is tens of megabytes). */
  private lastApplied: string | null = null;

  constructor(
    private readonly store: Store,
    private readonly bus: EventBus,
    private readonly now: () => Date,
  ) {}

  async start(): Promise<void> {
    // The folder, not the file: a watch on a file ends when the file is deleted, and people (and
    // editors saving by rename) delete and recreate it.
    const file = resolve(this.store.file);
    const folder = dirname(file);
    this.watcher = watch(folder, {
      ignoreInitial: true,
      depth: 0,
      ignored: (path: string) => path !== folder && resolve(path) !== file,
      // Editors save in several steps; wait until the size settles before reading.
      awaitWriteFinish: { stabilityThreshold: 60, pollInterval: 20 },
    });
    const check = (path: string) => {
      if (resolve(path) !== file) return;
      this.checking = this.checking
        .then(() => this.check())
        .catch((err: unknown) => console.error('cms-emulator: watching the data file:', err));
    };
    this.watcher.on('add', check);
    this.watcher.on('change', check);
    this.watcher.on('unlink', (path: string) => {
      if (resolve(path) === file)
        this.report('the data file was deleted; the emulator keeps serving the last good state and will write it again on the next change');
    });
    await new Promise<void>((resolve) => this.watcher!.once('ready', () => resolve()));
  }

  async stop(): Promise<void> {
    await this.watcher?.close();
    this.watcher = null;
    await this.checking;
  }

  /** Waits for the edits seen so far to be handled (tests and the control API). */
  settled(): Promise<void> {
    return this.checking;
  }

  private async check(): Promise<void> {
    // Our own write, known by its inode, size and mtime: nothing to read. A large store's file
    // read back and hashed after every write cost a 74 MB buffer, its collection and ~60 ms of
    // hashing. Anything else (an edit, a touch) is read and told apart by its hash as before.
    try {
      if (this.store.wroteFile(fileSignature(await stat(this.store.file, { bigint: true })))) {
        if (this.state.error) this.recovered();
        return;
      }
    } catch {
      return; // gone again between the event and the stat: the unlink handler reports it
    }
    let bytes: Buffer;
    try {
      bytes = await readFile(this.store.file);
    } catch {
      return; // gone again between the event and the read: the unlink handler reports it
    }
    // Hashed off the main thread, and decoded only if it is not ours: after each of our own
    // writes of a large store, the watcher costs the event loop next to nothing.
    const hash = await bytesHash(bytes);
    // Our own write is never adopted (memory may already be newer than its text); if the file was
    // broken, our write has just repaired it.
    if (this.store.wroteHash(hash)) {
      if (this.state.error) this.recovered();
      return;
    }
    // The text already applied, unless the file was broken in between (then it is the repair).
    if (this.state.error === null && hash === this.lastApplied) return;
    const text = bytes.toString('utf8');
    try {
      const data = parseStoreText(text, this.store.file);
      const before = this.store.data;
      this.store.adopt(data);
      this.lastApplied = hash;
      if (this.state.error) this.recovered();
      this.bus.emit({ type: 'store.replaced', reason: 'the data file was edited' });
      if (this.state.editsFireWebhooks) {
        for (const event of editEvents(before, data, { kind: 'control', action: 'data file edit' })) this.bus.emit(event);
      }
    } catch (err) {
      if (!(err instanceof StoreLoadError)) throw err;
      this.store.keepBrokenText(text);
      this.report(err.reason);
    }
  }

  private recovered(): void {
    this.state.error = null;
    this.bus.emit({ type: 'store.recovered' });
  }

  private report(message: string): void {
    this.state.error = { message, at: this.now().toISOString() };
    console.error(`cms-emulator: ${this.store.file}: ${message}\n  (still serving the last good state)`);
    this.bus.emit({ type: 'store.error', message, file: this.store.file });
  }
}
