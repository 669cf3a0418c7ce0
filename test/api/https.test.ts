/** --https: a locally generated certificate, served and reused (issue 6). */
import { readFile } from 'node:fs/promises';
import { get } from 'node:https';
import { describe, expect, it } from 'vitest';
import { startEmulator } from '../../server/index.js';

function getJson(url: string, ca: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    get(url, { ca }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as unknown }));
    }).on('error', reject);
  });
}

describe('https', () => {
  it('serves the API over TLS with a certificate a client can trust, kept for the next start', async () => {
    const cms = await startEmulator({ https: true });
    try {
      expect(cms.apiUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/v2$/);
      const certFile = cms.emulator.certificateFile()!;
      const cert = await readFile(certFile, 'utf8');
      expect(cert).toContain('BEGIN CERTIFICATE');
      const res = await getJson(`${cms.apiUrl}/posts/?auth_token=${cms.tokens['acme']!.read}&page_size=1`, cert);
      expect(res.status).toBe(200);
      await expect(getJson(`${cms.apiUrl}/posts/`, '')).rejects.toThrow();

      await cms.emulator.stop();
      const again = await startEmulator({ https: true, dataDir: cms.dataDir });
      try {
        expect(await readFile(again.emulator.certificateFile()!, 'utf8')).toBe(cert);
      } finally {
        await again.close();
      }
    } finally {
      await cms.close().catch(() => undefined);
    }
  });
});
