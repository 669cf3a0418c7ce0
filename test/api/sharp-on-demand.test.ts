/**
 * sharp (libvips, ~28 MB resident) is loaded at the first image the emulator transforms, not at
 * start: a suite that never asks the CDN for a transform does not carry it. Run in a child
 * process, since this test runner's own process has sharp loaded by other tests; which shared
 * libraries are loaded is read from process.report.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const server = fileURLToPath(new URL('../../server/index.ts', import.meta.url));

describe('sharp on demand', () => {
  it('is not loaded by starting and reading, and is by the first transform', () => {
    const script = `
      const { startEmulator } = await import(${JSON.stringify(server)});
      const vips = () => process.report.getReport().sharedObjects.some((path) => /vips/i.test(path));
      const cms = await startEmulator();
      const [slug, tokens] = Object.entries(cms.tokens)[0];
      const image = cms.emulator.store.organization(slug).media.find((m) => m.content_type === 'image/jpeg').id;
      const list = await fetch(cms.apiUrl + '/posts/?auth_token=' + tokens.read);
      const original = await fetch(cms.cdnUrl + '/' + image);
      await original.arrayBuffer();
      const afterReads = vips();
      const transformed = await fetch(cms.cdnUrl + '/resize=width:40/' + image);
      const type = transformed.headers.get('content-type');
      await transformed.arrayBuffer();
      const afterTransform = vips();
      await cms.close();
      process.stdout.write(JSON.stringify({ list: list.status, original: original.status, afterReads, transformed: transformed.status, type, afterTransform }));
    `;
    const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      list: 200,
      original: 200,
      afterReads: false,
      transformed: 200,
      type: 'image/jpeg',
      afterTransform: true,
    });
  }, 60_000);
});
