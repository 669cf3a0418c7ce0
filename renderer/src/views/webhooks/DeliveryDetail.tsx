/**
 * One delivery whole: what it was, what caused it, the exact request and every attempt; replay
 * it as it was or edited. After a replay the new delivery is selected.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { getData } from '../../api/client.js';
import type { Delivery } from '../../api/types.js';
import { StateBadge } from '../../components/Badge.js';
import { Tabs } from '../../components/Tabs.js';
import { dateTimeOf, durationOf } from '../../components/format.js';
import { deliveries } from '../../state/live.js';
import { href, navigate } from '../../state/route.js';
import { attempt, notify } from '../../state/toasts.js';
import { Attempts } from './Attempts.js';
import { targetLabel } from './filters.js';
import { ReplayForm } from './ReplayForm.js';
import { RequestSection } from './RequestSection.js';
import { useDelivery } from './useDelivery.js';

function Cause({ cause }: { cause: Delivery['cause'] }) {
  if (cause.kind === 'api') {
    return cause.requestId ? (
      <a href={href('requests', cause.requestId)}>the API request</a>
    ) : (
      <span>an API request (no longer in the log)</span>
    );
  }
  return <span>{cause.action.startsWith('replay of ') ? 'a replay (control API or this window)' : `a control: ${cause.action}`}</span>;
}

function Replays({ id }: { id: string }) {
  const replays = deliveries.value.filter((d) => d.replay_of === id);
  if (replays.length === 0) return null;
  return (
    <>
      <dt>Replays</dt>
      <dd>
        {replays.map((r, i) => (
          <span key={r.id}>
            {i > 0 && ', '}
            <a href={href('webhooks', r.id)}>{dateTimeOf(r.created)}</a>
          </span>
        ))}
      </dd>
    </>
  );
}

function Facts({ delivery }: { delivery: Delivery }) {
  return (
    <dl class="props small wh-facts">
      <dt>Organization</dt>
      <dd>{delivery.organization}</dd>
      <dt>Webhook</dt>
      <dd>{delivery.webhook_id ?? <span class="muted">none (an edited replay sent elsewhere)</span>}</dd>
      <dt>Created</dt>
      <dd>{dateTimeOf(delivery.created)}</dd>
      <dt>Finished</dt>
      <dd>{dateTimeOf(delivery.finished)}</dd>
      <dt>Retries</dt>
      <dd>{delivery.retry_delays_ms.length === 0 ? 'none' : `after ${delivery.retry_delays_ms.map((ms) => durationOf(ms)).join(', ')}`}</dd>
      <dt>Timeout</dt>
      <dd>{durationOf(delivery.timeout_ms)}</dd>
      <dt>Cause</dt>
      <dd>
        <Cause cause={delivery.cause} />
      </dd>
      {delivery.replay_of && (
        <>
          <dt>Replay of</dt>
          <dd>
            <a href={href('webhooks', delivery.replay_of)} data-testid="replay-of">
              the original delivery
            </a>
          </dd>
        </>
      )}
      <Replays id={delivery.id} />
    </dl>
  );
}

/** A replay selects the new delivery; the keyboard follows it there. */
let focusOnLoad: string | null = null;

function select(id: string) {
  focusOnLoad = id;
  navigate('webhooks', id);
}

export function DeliveryDetail({ id }: { id: string }) {
  const { delivery, error } = useDelivery(id);
  const [editing, setEditing] = useState(false);
  const head = useRef<HTMLDivElement>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const loaded = delivery !== null;
  useEffect(() => {
    if (loaded && focusOnLoad === id) {
      focusOnLoad = null;
      head.current?.focus();
    }
  }, [loaded, id]);

  if (error) return <p class="muted">{error}</p>;
  if (!delivery) return <p class="muted">Loading…</p>;

  const replay = () =>
    void attempt(async () => {
      const sent = await getData<Delivery>(`deliveries/${encodeURIComponent(delivery.id)}/replay`, { method: 'POST', body: {} });
      select(sent.id);
    }, 'Replayed: the new delivery is selected');

  return (
    <div data-testid="delivery-detail">
      <div class="detail-head" ref={head} tabIndex={-1}>
        <StateBadge state={delivery.state} />
        <span class="mono wh-detail-event">{delivery.event}</span>
        <span class="muted">→</span>
        <span class="mono" title={delivery.target}>
          {targetLabel(delivery.target)}
        </span>
      </div>
      <Facts delivery={delivery} />
      <div class="actions">
        <button type="button" onClick={replay}>
          Replay
        </button>
        <button type="button" ref={editButton} aria-expanded={editing} onClick={() => setEditing(!editing)}>
          Edit &amp; replay
        </button>
      </div>
      {editing && (
        <ReplayForm
          delivery={delivery}
          onCancel={() => {
            setEditing(false);
            editButton.current?.focus();
          }}
          onSent={(sent) => {
            setEditing(false);
            notify('Replayed with your edits: the new delivery is selected');
            select(sent.id);
          }}
        />
      )}
      <Tabs
        label="Delivery detail"
        tabs={[
          {
            id: 'delivery-attempts',
            label: `Attempts (${delivery.attempts.length} of ${delivery.max_attempts})`,
            render: () => <Attempts delivery={delivery} />,
          },
          { id: 'delivery-request', label: 'Request', render: () => <RequestSection request={delivery.request} /> },
        ]}
      />
    </div>
  );
}
