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
  // Imports run beside the write line, several at once: two of the same URL share one download
  // (the library keeps one record per URL).
  const downloading = new Map<string, Promise<string>>();

  async function libraryIdFor(organization: string, url: string, alt: string | null, cause: Cause): Promise<string> {
    const org = organizationOf(ctx, organization);
    const known = new Set(org.media.map((m) => m.id));
    // Already in the library: the same remote URL, or one of our own CDN URLs.
    const existing = cdnIdOf(url, known) ?? org.media.find((m) => m.original_url === url)?.id;
    if (existing !== undefined) return existing;
    const key = `${organization}\n${url}`;
    let download = downloading.get(key);
    if (!download) {
      download = (async () => {
        try {
          const record = await downloadMedia({ url, organization, alt, dataDir, now: isoNow(ctx.clock), ...(limits ? { limits } : {}) });
          // The store may have been replaced (reset, restore) while the download ran.
          const current = organizationOf(ctx, organization);
          ctx.store.mutate(() => current.media.push(record));
          ctx.bus.emit({ type: 'media.created', organization, media: structuredClone(record), cause });
          return record.id;
        } catch (err) {
          if (err instanceof DownloadError) throw new WriteFailure(`${err.message}. The content keeps the remote URL.`);
          throw err;
        }
      })().finally(() => downloading.delete(key));
      downloading.set(key, download);
    }
    return download;
  }

  ctx.jobs.register(
    'media.import',
    async ({ organization, url, alt, target }, job) => {
      const libraryId = await libraryIdFor(organization, url, alt, job.cause);
      const org = organizationOf(ctx, organization);
      const found = ctx.store.mutate(() => useLibraryFile(org, target, url, libraryId));
      if (!found) throw new WriteFailure(`The media was saved to the library, but the record that uses it was deleted meanwhile.`);
    },
    { beside: true },
  );
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
