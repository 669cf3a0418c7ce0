/**
 * Edit & replay: the delivery's request in a form (target, headers as JSON, body as JSON),
 * checked here with a message per field, then POST /deliveries/{id}/replay with what changed.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { ControlError, getData } from '../../api/client.js';
import type { Delivery } from '../../api/types.js';
import { checkDraft, draftOf, type ReplayDraft, type ReplayErrors } from './replay-edits.js';

interface Props {
  delivery: Delivery;
  onSent: (replay: Delivery) => void;
  onCancel: () => void;
}

function FieldError({ id, text }: { id: string; text: string | undefined }) {
  if (!text) return null;
  return (
    <p id={id} class="wh-field-error small" role="alert">
      {text}
    </p>
  );
}

export function ReplayForm({ delivery, onSent, onCancel }: Props) {
  const [draft, setDraft] = useState<ReplayDraft>(() => draftOf(delivery));
  const [errors, setErrors] = useState<ReplayErrors>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const edit = (patch: Partial<ReplayDraft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    // An edited field's old message no longer applies; the next send checks again.
    setErrors((e) =>
      Object.fromEntries(Object.entries(e).filter(([field]) => !(field in patch) && !(field === 'body' && 'rawBody' in patch))),
    );
  };
  const formRef = useRef<HTMLFormElement>(null);
  const targetRef = useRef<HTMLInputElement>(null);
  // The form opens in view with the keyboard in its first field.
  useEffect(() => {
    formRef.current?.scrollIntoView({ block: 'start' });
    targetRef.current?.focus({ preventScroll: true });
  }, []);
  const described = (field: keyof ReplayDraft) => (errors[field] ? `replay-${field}-error` : undefined);

  async function submit(event: Event) {
    event.preventDefault();
    setServerError(null);
    const checked = checkDraft(draft, delivery);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    setSending(true);
    try {
      const replay = await getData<Delivery>(`deliveries/${encodeURIComponent(delivery.id)}/replay`, {
        method: 'POST',
        body: checked.edits,
      });
      onSent(replay);
    } catch (e) {
      setServerError(e instanceof ControlError ? e.detail : String(e));
    } finally {
      setSending(false);
    }
  }

  return (
    <form
      ref={formRef}
      class="wh-replay-form"
      aria-label="Edit and replay"
      noValidate
      onSubmit={(e) => void submit(e)}
      onKeyDown={(e) => {
        // Escape leaves an untouched form; edits are never thrown away by a stray key.
        if (e.key === 'Escape' && JSON.stringify(draft) === JSON.stringify(draftOf(delivery))) onCancel();
      }}
    >
      <h3>Edit &amp; replay</h3>
      <label class="wh-field">
        <span>Target</span>
        <input
          ref={targetRef}
          class="mono"
          value={draft.target}
          aria-invalid={errors.target ? true : undefined}
          aria-describedby={described('target')}
          onInput={(e) => edit({ target: e.currentTarget.value })}
          placeholder="https://… or inbox:<name>"
          spellcheck={false}
        />
      </label>
      <FieldError id="replay-target-error" text={errors.target} />
      <label class="wh-field">
        <span>Headers (JSON object; replaces the original headers)</span>
        <textarea
          rows={5}
          value={draft.headers}
          aria-invalid={errors.headers ? true : undefined}
          aria-describedby={described('headers')}
          onInput={(e) => edit({ headers: e.currentTarget.value })}
          spellcheck={false}
        />
      </label>
      <FieldError id="replay-headers-error" text={errors.headers} />
      <label class="wh-field">
        <span>Body {draft.rawBody ? '(raw text)' : '(JSON)'}</span>
        <textarea
          rows={12}
          value={draft.body}
          aria-invalid={errors.body ? true : undefined}
          aria-describedby={described('body')}
          onInput={(e) => edit({ body: e.currentTarget.value })}
          spellcheck={false}
        />
      </label>
      <FieldError id="replay-body-error" text={errors.body} />
      <label class="wh-check small">
        <input type="checkbox" checked={draft.rawBody} onChange={(e) => edit({ rawBody: e.currentTarget.checked })} />
        Send as raw text (not checked as JSON)
      </label>
      {serverError && (
        <p class="wh-field-error small" role="alert">
          The emulator refused the replay: {serverError}
        </p>
      )}
      <div class="actions">
        <button type="submit" class="primary" disabled={sending}>
          {sending ? 'Sending…' : 'Send replay'}
        </button>
        <button type="button" onClick={() => setDraft(draftOf(delivery))}>
          Reset
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
