/**
 * The built-in receivers, read from GET /inboxes and GET /inboxes/{name}. Inboxes have no event
 * of their own: what they receive comes from deliveries, so a change in the live delivery list
 * (debounced) is the cue to read them again. `reload` is for after an action.
 */
import { useCallback, useEffect, useState } from 'preact/hooks';
import { ControlError, getData } from '../../api/client.js';
import type { InboxConfig, InboxRequest, InboxSummary } from '../../api/types.js';
import { contentRevision, deliveries } from '../../state/live.js';

const SETTLE_MS = 200;

/** A counter that moves when deliveries or the state change, settled for SETTLE_MS. */
function useLiveTick(): number {
  const list = deliveries.value;
  const revision = contentRevision.value;
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const timer = window.setTimeout(() => setTick((t) => t + 1), SETTLE_MS);
    return () => window.clearTimeout(timer);
  }, [list, revision]);
  return tick;
}

export function useInboxes(): { inboxes: InboxSummary[] | null; error: string | null; reload: () => void } {
  const tick = useLiveTick();
  const [manual, setManual] = useState(0);
  const [inboxes, setInboxes] = useState<InboxSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const abort = new AbortController();
    getData<InboxSummary[]>('inboxes', { signal: abort.signal })
      .then((list) => {
        setInboxes(list);
        setError(null);
      })
      .catch((e: unknown) => {
        if (!abort.signal.aborted) setError(e instanceof ControlError ? e.detail : String(e));
      });
    return () => abort.abort();
  }, [tick, manual]);
  return { inboxes, error, reload: useCallback(() => setManual((m) => m + 1), []) };
}

export type InboxDetail = InboxConfig & { requests: InboxRequest[] };

export function useInbox(name: string): { inbox: InboxDetail | null; error: string | null; reload: () => void } {
  const tick = useLiveTick();
  const [manual, setManual] = useState(0);
  const [inbox, setInbox] = useState<InboxDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setInbox(null);
    setError(null);
  }, [name]);
  useEffect(() => {
    const abort = new AbortController();
    getData<InboxDetail>(`inboxes/${encodeURIComponent(name)}`, { signal: abort.signal })
      .then((detail) => {
        setInbox(detail);
        setError(null);
      })
      .catch((e: unknown) => {
        if (!abort.signal.aborted) setError(e instanceof ControlError ? e.detail : String(e));
      });
    return () => abort.abort();
  }, [name, tick, manual]);
  return { inbox, error, reload: useCallback(() => setManual((m) => m + 1), []) };
}
