/**
 * The job journal (server/jobs/journal.ts) is compacted while running once it grows past its
 * threshold, so a long storm of writes does not grow it without bound; what it keeps is exactly
 * the jobs not yet marked done, and appends after a compaction land in the new file.
 */
import { stat } from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { JobJournal, undoneLines } from '../../server/jobs/journal.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

const job = (id: string) => ({ id, kind: 'post.create', organization: 'acme', cause: { kind: 'api' }, payload: { body: 'x'.repeat(900) } });

describe('job journal compaction', () => {
  it('stays bounded in a long storm and keeps every job not yet done', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cms-emulator-journal-'));
    dirs.push(dir);
    const file = join(dir, 'journal.ndjson');
    const journal = new JobJournal(file, 16 * 1024);
    expect(await journal.recover()).toEqual([]);
    let largest = 0;
    // 400 jobs of ~1 KB (~400 KB appended); every 20 jobs a store write covers the jobs finished before it.
    for (let i = 0; i < 400; i++) {
      await journal.append(job(`j${i}`));
      journal.jobFinished(`j${i}`);
      if (i % 20 === 19 && i < 380) {
        journal.writeDone(journal.writeStarting());
      }
      largest = Math.max(largest, (await stat(file)).size);
    }
    await journal.append(job('last')); // lets the done marks above reach the disk first
    expect(journal.compactions).toBeGreaterThan(5);
    // Bounded by the threshold plus what is not done (at most the last 20 jobs and one batch).
    expect(largest).toBeLessThan(16 * 1024 + 21 * 1100);
    await journal.close();

    // The jobs from 380 on were never covered by a write: they are what a restart runs again.
    const left = await new JobJournal(file).recover();
    expect(left.map((j) => j.id)).toEqual([...Array.from({ length: 20 }, (_, k) => `j${380 + k}`), 'last']);
  }, 30_000);

  it('counts the threshold from what the last compaction left, so jobs not yet done do not make it compact at every append', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cms-emulator-journal-'));
    dirs.push(dir);
    const file = join(dir, 'journal.ndjson');
    const journal = new JobJournal(file, 16 * 1024);
    await journal.recover();
    // ~100 KB of jobs none of which is done yet (a saturated storm between two store writes):
    // measured from zero, every append past 16 KB would rewrite the whole journal again.
    for (let i = 0; i < 100; i++) await journal.append(job(`j${i}`));
    expect(journal.compactions).toBeGreaterThanOrEqual(5);
    expect(journal.compactions).toBeLessThanOrEqual(7);
    await journal.close();
    const left = await new JobJournal(file).recover();
    expect(left.map((j) => j.id)).toEqual(Array.from({ length: 100 }, (_, k) => `j${k}`));
  });

  it('keeps, from the journal it reads back, the lines of the jobs no later line marks done, in order', () => {
    const line = (id: string) => JSON.stringify({ op: 'job', ...job(id) });
    const done = (...ids: string[]) => JSON.stringify({ op: 'done', ids });
    const text = [line('a'), line('b'), done('a'), line('c'), line('d'), done('d', 'unknown'), line('e'), ''].join('\n');
    const undone = (journal: string) => undoneLines(Buffer.from(journal)).toString('utf8');
    expect(undone(text)).toBe([line('b'), line('c'), line('e'), ''].join('\n'));
    // A line cut short by a failed write is skipped, and so is a cut done mark (its jobs stay undone).
    const cut = [line('a'), line('b').slice(0, 40), done('a').slice(0, 12), line('c'), ''].join('\n');
    expect(undone(cut)).toBe([line('a'), line('c'), ''].join('\n'));
    expect(undone('')).toBe('');
    // The last line of a journal whose final write was cut keeps its job when whole, with a newline.
    expect(undone([line('a'), line('b')].join('\n'))).toBe([line('a'), line('b'), ''].join('\n'));
    // Ids are JSON strings: escapes and characters beyond ASCII are read as JSON reads them.
    const odd = 'é"\\x';
    expect(undone([line(odd), done(odd), line('z'), ''].join('\n'))).toBe([line('z'), ''].join('\n'));
  });
});
