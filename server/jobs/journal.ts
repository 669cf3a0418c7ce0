/**
 * Write-ahead journal of accepted jobs (issue 7: "a write answered with 202 is not lost if the
 * process is killed right after"). Before the 202, the job is appended to `<data>/journal/journal.ndjson`
 * (written to the file; fsynced right after, or before the answer with `before-answer`, see
 * JournalSync); appends of the same moment share one write and one fsync. A job is marked done only once a store
 * write that began after it finished has reached the disk, so after `kill -9` every job not marked
 * done runs again on start (jobs tolerate a second run: creates find their slug or id taken and
 * stop, updates set the same values again).
 *
 * It lives in a folder of its own below the data folder: the data folder is watched for people's
 * edits of the data file, and every append there woke the watcher (0.5 ms of CPU per append,
 * a fifth of a write's cost). A journal an earlier version kept beside the data file is read on
 * recovery and then removed.
 *
 * The journal is compacted on start, and also while running once COMPACT_AT_BYTES have been
 * appended since the last compaction: a long storm of writes would otherwise grow it without
 * bound until the next start. Compaction keeps only the jobs not yet marked done (a couple of
 * seconds' worth: the store writes the data file at least that often under sustained writes),
 * read back from the file: keeping each job's line in memory until its done mark (2.6 KB a post,
 * for up to 2 s) made every write leave that much for the garbage collector to copy and promote
 * (issue 10). Counting from the size left by the last compaction, not from zero, matters in a
 * saturated storm: 2 s of writes not yet done can be most of the threshold, and the journal was
 * then compacted again after every few hundred writes (six times in 4 s on the demo store).
 */
