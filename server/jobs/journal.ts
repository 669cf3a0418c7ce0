/**
 * Write-ahead journal of accepted jobs (issue 7: "a write answered with 202 is not lost if the
 * process is killed right after"). Before the 202, the job is appended to `<data>/journal.ndjson`
 * and fsynced; appends of the same moment share one fsync. A job is marked done only once a store
 * write that began after it finished has reached the disk, so after `kill -9` every job not marked
 * done runs again on start (jobs tolerate a second run: creates find their slug or id taken and
 * stop, updates set the same values again).
 */
import { existsSync } from 'node:fs';
import { open, readFile, rename, type FileHandle } from 'node:fs/promises';
import { z } from 'zod';

const entrySchema = z.union([
  z.object({ op: z.literal('job'), id: z.string(), kind: z.string(), organization: z.string(), cause: z.unknown(), payload: z.unknown() }),
  z.object({ op: z.literal('done'), ids: z.array(z.string()) }),
]);

export interface JournaledJob {
  id: string;
  kind: string;
  organization: string;
  cause: unknown;
  payload: unknown;
}

export class JobJournal {
  private handle: FileHandle | null = null;
  private pendingLines: string[] = [];
  private pendingWaiters: { resolve: () => void; reject: (err: unknown) => void }[] = [];
  private flushing: Promise<void> | null = null;
  /** Jobs finished since the last store write began; marked done once a later write is on disk. */
  private finished: string[] = [];

  constructor(readonly file: string) {}

  /** Reads what is left to do from a previous run, and starts a fresh journal holding only that. */
  async recover(): Promise<JournaledJob[]> {
    const jobs = new Map<string, JournaledJob>();
    if (existsSync(this.file)) {
      for (const line of (await readFile(this.file, 'utf8')).split('\n')) {
        if (!line.trim()) continue;
        let entry: z.output<typeof entrySchema>;
        try {
          entry = entrySchema.parse(JSON.parse(line));
        } catch {
          continue; // a line cut by the crash: it was never acknowledged
        }
        if (entry.op === 'job') jobs.set(entry.id, entry);
        else for (const id of entry.ids) jobs.delete(id);
      }
    }
    const left = [...jobs.values()];
    const temporary = `${this.file}.tmp`;
    const fresh = await open(temporary, 'w');
    await fresh.writeFile(left.map((job) => JSON.stringify({ op: 'job', ...job }) + '\n').join(''));
    await fresh.sync();
    await fresh.close();
    await rename(temporary, this.file);
    this.handle = await open(this.file, 'a');
    return left;
  }

  /** Appends a job; resolves once it is on disk. */
  append(job: JournaledJob): Promise<void> {
    return this.write(JSON.stringify({ op: 'job', ...job }) + '\n');
  }

  jobFinished(id: string): void {
    this.finished.push(id);
  }

  /** Called as a store write begins: the jobs finished so far are covered by it. */
  writeStarting(): string[] {
    const covered = this.finished;
    this.finished = [];
    return covered;
  }

  /** Called once that write is on disk. */
  writeDone(covered: string[]): void {
    if (covered.length === 0) return;
    void this.write(JSON.stringify({ op: 'done', ids: covered }) + '\n').catch(() => undefined);
  }

  private write(line: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pendingLines.push(line);
      this.pendingWaiters.push({ resolve, reject });
      this.flushing ??= this.flush();
    });
  }

  private async flush(): Promise<void> {
    // Let every append of this moment join the same write and fsync.
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (this.pendingLines.length > 0) {
      const lines = this.pendingLines.join('');
      const waiters = this.pendingWaiters;
      this.pendingLines = [];
      this.pendingWaiters = [];
      try {
        if (!this.handle) throw new Error('the job journal is not open');
        await this.handle.write(lines);
        await this.handle.datasync();
        for (const w of waiters) w.resolve();
      } catch (err) {
        for (const w of waiters) w.reject(err);
      }
    }
    this.flushing = null;
  }

  async close(): Promise<void> {
    while (this.flushing) await this.flushing;
    await this.handle?.close();
    this.handle = null;
  }
}
