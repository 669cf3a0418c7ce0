import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readAndMigrate, StoreLoadError } from '../../server/store/load.js';
import { migrate } from '../../server/store/migrations.js';

const unversioned = {
  organizations: [
    {
      slug: 'a',
      name: 'A',
      tokens: { read: 'read-token-a', write: 'write-token-a' },
      owner: 'sam',
      blog: { title: 'Blog', url: 'https://a.example/blog' },
      authors: [{ slug: 'sam' }],
    },
  ],
};

describe('data file migrations', () => {
  it('takes a file without format_version to the current format', () => {
    const { data, applied } = migrate(unversioned);
    expect((data as { format_version: number }).format_version).toBe(1);
    expect(applied).toHaveLength(1);
  });

  it('leaves a current file alone', () => {
    expect(migrate({ format_version: 1, organizations: [] }).applied).toEqual([]);
  });

  it('migrates on load, keeping the original beside the file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cms-emulator-migrate-'));
    try {
      const file = join(dir, 'data.json');
      const original = JSON.stringify(unversioned);
      await writeFile(file, original);
      const { data, backup } = await readAndMigrate(file);
      expect(data.format_version).toBe(1);
      expect(backup).toBe(`${file}.v0.bak`);
      expect(await readFile(backup!, 'utf8')).toBe(original);
      expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ format_version: 1 });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses a file written by a newer emulator, without touching it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cms-emulator-migrate-'));
    try {
      const file = join(dir, 'data.json');
      const text = JSON.stringify({ ...unversioned, format_version: 99 });
      await writeFile(file, text);
      await expect(readAndMigrate(file)).rejects.toThrow(StoreLoadError);
      await expect(readAndMigrate(file)).rejects.toThrow(/newer emulator/);
      expect(await readFile(file, 'utf8')).toBe(text);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
