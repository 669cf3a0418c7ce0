/**
 * How an inbox answers: status, delay, failures first. Saved with PUT /inboxes/{name}/config;
 * the server checks the values and its message is shown under the form.
 */
import { useState } from 'preact/hooks';
import { ControlError, getData } from '../../api/client.js';
import type { InboxConfig } from '../../api/types.js';
import { notify } from '../../state/toasts.js';

interface Props {
  config: InboxConfig;
  onSaved: () => void;
}

type Fields = Record<'status' | 'delay_ms' | 'fail_first', string>;

/** A whole number as a number; anything else goes as typed, for the server to explain. */
function valueOf(text: string): number | string {
  return /^\s*-?\d+\s*$/.test(text) ? Number(text) : text;
}

export function InboxForm({ config, onSaved }: Props) {
  const initial: Fields = { status: String(config.status), delay_ms: String(config.delay_ms), fail_first: String(config.fail_first) };
  const [fields, setFields] = useState<Fields>(initial);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const dirty = (Object.keys(fields) as (keyof Fields)[]).some((k) => fields[k] !== initial[k]);
  const set = (patch: Partial<Fields>) => setFields((f) => ({ ...f, ...patch }));

  async function save(event: Event) {
    event.preventDefault();
    setError(null);
    setSaving(true);
    try {
      await getData<InboxConfig>(`inboxes/${encodeURIComponent(config.name)}/config`, {
        method: 'PUT',
        body: { status: valueOf(fields.status), delay_ms: valueOf(fields.delay_ms), fail_first: valueOf(fields.fail_first) },
      });
      notify(`inbox:${config.name} saved`);
      onSaved();
    } catch (e) {
      setError(e instanceof ControlError ? e.detail : String(e));
    } finally {
      setSaving(false);
    }
  }

  return (
    <form class="wh-inbox-form" aria-label={`How inbox ${config.name} answers`} noValidate onSubmit={(e) => void save(e)}>
      <div class="wh-inbox-fields">
        <label class="field">
          Status
          <input inputMode="numeric" size={5} value={fields.status} onInput={(e) => set({ status: e.currentTarget.value })} />
        </label>
        <label class="field">
          Delay (ms)
          <input inputMode="numeric" size={7} value={fields.delay_ms} onInput={(e) => set({ delay_ms: e.currentTarget.value })} />
        </label>
        <label class="field">
          Fail first
          <input inputMode="numeric" size={4} value={fields.fail_first} onInput={(e) => set({ fail_first: e.currentTarget.value })} />
        </label>
        <button type="submit" class="primary" disabled={saving || !dirty}>
          Save
        </button>
        {dirty && (
          <button
            type="button"
            onClick={() => {
              setFields(initial);
              setError(null);
            }}
          >
            Undo
          </button>
        )}
      </div>
      <p class="muted small">
        Answers {config.status} after {config.delay_ms} ms
        {config.fail_first === 1
          ? '; the first delivery gets 500'
          : config.fail_first > 1
            ? `; the first ${config.fail_first} deliveries get 500`
            : ''}
        . Saving starts the failure count again.
      </p>
      {error && (
        <p class="wh-field-error small" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
