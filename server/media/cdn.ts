/**
 * The image CDN (spec: Image transformation): `{cdn_url}/<image_id>` serves the original,
 * `{cdn_url}/<step>/…/<image_id>` a transformed copy. The CDN lives on the emulator's own port
 * under `/cdn` (docs/spec-gaps.md). Transformed images are cached on disk by source and steps;
 * files are served with sendFile, which answers conditional requests with 304.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Router, type Response } from 'express';
import type { EmulatorContext } from '../context.js';
import { badRequest, notFound } from '../domain/errors.js';
import { canonicalTransforms, parseTransforms, type OutputFormat } from '../domain/media/transform.js';
import { messages } from '../domain/messages.js';
import type { MediaRecord } from '../store/schema.js';
import { CDN_PATH } from './cdn-path.js';
import { methodNotAllowed } from '../http/method-not-allowed.js';
import { transformImage } from './transformer.js';

export { CDN_PATH };

/** Media ids never change what they point to, so caches may keep them for a year. */
const SEND_OPTIONS = { maxAge: 365 * 24 * 3600 * 1000, immutable: true, dotfiles: 'deny' as const };

const TRANSFORMABLE = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/avif', 'image/gif', 'image/svg+xml']);
const FORMAT_OF: Record<string, OutputFormat> = { 'image/jpeg': 'jpg', 'image/webp': 'webp', 'image/avif': 'avif' };
const CONTENT_TYPE_OF: Record<OutputFormat, string> = { jpg: 'image/jpeg', png: 'image/png', webp: 'image/webp', avif: 'image/avif' };

/**
 * CDN files share the UI's origin, and a hand-edited data file can say anything about a file's
 * type (an SVG can hold script): a file opened directly runs nothing (a sandboxed, script-less
 * policy; <img> embedding is unaffected), and a type that is not media is served as a download.
 */
const CDN_CONTENT_SECURITY_POLICY = "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox";
const SERVABLE_TYPE = /^(image|video|audio)\/[a-z0-9.+-]+$|^application\/pdf$/;

export function cdnRouter(ctx: EmulatorContext): Router {
  const router = Router({ strict: true });
  const dataDir = dirname(ctx.store.file);
  /** Transforms in progress, so a burst of identical requests runs sharp once. */
  const inflight = new Map<string, Promise<void>>();

  function findMedia(id: string): MediaRecord | undefined {
    for (const org of ctx.store.organizations()) {
      const record = org.media.find((m) => m.id === id);
      if (record) return record;
    }
    return undefined;
  }

  function send(res: Response, file: string, contentType: string): Promise<void> {
    const servable = SERVABLE_TYPE.test(contentType);
    const headers: Record<string, string> = {
      'Content-Type': servable ? contentType : 'application/octet-stream',
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': CDN_CONTENT_SECURITY_POLICY,
    };
    if (!servable) headers['Content-Disposition'] = 'attachment';
    return new Promise((resolve, reject) => {
      res.sendFile(file, { ...SEND_OPTIONS, headers }, (err) => {
        if (err && !res.headersSent) reject(notFound(messages.notFound));
        else resolve();
      });
    });
  }

  router.get(`${CDN_PATH}/*path`, async (req, res) => {
    const segments = (req.params as { path: string[] }).path;
    const id = segments[segments.length - 1] ?? '';
    const record = findMedia(id);
    if (!record) throw notFound(messages.notFound);
    const source = join(dataDir, record.file);
    if (!existsSync(source)) throw notFound(messages.mediaFileMissing(record.file));

    const steps = parseTransforms(segments.slice(0, -1));
    if (steps.length === 0) {
      await send(res, source, record.content_type);
      return;
    }
    if (!TRANSFORMABLE.has(record.content_type)) throw badRequest(messages.notTransformable(record.content_type));

    const output = steps.filter((s) => s.op === 'output').reduce<OutputFormat | null>((f, s) => s.format ?? f, null);
    const format = output ?? FORMAT_OF[record.content_type] ?? 'png';
    const key = createHash('sha256')
      .update(`${record.id}\n${record.size}\n${canonicalTransforms(steps)}`)
      .digest('hex')
      .slice(0, 40);
    const cached = join(dataDir, 'cache', `${key}.${format}`);
    if (!existsSync(cached)) {
      let job = inflight.get(key);
      if (!job) {
        job = (async () => {
          const image = await transformImage(source, steps);
          await mkdir(dirname(cached), { recursive: true });
          const temporary = `${cached}.${process.pid}.tmp`;
          await writeFile(temporary, image.data);
          await rename(temporary, cached);
        })().finally(() => inflight.delete(key));
        inflight.set(key, job);
      }
      await job;
    }
    await send(res, cached, CONTENT_TYPE_OF[format]);
  });

  router.all(`${CDN_PATH}/*path`, methodNotAllowed('GET'));

  return router;
}
