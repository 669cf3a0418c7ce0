/** The OpenAPI document of the control API lists every route, and every route it lists answers. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type EmulatorHandle } from '../../server/index.js';

let cms: EmulatorHandle;
beforeAll(async () => {
  cms = await startEmulator();
});
afterAll(async () => {
  await cms.close();
});

interface OpenApi {
  openapi: string;
  paths: Record<string, Record<string, unknown>>;
}

describe('GET /__emulator/openapi.json', () => {
  it('is an OpenAPI 3.1 document', async () => {
    const res = await fetch(`${cms.controlUrl}/openapi.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as OpenApi;
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths).length).toBeGreaterThan(20);
  });

  it('every path and method it lists is routed (never the control API’s own 404)', async () => {
    const doc = (await (await fetch(`${cms.controlUrl}/openapi.json`)).json()) as OpenApi;
    for (const [template, methods] of Object.entries(doc.paths)) {
      const path = template
        .replace('{org}', 'acme')
        .replace('{slug}', 'no-such-slug')
        .replace('{key}', 'brands')
        .replace('{id}', '999999')
        .replace('{action}', 'publish')
        .replace('{name}', 'probe')
        .replace('{section}', 'posts');
      for (const method of Object.keys(methods)) {
        if (template === '/events' || (template === '/reset' && method === 'post') || template === '/state') continue;
        const res = await fetch(
          `${cms.controlUrl}${path}${template.includes('wait') || template.endsWith('/idle') ? '?timeout_ms=1' : ''}`,
          {
            method: method.toUpperCase(),
            headers: { 'content-type': 'application/json' },
            body: ['post', 'put'].includes(method) ? '{}' : undefined,
          },
        );
        const text = await res.text();
        expect(text, `${method.toUpperCase()} ${path}`).not.toContain('No such control endpoint');
        expect(res.status, `${method.toUpperCase()} ${path}`).toBeLessThan(500);
      }
    }
  });
});