import { existsSync } from 'node:fs';
import { mkdir, open, readFile, rename, rm, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
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

/** Bytes appended after which the journal is rewritten with only the jobs not yet done (about 6,000 post writes). */
export const COMPACT_AT_BYTES = 16 * 1024 * 1024;

/**
 * When an append is flushed to the disk. 'background': the 202 waits for the write to the journal
 * file (the kernel then holds it, so killing the process loses nothing) and the fdatasync follows
 * at once, off the answer's path (a power cut may lose the last few milliseconds of answers).
 * 'before-answer': the 202 also waits for the fdatasync (0.3 ms on a quiet disk, 10–50 ms while
 * other files are being written).
 */
export type JournalSync = 'background' | 'before-answer';

export class JobJournal {
  private handle: FileHandle | null = null;
  /** Lines waiting to be appended: jobs, and done marks. */
  private pendingLines: string[] = [];
  private pendingWaiters: { resolve: () => void; reject: (err: unknown) => void }[] = [];
  private flushing: Promise<void> | null = null;
  /** Jobs finished since the last store write began; marked done once a later write is on disk. */
  private finished: string[] = [];
  /** Bytes in the journal file, and what the last rewrite left: compactAt bytes past that, it is compacted. */
  private bytes = 0;
  private compactedBytes = 0;
  /** How many times it was compacted while running (tests). */
  compactions = 0;

  /** The background fdatasync under way (sync 'background'), and whether appends came since it began. */
  private syncing: Promise<void> | null = null;
  private unsynced = false;
  private syncFailed = false;

  constructor(
    readonly file: string,
    private readonly compactAt = COMPACT_AT_BYTES,
    private readonly sync: JournalSync = 'background',
    /** Where an earlier version kept the journal: read first on recovery, then removed. */
    private readonly legacyFile: string | null = null,
  ) {}

  /** Reads what is left to do from a previous run, and starts a fresh journal holding only that. */
  async recover(): Promise<JournaledJob[]> {
    const jobs = new Map<string, JournaledJob>();
    await mkdir(dirname(this.file), { recursive: true });
    const legacy = this.legacyFile !== null && existsSync(this.legacyFile) ? this.legacyFile : null;
    for (const file of [legacy, this.file]) {
      if (file === null || !existsSync(file)) continue;
      for (const line of (await readFile(file, 'utf8')).split('\n')) {
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
    await this.rewrite(left.map((job) => JSON.stringify({ op: 'job', ...job }) + '\n').join(''));
    // Its jobs are in the new journal (on disk, and the folder synced): the old file can go.
    if (legacy !== null) await rm(legacy, { force: true });
    return left;
  }

  /**
   * Replaces the journal with `text`, the lines of the jobs not yet done (temporary file, fsync,
   * rename, folder fsync) and appends to the new file from then on. The folder's fsync comes
   * before any later append is acknowledged: were the rename lost in a crash, the old file (which
   * holds every job the new one does) would come back without those appends.
   */
  private async rewrite(text: string | Buffer): Promise<void> {
    const temporary = `${this.file}.tmp`;
    const fresh = await open(temporary, 'w');
    try {
      await fresh.writeFile(text);
      await fresh.sync();
    } finally {
      await fresh.close();
    }
    // An fdatasync still running on the old file finishes before it is closed.
    while (this.syncing) await this.syncing;
    await this.handle?.close();
    this.handle = null;
    await rename(temporary, this.file);
    const folder = await open(dirname(this.file), 'r');
    try {
      await folder.sync();
    } finally {
      await folder.close();
    }
    this.handle = await open(this.file, 'a');
    this.bytes = Buffer.byteLength(text);
    this.compactedBytes = this.bytes;
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
        // Written: the kernel has the bytes, a killed process loses nothing from here on.
        if (this.sync === 'before-answer') await this.handle.datasync();
        else this.syncSoon();
        this.bytes += Buffer.byteLength(lines);
        for (const w of waiters) w.resolve();
      } catch (err) {
        for (const w of waiters) w.reject(err);
      }
      // Between batches, so no append is under way; lines queued meanwhile go to the new file.
      if (this.bytes - this.compactedBytes >= this.compactAt) {
        try {
          await this.rewrite(undoneLines(await readFile(this.file)));
          this.compactions += 1;
        } catch (err) {
          console.error('cms-emulator: could not compact the job journal:', err);
          // Keep appending: to the old file if it is still open, else reopen it.
          this.handle ??= await open(this.file, 'a').catch(() => null);
          this.compactedBytes = this.bytes;
        }
      }
    }
    this.flushing = null;
  }

  /**
   * Flushes what was written to the disk, off the answer's path: one fdatasync at a time, and one
   * more after it when appends came meanwhile (they share it).
   */
  private syncSoon(): void {
    this.unsynced = true;
    this.syncing ??= (async () => {
      while (this.unsynced && this.handle) {
        this.unsynced = false;
        await this.handle.datasync().catch((err: unknown) => {
          if (!this.syncFailed) console.error('cms-emulator: could not flush the job journal to the disk:', err);
          this.syncFailed = true;
        });
      }
      this.syncing = null;
    })();
  }

  /** Resolves once everything written so far is on the disk (not only in the kernel's cache). */
  async synced(): Promise<void> {
    while (this.flushing) await this.flushing;
    while (this.syncing) await this.syncing;
  }

  async close(): Promise<void> {
    await this.synced();
    await this.handle?.close();
    this.handle = null;
  }
}

const NEWLINE = 0x0a;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const CLOSE_BRACE = 0x7d;
const JOB_PREFIX = Buffer.from('{"op":"job","id":"');
const DONE_PREFIX = Buffer.from('{"op":"done"');
const LINE_END = Buffer.from('\n');

/**
 * The lines of `journal` (a running journal's bytes) whose jobs no later line marks done, in
 * order. Only a job line's id is read (JSON.stringify puts `op` then `id` first); a line cut short
 * by a failed write is skipped, as recovery skips it. Worked on the bytes: the job lines are
 * copied, never decoded (decoding and splitting 16 MiB of text took 30–75 ms of the main thread
 * at each compaction, the event loop stalled meanwhile).
 */
export function undoneLines(journal: Buffer): Buffer {
  const undone = new Map<string, Buffer>();
  let start = 0;
  while (start < journal.length) {
    const newline = journal.indexOf(NEWLINE, start);
    const end = newline === -1 ? journal.length : newline;
    const line = journal.subarray(start, end);
    const withNewline = journal.subarray(start, end + 1);
    start = end + 1;
    if (startsWith(line, JOB_PREFIX)) {
      const id = quotedAt(line, JOB_PREFIX.length - 1);
      if (id !== null && line[line.length - 1] === CLOSE_BRACE) undone.set(id, withNewline);
      continue;
    }
    if (!startsWith(line, DONE_PREFIX)) continue;
    try {
      const entry = entrySchema.parse(JSON.parse(line.toString('utf8')));
      if (entry.op === 'done') for (const done of entry.ids) undone.delete(done);
    } catch {
      // cut short: its jobs stay undone
    }
  }
  const parts: Buffer[] = [];
  for (const line of undone.values()) {
    parts.push(line);
    // The last line of a journal whose final write was cut short has no newline of its own.
    if (line[line.length - 1] !== NEWLINE) parts.push(LINE_END);
  }
  return Buffer.concat(parts);
}

function startsWith(line: Buffer, prefix: Buffer): boolean {
  return line.length >= prefix.length && line.compare(prefix, 0, prefix.length, 0, prefix.length) === 0;
}

/** The JSON string that opens at `line[open]` (a quote), decoded; null when the line ends first. */
function quotedAt(line: Buffer, open: number): string | null {
  for (let at = open + 1; at < line.length; at++) {
    const byte = line[at];
    if (byte === BACKSLASH) at++;
    else if (byte === QUOTE) return JSON.parse(line.toString('utf8', open, at + 1)) as string;
  }
  return null;
}
