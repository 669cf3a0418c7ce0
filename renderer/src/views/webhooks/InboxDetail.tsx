/** One inbox: its receiver URL, how it answers (editable), and what it received. */
import { call, controlUrl } from '../../api/client.js';
import { CopyButton } from '../../components/CopyButton.js';
import { attempt } from '../../state/toasts.js';
import { InboxForm } from './InboxForm.js';
import { InboxRequests } from './InboxRequests.js';
import { useInbox } from './useInboxes.js';
import { useInboxUsers, type InboxUser } from './useInboxUsers.js';

function Users({ users }: { users: InboxUser[] | null }) {
  if (users === null) return <span class="muted">…</span>;
  if (users.length === 0) return <span class="muted">no webhook (reachable by an edited replay's target)</span>;
  return (
    <>
      {users.map((u, i) => (
        <span key={`${u.organization}/${u.webhook.id}`}>
          {i > 0 && ', '}
          <span class="mono">
            {u.organization}/{u.webhook.id}
          </span>
          {!u.webhook.enabled && <span class="muted"> (disabled)</span>}
        </span>
      ))}
    </>
  );
}

export function InboxDetail({ name, onChanged }: { name: string; onChanged: () => void }) {
  const { inbox, error, reload } = useInbox(name);
  const users = useInboxUsers(name);
  if (error) return <p class="muted">{error}</p>;
  if (!inbox) return <p class="muted">Loading…</p>;
  const url = controlUrl(`inboxes/${encodeURIComponent(name)}`);
  const changed = () => {
    reload();
    onChanged();
  };

  return (
    <div data-testid="inbox-detail">
      <div class="detail-head">
        <span class="mono wh-detail-event">inbox:{inbox.name}</span>
        <span class="spacer" />
        <CopyButton text={url} label="Copy URL" />
      </div>
      <dl class="props small">
        <dt>Receives at</dt>
        <dd class="mono">POST {url}</dd>
        <dt>Webhooks</dt>
        <dd>
          <Users users={users} />
        </dd>
      </dl>
      <h3>How it answers</h3>
      <InboxForm key={`${inbox.name}:${inbox.status}:${inbox.delay_ms}:${inbox.fail_first}`} config={inbox} onSaved={changed} />
      <div class="wh-subhead">
        <h3>Received ({inbox.requests.length})</h3>
        <button
          type="button"
          class="small"
          disabled={inbox.requests.length === 0}
          onClick={() =>
            void attempt(async () => {
              await call(`inboxes/${encodeURIComponent(name)}/requests`, { method: 'DELETE' });
              changed();
            }, `inbox:${name} emptied`)
          }
        >
          Clear received
        </button>
      </div>
      <InboxRequests requests={inbox.requests} />
    </div>
  );
}
