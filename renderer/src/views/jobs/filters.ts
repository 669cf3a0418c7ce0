/** The job list's filters, applied in the browser to the live rows. */
import type { JobRecord } from '../../api/types.js';

export interface JobFilter {
  status: string;
  kind: string;
  organization: string;
}

export const NO_FILTER: JobFilter = { status: '', kind: '', organization: '' };

export const STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;

export function matches(job: JobRecord, f: JobFilter): boolean {
  if (f.status && job.status !== f.status) return false;
  if (f.kind && job.kind !== f.kind) return false;
  if (f.organization && job.organization !== f.organization) return false;
  return true;
}

/** The kinds present in the list, sorted, plus the one selected (so the select never loses it). */
export function kindsOf(list: readonly JobRecord[], selected: string): string[] {
  const kinds = new Set(list.map((j) => j.kind));
  if (selected) kinds.add(selected);
  return [...kinds].sort();
}
