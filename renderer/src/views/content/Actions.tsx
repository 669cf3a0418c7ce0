/**
 * The dashboard actions of a post, page or collection item (docs/control-api.md): publish,
 * unpublish, schedule at a time, delete after a confirmation. Each shows its outcome in place:
 * the record's new state, or the server's reason it did not apply (409).
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { clock } from '../../state/live.js';
import { runAction } from './data.js';
import { messageOf } from './useControlData.js';

export type ActionName = 'publish' | 'unpublish' | 'schedule' | 'delete';

const DONE: Record<ActionName, string> = {
  publish: 'Published',
  unpublish: 'Unpublished',
  schedule: 'Scheduled',
  delete: 'Deleted',
};

interface Props<T> {
  /** The record's action path, e.g. organizations/acme/posts/welcome. */
  path: string;
  actions: ActionName[];
  /** What the record is called in the confirmation. */
  name: string;
  /** The record's state after an action (but delete), in words. */
  describe: (record: T) => string;
  onDone?: (action: ActionName, record: T) => void;
}

/** `YYYY-MM-DDTHH:mm` in local time, as datetime-local inputs take it. */
function localInputValue(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

function defaultScheduleTime(): string {
  const now = clock.value ? new Date(clock.value.now) : new Date();
  return localInputValue(new Date(now.getTime() + 24 * 3600_000));
}

export function Actions<T>({ path, actions, name, describe, onDone }: Props<T>) {
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [at, setAt] = useState(defaultScheduleTime);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const deleteRef = useRef<HTMLButtonElement>(null);
  /** Closes the confirmation and gives the focus back to the button that opened it. */
  const cancel = () => {
    setConfirming(false);
    deleteRef.current?.focus();
  };

  // Another record: nothing of the last one's outcome applies.
  useEffect(() => {
    setResult(null);
    setConfirming(false);
  }, [path]);
  useEffect(() => {
    if (confirming) cancelRef.current?.focus();
  }, [confirming]);

  async function run(action: ActionName) {
    let body: unknown;
    if (action === 'schedule') {
      const when = new Date(at);
      if (!at || Number.isNaN(when.getTime())) {
        setResult({ ok: false, text: 'Choose a date and time to schedule.' });
        return;
      }
      body = { at: when.toISOString() };
    }
    setBusy(true);
    setConfirming(false);
    try {
      const record = await runAction<T>(path, action, body);
      setResult({ ok: true, text: action === 'delete' ? `Deleted ${name}.` : `${DONE[action]} ${name}: ${describe(record)}.` });
      onDone?.(action, record);
    } catch (error) {
      setResult({ ok: false, text: messageOf(error) });
    } finally {
      setBusy(false);
    }
  }

  const off = busy;
  return (
    <div class="record-actions">
      <div class="actions" role="group" aria-label="Dashboard actions">
        {actions.includes('publish') && (
          <button type="button" class="primary" disabled={off} onClick={() => void run('publish')}>
            Publish
          </button>
        )}
        {actions.includes('unpublish') && (
          <button type="button" disabled={off} onClick={() => void run('unpublish')}>
            Unpublish
          </button>
        )}
        {actions.includes('schedule') && (
          <span class="schedule">
            <input
              type="datetime-local"
              aria-label="Publish at (local time)"
              value={at}
              disabled={off}
              onInput={(e) => setAt(e.currentTarget.value)}
            />
            <button type="button" disabled={off} onClick={() => void run('schedule')}>
              Schedule
            </button>
          </span>
        )}
        {actions.includes('delete') && (
          <button
            type="button"
            class="danger"
            ref={deleteRef}
            disabled={off}
            aria-expanded={confirming}
            onClick={() => setConfirming(true)}
          >
            Delete…
          </button>
        )}
      </div>
      {confirming && (
        <div
          class="confirm"
          role="alertdialog"
          aria-label={`Delete ${name}?`}
          onKeyDown={(e) => {
            if (e.key === 'Escape') cancel();
          }}
        >
          <span>
            Delete <strong>{name}</strong>? The delete webhooks fire as if it were deleted in the dashboard.
          </span>
          <button type="button" class="danger-solid" onClick={() => void run('delete')}>
            Delete
          </button>
          <button type="button" ref={cancelRef} onClick={cancel}>
            Cancel
          </button>
        </div>
      )}
      {result && (
        <p class={`action-result ${result.ok ? 'good' : 'bad'}`} role={result.ok ? 'status' : 'alert'}>
          {result.text}
        </p>
      )}
    </div>
  );
}
