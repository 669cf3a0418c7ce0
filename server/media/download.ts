/**
 * Downloads a remote file into the media library, defensively (issue 4): only http and https,
 * a timeout on the whole transfer, a size cap enforced while streaming (not trusted from
 * Content-Length), an allow-list of content types, and a file name made from a random id and the
 * content type, never from the URL, so no path can be smuggled in.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { MediaRecord } from '../store/schema.js';
import { imageSize } from './transformer.js';

export interface DownloadLimits {
  timeoutMs: number;
  maxBytes: number;
}

export const DEFAULT_DOWNLOAD_LIMITS: DownloadLimits = { timeoutMs: 15_000, maxBytes: 25 * 1024 * 1024 };

/** Content types the library accepts, with the extension their files get. */
const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/avif': 'avif',
  'image/svg+xml': 'svg',
  'video/mp4': 'mp4',
  'video/webm': 'webm',
  'audio/mpeg': 'mp3',
  'application/pdf': 'pdf',
};

/** An organization's media folder: its slug with anything but letters, digits, _ and - replaced. */
export function mediaFolder(organization: string): string {
  return organization.replace(/[^A-Za-z0-9_-]/g, '_');
}

export class DownloadError extends Error {
  override name = 'DownloadError';
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** 20 random letters and digits: the image id of CDN URLs. */
export function newMediaId(): string {
  return Array.from(randomBytes(20), (b) => ALPHABET[b % ALPHABET.length]).join('');
}

export interface DownloadRequest {
  url: string;
  organization: string;
  alt: string | null;
  dataDir: string;
  now: string;
  limits?: DownloadLimits;
}

export async function downloadMedia(request: DownloadRequest): Promise<MediaRecord> {
  const limits = request.limits ?? DEFAULT_DOWNLOAD_LIMITS;
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    throw new DownloadError(`Not a URL: ${request.url}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new DownloadError(`Only http and https URLs are downloaded, not ${url.protocol}`);

  const signal = AbortSignal.timeout(limits.timeoutMs);
  let response: Response;
  try {
    response = await fetch(url, { signal, redirect: 'follow' });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    const reason = signal.aborted
      ? `no answer within ${limits.timeoutMs / 1000} s`
      : (cause?.code ?? cause?.message ?? (err as Error).message);
    throw new DownloadError(`Could not download ${request.url}: ${reason}`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new DownloadError(`Could not download ${request.url}: the server answered ${response.status}`);
  }
  const contentType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const extension = EXTENSIONS[contentType];
  if (!extension) {
    await response.body?.cancel();
    throw new DownloadError(`Refused ${request.url}: content type "${contentType || 'none'}" is not an image, video, audio file or PDF`);
  }
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limits.maxBytes) {
    await response.body?.cancel();
    throw new DownloadError(`Refused ${request.url}: ${declared} bytes is over the ${limits.maxBytes}-byte limit`);
  }

  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of response.body ?? []) {
      size += chunk.byteLength;
      if (size > limits.maxBytes) throw new DownloadError(`Refused ${request.url}: larger than the ${limits.maxBytes}-byte limit`);
      chunks.push(chunk);
    }
  } catch (err) {
    if (err instanceof DownloadError) throw err;
    throw new DownloadError(
      `Could not download ${request.url}: ${signal.aborted ? `no answer within ${limits.timeoutMs / 1000} s` : (err as Error).message}`,
    );
  }

  const id = newMediaId();
  const folder = mediaFolder(request.organization);
  const relative = `media/${folder}/${id}.${extension}`;
  const file = join(request.dataDir, relative);
  await mkdir(join(request.dataDir, 'media', folder), { recursive: true });
  await writeFile(file, Buffer.concat(chunks));
  try {
    const { width, height } = contentType.startsWith('image/') ? await imageSize(file) : { width: null, height: null };
    // A file that claims to be a raster image must decode as one.
    if (contentType.startsWith('image/') && contentType !== 'image/svg+xml' && (width === null || height === null)) {
      throw new DownloadError(`Refused ${request.url}: it says ${contentType} but is not a readable image`);
    }
    return {
      id,
      file: relative,
      original_url: request.url,
      content_type: contentType,
      size,
      width,
      height,
      alt: request.alt,
      created: request.now,
    };
  } catch (err) {
    await rm(file, { force: true });
    throw err;
  }
}
