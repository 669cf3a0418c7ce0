/** Progress of long work (a fixture load, media downloads, an export): a bar and what is going on. */
export function Progress({ label, done, total }: { label: string; done?: number; total?: number }) {
  const known = total !== undefined && total > 0 && done !== undefined;
  return (
    <div class="progress" role="status" aria-live="polite">
      <span>{label}</span>
      {known ? <progress max={total} value={done} /> : <progress />}
      {known && (
        <span class="muted small">
          {done} / {total}
        </span>
      )}
    </div>
  );
}
