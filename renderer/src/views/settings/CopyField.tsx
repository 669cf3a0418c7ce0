/**
 * A value people paste elsewhere (a URL, a token, a path, a curl command): labelled, selectable,
 * with a copy button whose accessible name says what it copies ("Copy API base URL").
 */
import { useId, useState } from 'preact/hooks';
import { copyText } from '../../components/CopyButton.js';
import { notify } from '../../state/toasts.js';

export function CopyAction({ text, what }: { text: string; what: string }) {
  const [done, setDone] = useState(false);
  return (
    <button
      type="button"
      class="button small copy-action"
      aria-label={`Copy ${what}`}
      title={`Copy ${what}`}
      onClick={async () => {
        try {
          await copyText(text);
          setDone(true);
          window.setTimeout(() => setDone(false), 1500);
        } catch {
          notify(`Could not copy the ${what}: the browser refused the clipboard.`, 'error');
        }
      }}
    >
      {done ? 'Copied' : 'Copy'}
    </button>
  );
}

/**
 * `context` is read out but not shown (the section already says it): "Read token" looks plain
 * under its organization's heading, and its name stays "Read token (acme)" for assistive tech.
 * `inline` puts the label to the left (rows of tokens).
 */
export function CopyField({
  label,
  value,
  testId,
  context = '',
  inline = false,
}: {
  label: string;
  value: string;
  testId?: string;
  context?: string;
  inline?: boolean;
}) {
  const id = useId();
  return (
    <div class={inline ? 'copy-field inline' : 'copy-field'}>
      <label for={id}>
        {label}
        {context && <span class="visually-hidden"> {context}</span>}
      </label>
      <div class="copy-field-row">
        <input
          id={id}
          class="mono"
          readOnly
          value={value}
          spellcheck={false}
          data-testid={testId}
          onFocus={(e) => e.currentTarget.select()}
        />
        <CopyAction text={value} what={context ? `${label} ${context}` : label} />
      </div>
    </div>
  );
}

/** A longer text (a command) shown whole, with its copy button. */
export function CopyBlock({
  label,
  text,
  context = '',
  caption = true,
}: {
  label: string;
  text: string;
  context?: string;
  caption?: boolean;
}) {
  return (
    <figure class="copy-block">
      <figcaption>
        <span>{caption ? label : ''}</span>
        <CopyAction text={text} what={context ? `${label} ${context}` : label} />
      </figcaption>
      <pre tabIndex={0} aria-label={context ? `${label} ${context}` : label}>
        {text}
      </pre>
    </figure>
  );
}
