/**
 * References to the media library inside content: a stored `media:<id>` (in a media field, a
 * post's featured_image, or an `<img src>` of a post body) is shown by reads as
 * `{cdn_url}/<id>`. Pure string work; the files themselves are server/media's.
 */
import { MEDIA_ID } from '../../store/schema-media.js';

export const MEDIA_SCHEME = 'media:';

export const mediaRef = (id: string): string => `${MEDIA_SCHEME}${id}`;

/** The library id a stored value refers to, or null for any other URL. */
export function mediaIdOf(value: string): string | null {
  if (!value.startsWith(MEDIA_SCHEME)) return null;
  const id = value.slice(MEDIA_SCHEME.length);
  return MEDIA_ID.test(id) ? id : null;
}

/** What a read shows for a stored media URL. */
export function liveMediaUrl(value: string, cdnUrl: string): string {
  const id = mediaIdOf(value);
  return id === null ? value : `${cdnUrl}/${id}`;
}

const MEDIA_ATTR = /(\b(?:src|href)\s*=\s*)(["'])media:([A-Za-z0-9]{20})\2/gi;

/** Rewrites `src="media:<id>"` (and href) in HTML to live CDN URLs. */
export function liveBodyMedia(html: string, cdnUrl: string): string {
  if (!html.includes(MEDIA_SCHEME)) return html;
  return html.replace(MEDIA_ATTR, (_whole, attr: string, quote: string, id: string) => `${attr}${quote}${cdnUrl}/${id}${quote}`);
}

const IMG_SRC = /<img\b[^>]*?\bsrc\s*=\s*(["'])(https?:\/\/[^"']+)\1/gi;

/** Remote image URLs of a post body (spec: upload_images_to_media_library). */
export function remoteImagesInBody(html: string): string[] {
  return [...new Set([...html.matchAll(IMG_SRC)].map((m) => decodeEntities(m[2]!)))];
}

/** Replaces an image URL in `<img src>` attributes by its library reference. */
export function replaceBodyImage(html: string, url: string, id: string): string {
  return html.replace(IMG_SRC, (whole, quote: string, src: string) =>
    decodeEntities(src) === url ? whole.replace(`${quote}${src}${quote}`, `${quote}${mediaRef(id)}${quote}`) : whole,
  );
}

/** `&amp;` in attribute values is the usual escaping of `&` in query strings. */
function decodeEntities(value: string): string {
  return value.replace(/&amp;/g, '&');
}

/**
 * A CDN URL of this emulator for an original (`…/cdn/<id>`) names a library file already. One
 * with transformation steps is a different image: it is downloaded like any other URL.
 */
export function cdnIdOf(url: string, knownIds: ReadonlySet<string>): string | null {
  const match = /\/cdn\/([A-Za-z0-9]{20})(?:[?#].*)?$/.exec(url);
  return match && knownIds.has(match[1]!) ? match[1]! : null;
}
