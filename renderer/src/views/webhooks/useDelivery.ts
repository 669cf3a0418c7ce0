/**
 * One delivery fetched whole by id, fetched again whenever its live summary changes (a new
 * attempt, a new state): the stream says when, the detail comes from GET /deliveries/{id}.
 */
import { useEffect, useState } from 'preact/hooks';
import { ControlError, getData } from '../../api/client.js';
import type { Delivery } from '../../api/types.js';
import { deliveries } from '../../state/live.js';

export interface DeliveryState {
  delivery: Delivery | null;
  error: string | null;
}

export function useDelivery(id: string): DeliveryState {
  const [state, setState] = useState<DeliveryState>({ delivery: null, error: null });
  const summary = deliveries.value.find((d) => d.id === id);
  const version = summary ? `${summary.state}|${summary.attempts}|${summary.finished ?? ''}` : '';

  // A new selection starts blank; a refresh of the same one keeps showing the last answer.
  useEffect(() => setState({ delivery: null, error: null }), [id]);

  useEffect(() => {
    const abort = new AbortController();
    getData<Delivery>(`deliveries/${encodeURIComponent(id)}`, { signal: abort.signal })
      .then((delivery) => setState({ delivery, error: null }))
      .catch((e: unknown) => {
        if (!abort.signal.aborted) setState({ delivery: null, error: e instanceof ControlError ? e.detail : String(e) });
      });
    return () => abort.abort();
  }, [id, version]);

  return state;
}
