/** The delivery list's filters, applied in the browser to the live summaries. */
import type { DeliverySummary } from '../../api/types.js';

export interface DeliveryFilter {
  organization: string;
  event: string;
  /** A delivery state, or `finished` for succeeded and failed. */
  state: string;
  target: string;
}

export const NO_FILTER: DeliveryFilter = { organization: '', event: '', state: '', target: '' };

export const STATES = ['pending', 'sending', 'retrying', 'succeeded', 'failed', 'finished'] as const;

/** A built-in receiver's URL on the emulator itself: `inbox:<name>` says it shorter. */
const INBOX_URL = /^https?:\/\/[^/]+\/__emulator\/inboxes\/([A-Za-z0-9_-]{1,64})$/;

/** How a target is shown: `inbox:demo` for a built-in receiver, else the URL. */
export function targetLabel(target: string): string {
  const inbox = INBOX_URL.exec(target)?.[1];
  return inbox ? `inbox:${inbox}` : target;
}

export function inboxOf(target: string): string | null {
  return INBOX_URL.exec(target)?.[1] ?? null;
}

export function matches(row: DeliverySummary, f: DeliveryFilter): boolean {
  if (f.organization && row.organization !== f.organization) return false;
  if (f.event && row.event !== f.event) return false;
  if (f.state === 'finished' ? row.state !== 'succeeded' && row.state !== 'failed' : f.state && row.state !== f.state) return false;
  if (f.target) {
    const needle = f.target.toLowerCase();
    if (!row.target.toLowerCase().includes(needle) && !targetLabel(row.target).toLowerCase().includes(needle)) return false;
  }
  return true;
}

/** The events seen in the list, for the event filter's options. */
export function eventsOf(rows: DeliverySummary[]): string[] {
  return [...new Set(rows.map((r) => r.event))].sort();
}
