/** One row of the delivery list, and the column heads above it (same widths). */
import type { DeliverySummary } from '../../api/types.js';
import { StateBadge } from '../../components/Badge.js';
import { dateTimeOf, durationOf } from '../../components/format.js';
import { targetLabel } from './filters.js';

function clockTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleTimeString(undefined, { hour12: false });
}

export function DeliveryHead() {
  return (
    <div class="wh-row wh-head" aria-hidden="true">
      <span class="wh-time">Time</span>
      <span class="wh-event">Event</span>
      <span class="wh-target">Target</span>
      <span class="wh-state">State</span>
      <span class="wh-status" title="Status of the last attempt">
        HTTP
      </span>
      <span class="wh-tries" title="Attempts">
        Tries
      </span>
      <span class="wh-duration" title="Duration of the last attempt">
        Duration
      </span>
    </div>
  );
}

export function DeliveryRow({ row }: { row: DeliverySummary }) {
  const target = targetLabel(row.target);
  const bad = row.status !== null && (row.status < 200 || row.status >= 300);
  return (
    <>
      <span class="wh-time" title={dateTimeOf(row.created)}>
        {clockTime(row.created)}
      </span>
      <span class="wh-event" title={row.event}>
        {row.replay_of && (
          <span class="wh-replay-mark" title="A replay">
            ↻{' '}
          </span>
        )}
        {row.event}
      </span>
      <span class="wh-target" title={row.target}>
        {target}
      </span>
      <span class="wh-state">
        <StateBadge state={row.state} />
      </span>
      <span class={bad ? 'wh-status bad' : 'wh-status'}>{row.status ?? '—'}</span>
      <span class="wh-tries">{row.attempts}</span>
      <span class="wh-duration">{durationOf(row.duration_ms)}</span>
    </>
  );
}
