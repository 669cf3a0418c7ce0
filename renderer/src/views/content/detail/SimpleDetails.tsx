/** Authors, categories, tags and webhooks: read-only records shown as property lists. */
import type { Author, Term, Webhook } from '../../../api/types.js';
import { Json } from '../../../components/Code.js';
import { CopyButton } from '../../../components/CopyButton.js';
import { HeaderTable } from '../../../components/HeaderTable.js';
import { Tabs } from '../../../components/Tabs.js';
import { href } from '../../../state/route.js';
import { GenericValue } from '../FieldValue.js';
import { DetailHead, Props } from './parts.js';

const raw = (value: unknown) => ({ id: 'raw', label: 'Raw JSON', render: () => <Json value={value} /> });

export function AuthorDetail({ author, org }: { author: Author; org: string }) {
  const name = `${author.first_name} ${author.last_name}`.trim() || author.slug;
  return (
    <article data-testid="author-detail" aria-label={`Author ${name}`}>
      <DetailHead title={name} sub={author.slug} />
      <Tabs
        label="Author"
        tabs={[
          {
            id: 'fields',
            label: 'Fields',
            render: () => (
              <Props
                rows={[
                  ['Title', author.title],
                  ['Email', author.email],
                  ['Bio', <span class="pre-wrap">{author.bio}</span>],
                  ['Profile image', author.profile_image ? <GenericValue value={author.profile_image} ctx={{ org }} /> : null],
                  ['LinkedIn', author.linkedin_url],
                  ['Facebook', author.facebook_url],
                  ['Pinterest', author.pinterest_url],
                  ['Instagram', author.instagram_url],
                  ['Twitter', author.twitter_handle],
                ]}
              />
            ),
          },
          raw(author),
        ]}
      />
    </article>
  );
}

export function TermDetail({ term, kind }: { term: Term; kind: 'category' | 'tag' }) {
  return (
    <article data-testid="term-detail" aria-label={`${kind} ${term.name}`}>
      <DetailHead title={term.name} sub={`${kind} · ${term.slug}`} />
      <Tabs
        label={kind}
        tabs={[
          {
            id: 'fields',
            label: 'Fields',
            render: () => (
              <Props
                rows={[
                  ['Slug', term.slug],
                  ['Name', term.name],
                ]}
              />
            ),
          },
          raw(term),
        ]}
      />
    </article>
  );
}

export function WebhookDetail({ webhook }: { webhook: Webhook }) {
  return (
    <article data-testid="webhook-detail" aria-label={`Webhook ${webhook.id}`}>
      <DetailHead title={webhook.id} state={{ state: webhook.enabled ? 'enabled' : 'disabled' }} sub={webhook.url} />
      <p class="muted small">
        Webhooks are set in the data file; this is a read-only view. Their deliveries are in <a href={href('webhooks')}>Webhooks</a>.
      </p>
      <Tabs
        label="Webhook"
        tabs={[
          {
            id: 'settings',
            label: 'Settings',
            render: () => (
              <Props
                rows={[
                  [
                    'Target',
                    <span class="with-copy">
                      <span class="mono">{webhook.url}</span> <CopyButton text={webhook.url} label="Copy target" />
                    </span>,
                  ],
                  [
                    'Events',
                    <span class="chips">
                      {webhook.events.map((e) => (
                        <span key={e} class="chip mono">
                          {e}
                        </span>
                      ))}
                    </span>,
                  ],
                  ['Timeout', `${webhook.timeout_ms} ms`],
                  [
                    'Retries',
                    webhook.retry_delays_ms.length ? webhook.retry_delays_ms.map((ms) => `${ms} ms`).join(', ') : 'none (one attempt)',
                  ],
                  [
                    'Headers',
                    Object.keys(webhook.headers).length ? <HeaderTable headers={webhook.headers} label="Custom headers" /> : null,
                  ],
                ]}
              />
            ),
          },
          raw(webhook),
        ]}
      />
    </article>
  );
}
