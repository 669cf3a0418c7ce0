/**
 * Background media downloads (issue 4). A write that names remote media finishes first; then one
 * `media.import` job per URL downloads the file (or finds it in the library already) and points
 * the written record at it. A download that fails fails its job with the reason, and the record
 * keeps the remote URL it was written with (docs/spec-gaps.md).
 */
import { dirname } from 'node:path';
import { isoNow } from '../clock.js';
import type { EmulatorContext } from '../context.js';
import type { Cause } from '../domain/events.js';
import { WriteFailure } from '../domain/errors.js';
import { mediaUrls } from '../domain/content/field-values.js';
import type { LocaleChanges } from '../domain/content/merge.js';
import { useLibraryFile, type MediaTarget } from '../domain/media/imports.js';
import { cdnIdOf } from '../domain/media/library.js';
import { DownloadError, downloadMedia, type DownloadLimits } from '../media/download.js';
import type { FieldDef } from '../store/schema.js';
import { organizationOf } from './organization.js';

export function registerMediaJobs(ctx: EmulatorContext, limits?: DownloadLimits): void {
  const dataDir = dirname(ctx.store.file);

  ctx.jobs.register('media.import', async ({ organization, url, alt, target }, job) => {
    const org = organizationOf(ctx, organization);
    const known = new Set(org.media.map((m) => m.id));
    // Already in the library: the same remote URL, or one of our own CDN URLs.
    let id = cdnIdOf(url, known) ?? org.media.find((m) => m.original_url === url)?.id ?? null;
    if (id === null) {
      try {
        const record = await downloadMedia({ url, organization, alt, dataDir, now: isoNow(ctx.clock), ...(limits ? { limits } : {}) });
        ctx.store.mutate(() => org.media.push(record));
        ctx.bus.emit({ type: 'media.created', organization, media: structuredClone(record), cause: job.cause });
        id = record.id;
      } catch (err) {
        if (err instanceof DownloadError) throw new WriteFailure(`${err.message}. The content keeps the remote URL.`);
        throw err;
      }
    }
    const libraryId = id;
    const found = ctx.store.mutate(() => useLibraryFile(org, target, url, libraryId));
    if (!found) throw new WriteFailure(`The media was saved to the library, but the record that uses it was deleted meanwhile.`);
  });
}

/** Queues one import per remote URL of the values a write stored. */
export function enqueueMediaImports(
  ctx: EmulatorContext,
  organization: string,
  defs: readonly FieldDef[],
  changes: LocaleChanges,
  target: MediaTarget,
  cause: Cause,
): void {
  const seen = new Set<string>();
  for (const { values } of changes) {
    for (const { url, alt } of mediaUrls(defs, values, 'fields')) {
      if (seen.has(url) || !/^https?:\/\//i.test(url)) continue;
      seen.add(url);
      ctx.jobs.enqueue('media.import', { organization, url, alt, target }, { organization, cause });
    }
  }
}
