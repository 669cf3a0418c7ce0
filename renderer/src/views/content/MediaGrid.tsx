/** The media library as a grid of CDN thumbnails; each tile links to the file's details. */
import type { MediaRecord } from '../../api/types.js';
import { bytesOf } from '../../components/format.js';
import { placeHref } from './contentRoute.js';
import { Thumb } from './Thumb.js';

export function MediaGrid({ org, media, selected }: { org: string; media: MediaRecord[]; selected: string | null }) {
  if (media.length === 0) return <div class="list-empty">No media.</div>;
  return (
    <ul class="media-grid" aria-label="Media library">
      {media.map((m) => (
        <li key={m.id}>
          <a
            href={placeHref(org, { kind: 'media' }, m.id)}
            aria-current={m.id === selected ? 'true' : undefined}
            title={m.alt ?? m.id}
            data-testid="media-tile"
          >
            {m.content_type.startsWith('image/') ? (
              <Thumb id={m.id} alt={m.alt ?? ''} size={112} />
            ) : (
              <span class="thumb file-tile">{m.content_type}</span>
            )}
            <span class="tile-meta small">
              <span>{m.width && m.height ? `${m.width}×${m.height}` : m.content_type}</span>
              <span class="muted">{bytesOf(m.size)}</span>
            </span>
          </a>
        </li>
      ))}
    </ul>
  );
}
