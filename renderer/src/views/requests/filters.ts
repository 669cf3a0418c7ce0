/** The request list's filters, applied in the browser to the live rows. */
import type { RequestSummary } from '../../api/types.js';

export interface RequestFilter {
  method: string;
  status: string;
  path: string;
  organization: string;
}

export const NO_FILTER: RequestFilter = { method: '', status: '', path: '', organization: '' };

export function matches(row: RequestSummary, f: RequestFilter): boolean {
  if (f.method && row.method !== f.method) return false;
  if (f.status && String(row.status)[0] !== f.status[0]) return false;
  if (f.path && !row.url.toLowerCase().includes(f.path.toLowerCase())) return false;
  if (f.organization && row.organization !== f.organization) return false;
  return true;
}

/** The same filter as control API query parameters (for the HAR export). */
export function asQuery(f: RequestFilter): Record<string, string | undefined> {
  return {
    method: f.method || undefined,
    status: f.status || undefined,
    path: f.path || undefined,
    organization: f.organization || undefined,
  };
}
