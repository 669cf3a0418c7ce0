/**
 * When the job journal (server/jobs/journal.ts) flushes to the disk. In both modes an append has
 * reached the journal file when its promise resolves (what a 202 waits for: a killed process can
 * no longer lose it) and a journal opened afterwards recovers it; `background` flushes right
 * after, through one fdatasync shared by the appends of the moment, and `synced()`/`close()` wait
 * for it; compaction in the middle of it loses nothing.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { JobJournal, type JournalSync } from '../../server/jobs/journal.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

const job = (id: string) => ({ id, kind: 'post.create', organization: 'acme', cause: { kind: 'api' }, payload: { title: id } });

async function journalFile(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cms-emulator-journal-sync-'));
  dirs.push(dir);
  return join(dir, 'journal.ndjson');
}

describe.each<JournalSync>(['background', 'before-answer'])('journal sync %s', (sync) => {
  it('an append is in the file once it resolves, and recovered by the next journal', async () => {
    const file = await journalFile();
    const journal = new JobJournal(file, undefined, sync);
    await journal.recover();
    await journal.append(job('a'));
    // Read before any close or sync: the bytes are in the file as soon as the append resolved.
    expect(await readFile(file, 'utf8')).toContain('"id":"a"');
    await Promise.all(['b', 'c', 'd'].map((id) => journal.append(job(id))));
    await journal.synced();
    const ids = (await new JobJournal(file).recover()).map((j) => j.id);
    expect(ids).toEqual(['a', 'b', 'c', 'd']);
    await journal.close();
  });

  it('compacting while appends stream keeps every job not marked done', async () => {
    const file = await journalFile();
    const journal = new JobJournal(file, 4 * 1024, sync);
    await journal.recover();
    const appended: Promise<void>[] = [];
    for (let i = 0; i < 200; i++) {
      appended.push(journal.append(job(`j${i}`)));
      if (i % 10 === 9) {
        await Promise.all(appended);
        journal.jobFinished(`j${i - 9}`);
        journal.writeDone(journal.writeStarting());
      }
    }
    await Promise.all(appended);
    await journal.close();
    expect(journal.compactions).toBeGreaterThan(0);
    const left = new Set((await new JobJournal(file).recover()).map((j) => j.id));
    for (let i = 0; i < 200; i++) expect(left.has(`j${i}`)).toBe(i % 10 !== 0);
  });
});

describe('a journal kept where an earlier version kept it', () => {
  it('is read on recovery, its unfinished jobs carried into the new journal, and removed', async () => {
    const legacyFile = await journalFile();
    const old = new JobJournal(legacyFile);
    await old.recover();
    await old.append(job('old-1'));
    await old.append(job('old-2'));
    old.jobFinished('old-1');
    old.writeDone(old.writeStarting());
    await old.close();
    const file = join(legacyFile, '..', 'journal', 'journal.ndjson');
    const journal = new JobJournal(file, undefined, 'background', legacyFile);
    expect((await journal.recover()).map((j) => j.id)).toEqual(['old-2']);
    expect(existsSync(legacyFile)).toBe(false);
    await journal.append(job('new-1'));
    await journal.close();
    expect((await new JobJournal(file).recover()).map((j) => j.id)).toEqual(['old-2', 'new-1']);
  });
});
