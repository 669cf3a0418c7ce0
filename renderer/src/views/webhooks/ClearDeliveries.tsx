/** "Clear all": asks first, in place (keyboard friendly, no browser dialog), then DELETE /deliveries. */
import { useEffect, useRef, useState } from 'preact/hooks';
import { call } from '../../api/client.js';
import { deliveries } from '../../state/live.js';
import { navigate } from '../../state/route.js';
import { attempt } from '../../state/toasts.js';

export function ClearDeliveries() {
  const [asking, setAsking] = useState(false);
  const count = deliveries.value.length;
  const confirm = useRef<HTMLButtonElement>(null);
  // The question appears where the button was: focus moves to its answer.
  useEffect(() => {
    if (asking) confirm.current?.focus();
  }, [asking]);
  if (!asking) {
    return (
      <button type="button" class="small" disabled={count === 0} onClick={() => setAsking(true)}>
        Clear all…
      </button>
    );
  }
  return (
    <span class="wh-confirm" role="group" aria-label="Confirm clearing">
      <span class="small">Forget all {count} deliveries?</span>
      <button
        type="button"
        class="small danger"
        ref={confirm}
        onClick={() =>
          void attempt(async () => {
            await call('deliveries', { method: 'DELETE' });
            deliveries.value = [];
            setAsking(false);
            navigate('webhooks');
          }, 'Deliveries cleared')
        }
      >
        Clear deliveries
      </button>
      <button type="button" class="small" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}
