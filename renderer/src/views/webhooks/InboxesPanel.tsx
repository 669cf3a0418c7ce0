/**
 * Inboxes: the emulator's built-in webhook receivers (#/webhooks/inboxes/<name>). A list of
 * them with how each answers, one in detail, and a way to add one (PUT of a new name).
 */
import { useState } from 'preact/hooks';
import { ControlError, getData } from '../../api/client.js';
import type { InboxConfig, InboxSummary } from '../../api/types.js';
import { href, navigate } from '../../state/route.js';
import { InboxDetail } from './InboxDetail.js';
import { useInboxes } from './useInboxes.js';

function AddInbox({ onAdded }: { onAdded: (name: string) => void }) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  async function add(event: Event) {
    event.preventDefault();
    setError(null);
    try {
      const config = await getData<InboxConfig>(`inboxes/${encodeURIComponent(name.trim())}/config`, { method: 'PUT', body: {} });
      setName('');
      onAdded(config.name);
    } catch (e) {
      setError(e instanceof ControlError ? e.detail : String(e));
    }
  }
  return (
    <form class="wh-add-inbox" aria-label="Add an inbox" onSubmit={(e) => void add(e)}>
      <input aria-label="New inbox name" placeholder="New inbox name" value={name} onInput={(e) => setName(e.currentTarget.value)} />
      <button type="submit" class="small" disabled={name.trim() === ''}>
        Add inbox
      </button>
      {error && (
        <p class="wh-field-error small" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

function InboxTable({ inboxes, selected }: { inboxes: InboxSummary[]; selected: string | null }) {
  if (inboxes.length === 0) return <p class="muted list-empty">No inboxes yet. Add one, or name one in a webhook as inbox:&lt;name&gt;.</p>;
  return (
    <table class="grid wh-inboxes" aria-label="Inboxes">
      <thead>
        <tr>
          <th scope="col">Inbox</th>
          <th scope="col" class="num">
            Status
          </th>
          <th scope="col" class="num">
            Delay
          </th>
          <th scope="col" class="num">
            Fail first
          </th>
          <th scope="col" class="num">
            Received
          </th>
        </tr>
      </thead>
      <tbody>
        {inboxes.map((i) => (
          <tr key={i.name} class={i.name === selected ? 'selected' : undefined}>
            <td>
              <a class="mono" href={href('webhooks', 'inboxes', i.name)} aria-current={i.name === selected ? 'true' : undefined}>
                {i.name}
              </a>
            </td>
            <td class="num">
              <span class={i.status >= 200 && i.status < 300 ? 'badge good' : 'badge bad'}>{i.status}</span>
            </td>
            <td class="num">{i.delay_ms} ms</td>
            <td class="num">{i.fail_first}</td>
            <td class="num">{i.received}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function InboxesPanel({ selected }: { selected: string | null }) {
  const { inboxes, error, reload } = useInboxes();
  return (
    <div class="split wh-inbox-split">
      <div class="pane">
        <div class="toolbar">
          <AddInbox
            onAdded={(name) => {
              reload();
              navigate('webhooks', 'inboxes', name);
            }}
          />
        </div>
        <div class="pane-body wh-flush">
          {error ? (
            <p class="muted">{error}</p>
          ) : inboxes ? (
            <InboxTable inboxes={inboxes} selected={selected} />
          ) : (
            <p class="muted">Loading…</p>
          )}
          <p class="muted small wh-note">
            Built-in receivers on the emulator's own port: a webhook whose url is <span class="mono">inbox:&lt;name&gt;</span> posts here.
            Each answers its status after its delay, except the first deliveries it is told to fail (500).
          </p>
        </div>
      </div>
      <div class="pane">
        <div class="pane-body">
          {selected ? (
            <InboxDetail key={selected} name={selected} onChanged={reload} />
          ) : (
            <p class="muted">Select an inbox to see and change how it answers, and what it received.</p>
          )}
        </div>
      </div>
    </div>
  );
}
