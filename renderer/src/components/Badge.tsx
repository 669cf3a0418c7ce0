/** Small coloured labels: HTTP status classes, methods, delivery and job states. */
export function StatusBadge({ status }: { status: number | null }) {
  if (status === null) return <span class="badge neutral">—</span>;
  const tone = status >= 500 ? 'bad' : status >= 400 ? 'warn' : status >= 300 ? 'info' : 'good';
  return <span class={`badge ${tone}`}>{status}</span>;
}

const STATE_TONES: Record<string, string> = {
  succeeded: 'good',
  published: 'good',
  failed: 'bad',
  retrying: 'warn',
  scheduled: 'info',
  sending: 'info',
  running: 'info',
  pending: 'neutral',
  queued: 'neutral',
  draft: 'neutral',
};

export function StateBadge({ state }: { state: string }) {
  return <span class={`badge ${STATE_TONES[state] ?? 'neutral'}`}>{state}</span>;
}

export function MethodBadge({ method }: { method: string }) {
  return <span class={`method m-${method.toLowerCase()}`}>{method}</span>;
}
