import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { builtInFixturesDir, planDataFolder, startNote } from '../../../electron/first-run.js';
import { createEmulator } from '../../../server/index.js';

const base = { userData: '/home/me/.config/CMS Emulator', appPath: '/repo', packaged: false, cwd: '/work' };
const nothing = () => false;

describe('planDataFolder', () => {
  it('uses <userData>/data and the built-in demo by name in development', () => {
    expect(planDataFolder(base, nothing)).toEqual({ dataDir: '/home/me/.config/CMS Emulator/data', fixture: 'demo', firstRun: true });
  });

  it('knows a folder that already has data.json is not a first run', () => {
    const plan = planDataFolder(base, (path) => path === '/home/me/.config/CMS Emulator/data/data.json');
    expect(plan.firstRun).toBe(false);
  });

  it('takes --data and a --fixture path relative to the working directory', () => {
    expect(planDataFolder({ ...base, requested: 'my-data', fixture: './fixtures/shop' }, nothing)).toEqual({
      dataDir: '/work/my-data',
      fixture: '/work/fixtures/shop',
      firstRun: true,
    });
  });

  it('names built-in fixtures by their unpacked path in the packaged app (fs.cp cannot read inside app.asar)', () => {
    const packaged = { ...base, appPath: '/opt/CMS Emulator/resources/app.asar', packaged: true };
    expect(planDataFolder(packaged, nothing).fixture).toBe('/opt/CMS Emulator/resources/app.asar.unpacked/fixtures/demo');
    expect(planDataFolder({ ...packaged, fixture: 'other' }, nothing).fixture).toBe(
      '/opt/CMS Emulator/resources/app.asar.unpacked/fixtures/other',
    );
    expect(builtInFixturesDir('/opt/app/resources/app', true)).toBe('/opt/app/resources/app/fixtures');
    expect(builtInFixturesDir('/repo', false)).toBeNull();
  });
});

describe('first run, for real', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('seeds a new data folder from the demo fixture, and leaves it alone the next time', async () => {
    const userData = await mkdtemp(join(tmpdir(), 'cms-desktop-first-run-'));
    dirs.push(userData);
    const plan = planDataFolder({ ...base, userData }, existsSync);
    expect(plan.firstRun).toBe(true);

    const first = await createEmulator({ dataDir: plan.dataDir, fixture: plan.fixture, watch: false });
    expect(first.dataFile.seeded).toBe(true);
    expect(startNote(first.dataFile)).toMatch(/^Data file .*data\.json \(new, seeded from .*fixtures[/\\]demo\)$/);
    const demo = JSON.parse(await readFile(resolve('fixtures/demo/data.json'), 'utf8')) as unknown;
    expect(JSON.parse(await readFile(join(plan.dataDir, 'data.json'), 'utf8'))).toEqual(demo);
    await first.stop();

    const again = planDataFolder({ ...base, userData }, existsSync);
    expect(again.firstRun).toBe(false);
    const second = await createEmulator({ dataDir: again.dataDir, fixture: again.fixture, watch: false });
    expect(second.dataFile.seeded).toBe(false);
    expect(startNote(second.dataFile)).toBe(`Data file ${join(plan.dataDir, 'data.json')}`);
    await second.stop();
  });
});
