/**
 * The emulator's server makes requests and responses with its Express app's prototypes
 * (server/http/express-messages.ts), over HTTP and HTTPS: Express's per-request prototype swap
 * then changes nothing (docs/performance.md, session 6).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { request } from 'node:https';
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { startEmulator, type EmulatorHandle } from '../../server/index.js';

type Handle = (req: IncomingMessage, res: ServerResponse, next?: unknown) => void;

/** Records, for each request Express is handed, whether it already had the app's prototypes. */
function watchPrototypes(cms: EmulatorHandle): boolean[] {
  // `handle` is what the app function calls for each request (Express's application.js); its types leave it out.
  const app = cms.emulator.app as typeof cms.emulator.app & { handle: Handle };
  const handle = app.handle.bind(app);
  const seen: boolean[] = [];
  app.handle = (req, res, next) => {
    seen.push(Object.getPrototypeOf(req) === app.request && Object.getPrototypeOf(res) === app.response);
    handle(req, res, next);
  };
  return seen;
}

describe('requests reach Express with its prototypes', () => {
  it('over HTTP', async () => {
    const cms = await startEmulator();
    try {
      const seen = watchPrototypes(cms);
      const res = await fetch(`${cms.apiUrl}/posts/?auth_token=${cms.tokens['acme']!.read}&page_size=1`);
      expect(res.status).toBe(200);
      expect(seen).toEqual([true]);
    } finally {
      await cms.close();
    }
  });

  it('over HTTPS', async () => {
    const cms = await startEmulator({ https: true });
    try {
      const seen = watchPrototypes(cms);
      const ca = await readFile(cms.emulator.certificateFile()!, 'utf8');
      const status = await new Promise<number>((resolve, reject) => {
        request(`${cms.apiUrl}/posts/?auth_token=${cms.tokens['acme']!.read}&page_size=1`, { ca }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
          .on('error', reject)
          .end();
      });
      expect(status).toBe(200);
      expect(seen).toEqual([true]);
    } finally {
      await cms.close();
    }
  });
});
