/**
 * Every attempt of a delivery with the receiver's answer. The answer is untrusted: its body is
 * shown as text (JSON pretty-printed), never as markup.
 */
import type { Delivery, DeliveryAttempt } from '../../api/types.js';
import { StatusBadge } from '../../components/Badge.js';
import { Code } from '../../components/Code.js';
import { dateTimeOf, durationOf } from '../../components/format.js';
import { HeaderTable } from '../../components/HeaderTable.js';

function Attempt({ attempt, n }: { attempt: DeliveryAttempt; n: number }) {
  const headers = Object.keys(attempt.response_headers).length;
  return (
    <section class={attempt.error ? 'wh-attempt failed' : 'wh-attempt'} aria-label={`Attempt ${n}`} data-testid="attempt">
      <div class="wh-attempt-head">
        <strong>#{n}</strong>
        <StatusBadge status={attempt.status} />
        <span class="small">{durationOf(attempt.duration_ms)}</span>
        <span class="muted small">{dateTimeOf(attempt.at)}</span>
      </div>
      {attempt.error && <p class="wh-error small">{attempt.error}</p>}
      {attempt.status !== null && (
        <>
          <Code
            text={attempt.response_body}
            type={attempt.response_headers['content-type']}
            label="Response body (as text)"
            truncated={attempt.response_truncated}
          />
          <details>
            <summary class="small">Response headers ({headers})</summary>
            <HeaderTable headers={attempt.response_headers} label={`Response headers of attempt ${n}`} />
          </details>
        </>
      )}
    </section>
  );
}

/** What happens next, when the delivery is not finished. */
function Pending({ delivery }: { delivery: Delivery }) {
  const done = delivery.attempts.length;
  if (delivery.state === 'retrying') {
    const delay = delivery.retry_delays_ms[done - 1];
    return (
      <p class="muted small">
        Retrying: attempt {done + 1} of {delivery.max_attempts}
        {delay !== undefined ? ` after ${durationOf(delay)}` : ''}.
      </p>
    );
  }
  if (delivery.state === 'sending') return <p class="muted small">Attempt {done + 1} is being sent…</p>;
  if (delivery.state === 'pending') return <p class="muted small">Waiting its turn (deliveries to one target go one at a time).</p>;
  return null;
}

export function Attempts({ delivery }: { delivery: Delivery }) {
  return (
    <section aria-label="Attempts">
      {delivery.attempts.length === 0 && delivery.state !== 'sending' && delivery.state !== 'pending' && (
        <p class="muted small">No attempt was made.</p>
      )}
      {delivery.attempts.map((a, i) => (
        <Attempt key={a.at + String(i)} attempt={a} n={i + 1} />
      ))}
      <Pending delivery={delivery} />
    </section>
  );
}
