import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findElectron, noDisplayReason } from '../../../scripts/support/electron-binary.js';

describe('findElectron (npm start, the e2e test)', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('finds the binary under ELECTRON_OVERRIDE_DIST_PATH without downloading anything', async () => {
    const dist = await mkdtemp(join(tmpdir(), 'cms-electron-dist-'));
    dirs.push(dist);
    expect(findElectron({ ELECTRON_OVERRIDE_DIST_PATH: dist }, 'linux').binary).toBeNull();
    await writeFile(join(dist, 'electron'), '');
    expect(findElectron({ ELECTRON_OVERRIDE_DIST_PATH: dist }, 'linux').binary).toBe(join(dist, 'electron'));
    await mkdir(join(dist, 'Electron.app/Contents/MacOS'), { recursive: true });
    await writeFile(join(dist, 'Electron.app/Contents/MacOS/Electron'), '');
    expect(findElectron({ ELECTRON_OVERRIDE_DIST_PATH: dist }, 'darwin').binary).toBe(join(dist, 'Electron.app/Contents/MacOS/Electron'));
  });

  it('reports where it looked when the binary is missing (as on our machines)', () => {
    const { binary, lookedAt } = findElectron({}, process.platform);
    if (binary === null) expect(lookedAt).toMatch(/electron/);
    else expect(lookedAt).toBe(binary);
  });
});

describe('noDisplayReason', () => {
  it('asks for a display on Linux only', () => {
    expect(noDisplayReason({}, 'linux')).toMatch(/no display/);
    expect(noDisplayReason({ DISPLAY: ':0' }, 'linux')).toBeNull();
    expect(noDisplayReason({ WAYLAND_DISPLAY: 'wayland-0' }, 'linux')).toBeNull();
    expect(noDisplayReason({}, 'darwin')).toBeNull();
    expect(noDisplayReason({}, 'win32')).toBeNull();
  });
});
