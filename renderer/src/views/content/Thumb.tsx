/** A media library file as a CDN thumbnail (a 160 px cropped square), lazy so a grid of many stays cheap. */
import { thumbUrl } from './media.js';

export function Thumb({ id, alt, size = 80 }: { id: string; alt: string; size?: number }) {
  return <img class="thumb" src={thumbUrl(id)} alt={alt} width={size} height={size} loading="lazy" decoding="async" />;
}
