/** A record's state as a badge: the shared tones, plus the words only content has. */
import { StateBadge } from '../../components/Badge.js';

const TONES: Record<string, string> = {
  enabled: 'good',
  disabled: 'neutral',
  changes: 'warn',
};
const WORDS: Record<string, string> = { changes: 'draft changes' };

export function RecordBadge({ state }: { state: string }) {
  const tone = TONES[state];
  return tone ? <span class={`badge ${tone}`}>{WORDS[state] ?? state}</span> : <StateBadge state={state} />;
}
