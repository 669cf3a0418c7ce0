/**
 * A button for something that cannot be undone: the first press asks, inline, and moves the focus
 * to the confirming button (Escape or Cancel goes back). No window.confirm: it blocks the page.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

interface Props {
  label: string;
  question: ComponentChildren;
  confirm: string;
  onConfirm: () => void;
  disabled?: boolean;
}

export function ConfirmButton({ label, question, confirm, onConfirm, disabled }: Props) {
  const [asking, setAsking] = useState(false);
  const yes = useRef<HTMLButtonElement>(null);
  const ask = useRef<HTMLButtonElement>(null);
  const wasAsking = useRef(false);
  useEffect(() => {
    if (asking) yes.current?.focus();
    else if (wasAsking.current) ask.current?.focus();
    wasAsking.current = asking;
  }, [asking]);

  if (!asking)
    return (
      <button type="button" ref={ask} class="danger" disabled={disabled} onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  return (
    <span class="confirm" role="group" aria-label={label} onKeyDown={(e) => e.key === 'Escape' && setAsking(false)}>
      <span class="confirm-question">{question}</span>
      <button
        type="button"
        ref={yes}
        class="danger-solid"
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        {confirm}
      </button>
      <button type="button" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}
