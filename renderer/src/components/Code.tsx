/**
 * Shows a body or record as text: JSON pretty-printed, anything else (XML feeds, HTML, a
 * receiver's answer) verbatim. Preact puts it in a text node, so hostile markup stays text.
 */
interface Props {
  text: string;
  /** A content type hint; JSON is also detected by parsing. */
  type?: string | undefined;
  label?: string;
  truncated?: boolean;
}

/** Pretty JSON when the text is JSON, else the text as it is. */
export function prettyText(text: string, type?: string): string {
  const looksJson = type?.includes('json') || /^\s*[[{"]/.test(text);
  if (!looksJson) return text;
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

export function Code({ text, type, label, truncated }: Props) {
  return (
    <figure class="code">
      {label && <figcaption>{label}</figcaption>}
      <pre tabIndex={0}>{text === '' ? <span class="muted">(empty)</span> : prettyText(text, type)}</pre>
      {truncated && <p class="muted small">Truncated: the log keeps the first 64 KiB.</p>}
    </figure>
  );
}

/** A value of any shape as pretty JSON text. */
export function Json({ value, label }: { value: unknown; label?: string }) {
  return <Code text={JSON.stringify(value, null, 2)} type="application/json" {...(label ? { label } : {})} />;
}
