/**
 * Temporary files of writes that never finished. An atomic write goes through
 * `.data.json.<pid>.tmp` (atomic-file.ts); a crash (`kill -9`) between its creation and the rename
 * leaves it behind, and with a large store that is tens of megabytes per crash. A temporary file
 * whose process is gone is removed when the store is opened; one of a live process is left alone.
 */
import { readdir, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes the leftovers of writes to `file` by processes that no longer run; returns their names. */
export async function removeStaleTemporaries(file: string): Promise<string[]> {
  const prefix = `.${basename(file)}.`;
  const removed: string[] = [];
  for (const name of await readdir(dirname(file))) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
    const pid = Number(name.slice(prefix.length, -'.tmp'.length));
    if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid || alive(pid)) continue;
    await rm(join(dirname(file), name), { force: true });
    removed.push(name);
  }
  return removed;
}
