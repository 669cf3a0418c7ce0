/**
 * The UI's live picture of the emulator, fed by the one SSE stream (GET /__emulator/events):
 * a snapshot first, then deltas. Events are applied in batches, once per frame, so a burst of a
 * thousand requests costs a handful of renders. Views read these signals and never poll.
 */
import { batch, signal } from '@preact/signals';
import { controlUrl, getData } from '../api/client.js';
import type { ClockState, DeliverySummary, EventsSnapshot, JobRecord, RequestSummary } from '../api/types.js';

/** How many request rows the UI keeps (the server's log keeps 5000; the UI can hold more). */
export const MAX_REQUEST_ROWS = 10_000;
const MAX_ROWS = 5_000;

export type Connection = 'connecting' | 'live' | 'reconnecting';

export interface StoreProblem {
  message: string;
  file: string;
}

export interface ContentChange {
  type: string;
  organization: string;
  slug?: string;
  collection?: string;
  id?: number | string;
}

export const connection = signal<Connection>('connecting');
export const requests = signal<RequestSummary[]>([]);
export const jobs = signal<JobRecord[]>([]);
export const deliveries = signal<DeliverySummary[]>([]);
export const clock = signal<ClockState | null>(null);
export const storeProblem = signal<StoreProblem | null>(null);
export const organizations = signal<{ slug: string; name: string }[]>([]);
/** Bumped by every content change or state replacement: content views refetch on it. */
export const contentRevision = signal(0);
export const lastChange = signal<ContentChange | null>(null);

type Message = { event: string; data: unknown };
let pending: Message[] = [];
let scheduled = false;

/** Newest first, one row per id: an update replaces the row in place. */
function upsert<T extends { id: string | number }>(rows: T[], incoming: T[], cap: number): T[] {
  const byId = new Map(incoming.map((row) => [row.id, row]));
  const updated = rows.map((row) => {
    const next = byId.get(row.id);
    if (next === undefined) return row;
    byId.delete(row.id);
    return next;
  });
  const fresh = incoming.filter((row) => byId.get(row.id) === row).reverse();
  return fresh.concat(updated).slice(0, cap);
}

function applySnapshot(s: EventsSnapshot): void {
  requests.value = s.requests;
  jobs.value = s.jobs;
  deliveries.value = s.deliveries;
  clock.value = s.clock;
  organizations.value = s.organizations;
  storeProblem.value = s.store.error ? { message: s.store.error.message, file: s.store.file } : null;
  contentRevision.value++;
  // The snapshot holds the newest 100: fill the lists further back once.
  void backfill();
}

async function backfill(): Promise<void> {
  const [older, delivered] = await Promise.all([
    getData<RequestSummary[]>('requests', { query: { view: 'summary', limit: MAX_REQUEST_ROWS } }),
    getData<DeliverySummary[]>('deliveries', { query: { limit: 2000, view: 'summary' } }),
  ]);
  batch(() => {
    requests.value = mergeById(requests.value, older, (r) => r.time, MAX_REQUEST_ROWS);
    deliveries.value = mergeById(deliveries.value, delivered, (d) => d.created, MAX_ROWS);
  });
}

/** Keeps the live rows (fresher) and adds the fetched ones they lack, newest first by time. */
function mergeById<T extends { id: string | number }>(live: T[], fetched: T[], time: (row: T) => string, cap: number): T[] {
  const seen = new Set(live.map((row) => row.id));
  return live
    .concat(fetched.filter((row) => !seen.has(row.id)))
    .sort((a, b) => (time(a) < time(b) ? 1 : time(a) > time(b) ? -1 : 0))
    .slice(0, cap);
}

function apply(messages: Message[]): void {
  const newRequests: RequestSummary[] = [];
  const newJobs: JobRecord[] = [];
  const newDeliveries: DeliverySummary[] = [];
  for (const { event, data } of messages) {
    switch (event) {
      case 'snapshot':
        applySnapshot(data as EventsSnapshot);
        newRequests.length = newJobs.length = newDeliveries.length = 0;
        break;
      case 'request':
        newRequests.push(data as RequestSummary);
        break;
      case 'job':
        newJobs.push(data as JobRecord);
        break;
      case 'delivery':
        newDeliveries.push(data as DeliverySummary);
        break;
      case 'clock':
        clock.value = { ...(clock.value ?? { mode: 'real', offset_ms: 0 }), ...(data as { now: string }) } as ClockState;
        void getData<ClockState>('clock').then((state) => (clock.value = state));
        break;
      case 'change':
        lastChange.value = data as ContentChange;
        contentRevision.value++;
        break;
      case 'state':
        contentRevision.value++;
        void getData<{ slug: string; name: string }[]>('organizations').then((orgs) => (organizations.value = orgs));
        break;
      case 'cleared':
        // Another window (or a test) emptied a log: this one follows.
        if ((data as { log: string }).log === 'requests') requests.value = [];
        else deliveries.value = [];
        newRequests.length = 0;
        newDeliveries.length = 0;
        break;
      case 'store-error':
        storeProblem.value = data as StoreProblem | null;
        if (data === null) contentRevision.value++;
        break;
    }
  }
  if (newRequests.length) requests.value = upsert(requests.value, newRequests, MAX_REQUEST_ROWS);
  if (newJobs.length) jobs.value = upsert(jobs.value, newJobs, MAX_ROWS);
  if (newDeliveries.length) deliveries.value = upsert(deliveries.value, newDeliveries, MAX_ROWS);
}

function flush(): void {
  scheduled = false;
  const messages = pending;
  pending = [];
  batch(() => apply(messages));
}

function enqueue(event: string, raw: string): void {
  pending.push({ event, data: JSON.parse(raw) as unknown });
  if (scheduled) return;
  scheduled = true;
  // A frame when visible; a short timer when hidden (frames stop in background tabs).
  if (document.visibilityState === 'visible') requestAnimationFrame(flush);
  else window.setTimeout(flush, 100);
}

const EVENTS = ['snapshot', 'request', 'job', 'delivery', 'change', 'state', 'store-error', 'clock', 'cleared'] as const;

/** Opens the stream; EventSource reconnects by itself and sends Last-Event-ID, so nothing is missed. */
export function connect(): () => void {
  const source = new EventSource(controlUrl('events', {}, true));
  source.onopen = () => (connection.value = 'live');
  source.onerror = () => (connection.value = 'reconnecting');
  for (const name of EVENTS) source.addEventListener(name, (e) => enqueue(name, (e as MessageEvent<string>).data));
  return () => source.close();
}
