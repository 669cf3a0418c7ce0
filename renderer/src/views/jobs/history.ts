/**
 * The live snapshot holds the newest 100 jobs; the emulator keeps 2000. When the Jobs view opens,
 * the older ones are fetched once and merged behind the live rows (which are fresher).
 */
import { getData } from '../../api/client.js';
import type { JobRecord } from '../../api/types.js';
import { jobs } from '../../state/live.js';
import { markSeen } from './batch.js';

let loaded: Promise<void> | null = null;

export function loadJobHistory(): Promise<void> {
  loaded ??= getData<JobRecord[]>('jobs', { query: { limit: 2000 } })
    .then((older) => {
      const live = jobs.value;
      const known = new Set(live.map((j) => j.id));
      const missing = older.filter((j) => !known.has(j.id));
      if (missing.length === 0) return;
      markSeen(missing.map((j) => j.id));
      // Stable sort: equal times (a frozen clock) keep the live order, then the fetched order.
      jobs.value = live.concat(missing).sort((a, b) => (a.created < b.created ? 1 : a.created > b.created ? -1 : 0));
    })
    .catch(() => {
      loaded = null; // try again next time the view opens
    });
  return loaded;
}
