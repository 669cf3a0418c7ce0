/**
 * The current batch of background work: every job created since the queue was last empty. While
 * any job is queued or running, the Jobs view shows "N of M background jobs done". Worked out
 * from the live `jobs` signal only: a batch starts when a job is seen waiting, takes in every job
 * that arrives while it lasts, and ends when nothing waits any more (it stays on screen briefly).
 */
import { computed, effect, signal } from '@preact/signals';
import type { JobRecord } from '../../api/types.js';
import { jobs } from '../../state/live.js';

export const isActive = (job: JobRecord): boolean => job.status === 'queued' || job.status === 'running';

interface Batch {
  ids: ReadonlySet<string>;
  finished: boolean;
}

/** How long a finished batch stays on screen ("3 of 3 done"). */
const LINGER_MS = 5000;

const current = signal<Batch | null>(null);
/** Every job id the tracker has looked at: anything else in the list is new. */
const seen = new Set<string>();
let lingering: number | undefined;

/** Ids fetched from the history (older jobs): never counted as arrivals of a batch. */
export function markSeen(ids: Iterable<string>): void {
  for (const id of ids) seen.add(id);
}

/**
 * A batch noticed midway (the UI opened while jobs run): the jobs created since the queue was last
 * empty, judged by their times. The queue runs one job at a time in order of creation, so it was
 * empty just before job i when every older job had finished before i was created.
 */
export function batchOf(list: readonly JobRecord[]): string[] {
  const oldestFirst = [...list].reverse();
  const firstActive = oldestFirst.findIndex(isActive);
  if (firstActive < 0) return [];
  let start = firstActive;
  let lastFinish = -Infinity;
  for (let i = 0; i <= firstActive; i++) {
    const job = oldestFirst[i]!;
    if (lastFinish < Date.parse(job.created)) start = i;
    const finished = job.finished ? Date.parse(job.finished) : Infinity;
    lastFinish = Math.max(lastFinish, finished);
  }
  return oldestFirst.slice(start).map((j) => j.id);
}

effect(() => {
  const list = jobs.value;
  const arrived = list.filter((j) => !seen.has(j.id));
  markSeen(arrived.map((j) => j.id));
  const anyActive = list.some(isActive);
  const batch = current.peek();
  if (anyActive) {
    window.clearTimeout(lingering);
    if (!batch || batch.finished) current.value = { ids: new Set(batchOf(list)), finished: false };
    else if (arrived.length) current.value = { ids: new Set([...batch.ids, ...arrived.map((j) => j.id)]), finished: false };
  } else if (batch && !batch.finished) {
    current.value = { ids: new Set([...batch.ids, ...arrived.map((j) => j.id)]), finished: true };
    lingering = window.setTimeout(() => (current.value = null), LINGER_MS);
  }
});

export interface BatchProgress {
  done: number;
  total: number;
  failed: number;
  /** The jobs running now: one on the write line, and media downloads beside it. */
  running: JobRecord[];
  /** Media downloads among the jobs still waiting. */
  downloads: number;
  finished: boolean;
}

export const batchProgress = computed<BatchProgress | null>(() => {
  const batch = current.value;
  if (!batch) return null;
  const rows = jobs.value.filter((j) => batch.ids.has(j.id));
  if (rows.length === 0) return null;
  const waiting = rows.filter(isActive);
  return {
    done: rows.length - waiting.length,
    total: rows.length,
    failed: rows.filter((j) => j.status === 'failed').length,
    running: rows.filter((j) => j.status === 'running'),
    downloads: waiting.filter((j) => j.kind === 'media.import').length,
    finished: batch.finished,
  };
});

/** Jobs queued or running right now, across everything (the header's indicator). */
export const activeCount = computed(() => jobs.value.filter(isActive).length);
