/**
 * Media references and CDN URLs. Content points at a library file as `media:<id>` (docs: the
 * media library); the UI shows it through the emulator's CDN, which the CSP allows (our origin).
 */
import { serverOrigin } from '../../api/client.js';

/** Where the CDN is mounted on the emulator's port (server/media/cdn-path.ts). */
const CDN_PATH = '/cdn';

const MEDIA_REF = /^media:([A-Za-z0-9]{20})$/;

/** The media id of a `media:<id>` value (or of `{url: 'media:<id>'}`), else null. */
export function mediaIdOf(value: unknown): string | null {
  const url = typeof value === 'string' ? value : isObject(value) && typeof value['url'] === 'string' ? value['url'] : null;
  return url === null ? null : (MEDIA_REF.exec(url)?.[1] ?? null);
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function cdnUrl(id: string): string {
  return `${serverOrigin}${CDN_PATH}/${id}`;
}

/** A square thumbnail (cropped), 160 px so it stays sharp at 80 CSS px on a dense screen. */
export function thumbUrl(id: string, size = 160): string {
  return `${serverOrigin}${CDN_PATH}/resize=width:${size},height:${size},fit:crop/${id}`;
}

/** The whole image within a box, not cropped. */
export function previewUrl(id: string, width = 640, height = 480): string {
  return `${serverOrigin}${CDN_PATH}/resize=width:${width},height:${height},fit:max/${id}`;
}

/** `media:<id>` sources in an HTML body, pointed at the CDN for the sandboxed preview. */
export function resolveMediaRefs(html: string): string {
  return html.replace(/media:([A-Za-z0-9]{20})/g, (_match, id: string) => cdnUrl(id));
}
