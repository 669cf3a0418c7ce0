/**
 * Serves the built renderer (Vite's output in dist/renderer) under /__emulator/ui/, behind the
 * same guard as the control API it talks to. Every answer carries a strict CSP: the UI shows
 * untrusted text (post bodies, webhook responses), so even a bug that injected it as HTML could
 * run no script and reach no other origin.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import express, { Router, type RequestHandler } from 'express';
import { packageRoot } from '../store/seed.js';

export const UI_PATH = '/__emulator/ui';

/**
 * Each directive is the narrowest the UI works with:
 * - scripts and styles only from our origin: Vite emits files, no inline code;
 * - images from our origin (CDN thumbnails) and data: URIs (Vite inlines small icons);
 * - connect to our origin only (control API, SSE stream);
 * - frames: the sandboxed preview of an HTML body is an `srcdoc` iframe, which inherits this
 *   policy, so no script runs inside it either;
 * - nothing may frame the UI, no plugins, forms post nowhere, <base> cannot be changed.
 */
export const UI_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "frame-src 'self'",
  "frame-ancestors 'none'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

const securityHeaders: RequestHandler = (_req, res, next) => {
  res.setHeader('Content-Security-Policy', UI_CONTENT_SECURITY_POLICY);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  next();
};

/** Where the built UI lives; overridable so tests can serve a fixture build. */
export function rendererDir(): string {
  return join(packageRoot(), 'dist', 'renderer');
}

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>CMS Emulator</title>
<p>The UI has not been built. Run <code>npm run build</code> (npm install does it for you), then reload.</p>`;

export function uiRouter(dir: string = rendererDir()): Router {
  const router = Router({ strict: true });
  router.use(securityHeaders);
  // Hashed asset names never change content: cache them for good. index.html always revalidates.
  router.use('/assets', express.static(join(dir, 'assets'), { immutable: true, maxAge: '1y', fallthrough: false }));
  router.use(express.static(dir, { index: false, fallthrough: true }));
  // The UI routes with the URL hash, so every other path under /ui/ is its shell.
  router.get('/{*splat}', (_req, res) => {
    const index = join(dir, 'index.html');
    res.setHeader('Cache-Control', 'no-cache');
    if (existsSync(index)) res.sendFile(index);
    else res.status(503).type('html').send(NOT_BUILT);
  });
  return router;
}
