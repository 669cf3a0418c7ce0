/** A media library file: a preview through the CDN, its size and dimensions, its URLs with copy buttons. */
import type { MediaRecord } from '../../../api/types.js';
import { Json } from '../../../components/Code.js';
import { CopyButton } from '../../../components/CopyButton.js';
import { bytesOf } from '../../../components/format.js';
import { Tabs } from '../../../components/Tabs.js';
import { cdnUrl, previewUrl, thumbUrl } from '../media.js';
import { DetailHead, Props, when } from './parts.js';

function UrlRow({ url, label }: { url: string; label: string }) {
  return (
    <span class="with-copy">
      <span class="mono wrap">{url}</span>
      <CopyButton text={url} label={label} />
    </span>
  );
}

export function MediaDetail({ media }: { media: MediaRecord }) {
  const image = media.content_type.startsWith('image/');
  return (
    <article data-testid="media-detail" aria-label={`Media ${media.id}`}>
      <DetailHead title={media.alt || media.id} sub={media.id} />
      {image ? (
        <img class="media-preview" src={previewUrl(media.id, 1040, 720)} alt={media.alt ?? ''} decoding="async" />
      ) : (
        <p class="muted">No preview for {media.content_type}.</p>
      )}
      <Tabs
        label="Media"
        tabs={[
          {
            id: 'details',
            label: 'Details',
            render: () => (
              <Props
                rows={[
                  ['Type', media.content_type],
                  ['Size', `${bytesOf(media.size)} (${media.size.toLocaleString()} bytes)`],
                  ['Dimensions', media.width && media.height ? `${media.width} × ${media.height}` : null],
                  ['Alt text', media.alt],
                  ['Created', when(media.created)],
                  ['File', <span class="mono">{media.file}</span>],
                  [
                    'Original URL',
                    media.original_url ? <UrlRow url={media.original_url} label="Copy original URL" /> : 'came with the fixture',
                  ],
                  ['CDN URL', <UrlRow url={cdnUrl(media.id)} label="Copy CDN URL" />],
                  ['Thumbnail', <UrlRow url={thumbUrl(media.id)} label="Copy thumbnail URL" />],
                  ['Reference', <UrlRow url={`media:${media.id}`} label="Copy reference" />],
                ]}
              />
            ),
          },
          { id: 'raw', label: 'Raw JSON', render: () => <Json value={media} /> },
        ]}
      />
    </article>
  );
}
