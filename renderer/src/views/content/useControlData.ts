/**
 * Reads a control API path and reads it again when content changes (contentRevision, fed by the
 * SSE stream: never a poll). A change of path or query fetches at once; a burst of content
 * changes is coalesced into one read shortly after. The last good answer stays on screen while
 * the next one loads (`keep`), so a live list does not flash. A `relevant` test skips the changes
 * that cannot touch the data (a post written while pages are shown): each change bumps the
 * revision by one, so a step of one with a new lastChange is exactly that change; anything else
 * (a state replacement, a reconnect's fresh snapshot, several changes in one frame) is read
 * again to be safe.
 *
 * The first read waits for the stream's first snapshot (which bumps the revision from 0), so a
 * view opened with the window reads once, not once at mount and again for the snapshot: what it
 * reads after the snapshot can only go stale by a change the stream then reports. If the stream
 * is slow to start, the read goes ahead after STREAM_WAIT_MS and the snapshot reads again.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { ControlError, getData, call } from '../../api/client.js';
import { contentRevision, lastChange, type ContentChange } from '../../state/live.js';

export interface Loaded<T> {
  data: T | undefined;
  error: string | null;
  loading: boolean;
}

type Query = Record<string, string | number | undefined>;

/** How long a burst of content changes may run before the data is read again. */
const SETTLE_MS = 120;
/** How long a first read waits for the live stream's snapshot. */
const STREAM_WAIT_MS = 1000;

export function messageOf(error: unknown): string {
  return error instanceof ControlError ? error.detail : error instanceof Error ? error.message : String(error);
}

/**
 * `read` gets the data (default: the `data` of GET path); `path` null means nothing to read.
 * `keep` says whether the previous answer may stay on screen when the path or query changes.
 */
export function useControlData<T>(
  path: string | null,
  query: Query = {},
  options: {
    keep?: boolean;
    read?: (path: string, query: Query, signal: AbortSignal) => Promise<T>;
    relevant?: (change: ContentChange) => boolean;
  } = {},
): Loaded<T> {
  const key = path === null ? null : path + '?' + JSON.stringify(query);
  const revision = useRelevantRevision(options.relevant);
  const streaming = contentRevision.value > 0;
  const [state, setState] = useState<Loaded<T> & { key: string | null }>({ data: undefined, error: null, loading: path !== null, key });
  /** The key of the last read started: a read for the same key after it is a refresh. */
  const readKey = useRef<string | null>(null);
  const read = options.read ?? ((p, q, signal) => getData<T>(p, { query: q, signal }));

  useEffect(() => {
    if (path === null) {
      readKey.current = null;
      setState({ data: undefined, error: null, loading: false, key });
      return;
    }
    const abort = new AbortController();
    const keyChanged = readKey.current !== key;
    if (keyChanged && !options.keep) setState({ data: undefined, error: null, loading: true, key });
    else setState((s) => ({ ...s, loading: true }));
    const timer = window.setTimeout(
      () => {
        readKey.current = key;
        read(path, query, abort.signal)
          .then((data) => setState({ data, error: null, loading: false, key }))
          .catch((e: unknown) => {
            if (!abort.signal.aborted) setState((s) => ({ ...s, error: messageOf(e), loading: false }));
          });
      },
      !streaming ? STREAM_WAIT_MS : keyChanged ? 0 : SETTLE_MS,
    );
    return () => {
      window.clearTimeout(timer);
      abort.abort();
    };
    // `query` and `read` are captured through `key`; a new function each render must not refetch.
    // `streaming` turns true with the first snapshot, which also moves `revision`.
  }, [key, revision]);

  // Until the effect has run for a new key, the answer on hand is another key's.
  if (!options.keep && state.key !== key) return { data: undefined, error: null, loading: path !== null };
  return { data: state.data, error: state.error, loading: state.loading };
}

/** A counter that moves with contentRevision, except for changes `relevant` says do not matter. */
function useRelevantRevision(relevant: ((change: ContentChange) => boolean) | undefined): number {
  const seen = useRef({ revision: contentRevision.value, change: lastChange.value, effective: 0 });
  const revision = contentRevision.value;
  const change = lastChange.value;
  const state = seen.current;
  if (revision !== state.revision) {
    const single = revision - state.revision === 1 && change !== state.change && change !== null;
    if (!relevant || !single || relevant(change)) state.effective++;
    state.revision = revision;
    state.change = change;
  }
  return state.effective;
}

/** A page of a section: `{data, total}`, as the browsing endpoints answer. */
export function readPage<T>(path: string, query: Query, signal: AbortSignal): Promise<{ data: T[]; total: number }> {
  return call<{ data: T[]; total: number }>(path, { query, signal });
}

/** One record, or null when there is none by that id (404): deleted, or never there. */
export function readRecord<T>(path: string, query: Query, signal: AbortSignal): Promise<T | null> {
  return getData<T>(path, { query, signal }).catch((e: unknown) => {
    if (e instanceof ControlError && e.status === 404) return null;
    throw e;
  });
}
