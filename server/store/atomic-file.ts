/**
 * A lowdb adapter whose writes survive a crash at any moment (issue 7): the text goes to a
 * temporary file in the same folder, is fsynced, renamed over the data file, and the folder is
 * fsynced so the rename itself is durable. A reader (or a restart after `kill -9`) sees the old
 * file or the new one, never a mix. Pretty-printed with a two-space indent, as people edit it.
 */
import { open, rename, rm } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import type { Adapter } from 'lowdb';

/** How many of our recent writes are remembered (a watcher may read one while the next is under way). */
const REMEMBERED = 16;

export const textHash = (text: string): string => createHash('sha256').update(text).digest('hex');

export class AtomicJsonFile<T> implements Adapter<T> {
  /** Text of the last write. */
  lastWritten: string | null = null;
  /**
   * Hashes of our recent writes, registered before each rename: whatever the watcher reads, one
   * of our writes finished or under way, is recognized as ours and never taken for an edit.
   */
  private readonly recent: string[] = [];

  isOurs(text: string): boolean {
    return this.recent.includes(textHash(text));
  }

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
    this.recent.push(textHash(text));
    if (this.recent.length > REMEMBERED) this.recent.shift();
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
