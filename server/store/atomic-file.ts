/**
 * A lowdb adapter whose writes survive a crash at any moment (issue 7): the text goes to a
 * temporary file in the same folder, is fsynced, renamed over the data file, and the folder is
 * fsynced so the rename itself is durable. A reader (or a restart after `kill -9`) sees the old
 * file or the new one, never a mix. Pretty-printed with a two-space indent, as people edit it.
 */
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Adapter } from 'lowdb';

export class AtomicJsonFile<T> implements Adapter<T> {
  /** Text of the last write, so the watcher can tell our own writes from a person's edits. */
  lastWritten: string | null = null;

  constructor(readonly file: string) {}

  /** Reading goes through store/load.ts, which reports errors with their place. */
  async read(): Promise<T | null> {
    return null;
  }

  async write(data: T): Promise<void> {
    const text = JSON.stringify(data, null, 2) + '\n';
    const temporary = join(dirname(this.file), `.${basename(this.file)}.${process.pid}.tmp`);
    const handle = await open(temporary, 'w');
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    this.lastWritten = text;
    try {
      await rename(temporary, this.file);
    } catch (err) {
      await rm(temporary, { force: true });
      throw err;
    }
    const folder = await open(dirname(this.file), 'r');
    try {
      await folder.sync();
    } finally {
      await folder.close();
    }
  }
}
