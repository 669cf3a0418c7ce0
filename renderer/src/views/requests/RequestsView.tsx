/**
 * Requests: the live log, newest first, filtered in the browser; a detail pane for the selected
 * request. The selection lives in the URL (#/requests/<id>) so it survives a reload.
 */
import { useComputed, useSignal } from '@preact/signals';
import { useEffect, useState } from 'preact/hooks';
import { call, controlUrl, getData } from '../../api/client.js';
import type { OrganizationSummary, RequestSummary } from '../../api/types.js';
import { MethodBadge, StatusBadge } from '../../components/Badge.js';
import { FilterSelect, OrganizationSelect } from '../../components/FilterSelect.js';
import { durationOf, timeOf } from '../../components/format.js';
import { VirtualList } from '../../components/VirtualList.js';
import { contentRevision, requests } from '../../state/live.js';
import { navigate, route } from '../../state/route.js';
import { attempt } from '../../state/toasts.js';
import { asQuery, matches, NO_FILTER, type RequestFilter } from './filters.js';
import { RequestDetail } from './RequestDetail.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];
const STATUSES = ['2xx', '3xx', '4xx', '5xx'];

function Row({ row }: { row: RequestSummary }) {
  return (
    <>
      <span class="cell-time">{timeOf(row.time)}</span>
      <MethodBadge method={row.method} />
      <StatusBadge status={row.status} />
      <span class="cell-grow mono small" title={row.url}>
        {row.url}
      </span>
      <span class="muted small">{row.organization ?? ''}</span>
      <span class="cell-num">{durationOf(row.duration_ms)}</span>
    </>
  );
}

function useOrganizationDetails(): OrganizationSummary[] {
  const [details, setDetails] = useState<OrganizationSummary[]>([]);
  const revision = contentRevision.value;
  useEffect(() => {
    void getData<OrganizationSummary[]>('organizations').then(setDetails);
  }, [revision]);
  return details;
}

export function RequestsView() {
  const filter = useSignal<RequestFilter>(NO_FILTER);
  const rows = useComputed(() => requests.value.filter((r) => matches(r, filter.value)));
  const selected = route.value.rest[0] ?? null;
  const orgDetails = useOrganizationDetails();
  const set = (patch: Partial<RequestFilter>) => (filter.value = { ...filter.value, ...patch });

  return (
    <section class="view" aria-label="Requests">
      <div class="split">
        <div class="pane">
          <div class="toolbar" role="search">
            <FilterSelect
              label="Method"
              noFilterLabel="Any method"
              value={filter.value.method}
              choices={METHODS}
              onChange={(method) => set({ method })}
            />
            <FilterSelect
              label="Status"
              noFilterLabel="Any status"
              value={filter.value.status}
              choices={STATUSES}
              onChange={(status) => set({ status })}
            />
            <OrganizationSelect value={filter.value.organization} onChange={(organization) => set({ organization })} />
            <input
              type="search"
              aria-label="Path contains"
              placeholder="Path contains…"
              value={filter.value.path}
              onInput={(e) => set({ path: e.currentTarget.value })}
            />
            <span class="spacer" />
            <span class="muted small" data-testid="request-count">
              {rows.value.length} of {requests.value.length}
            </span>
            <a class="button small" href={controlUrl('requests/export.har', asQuery(filter.value), true)} download="cms-emulator.har">
              Export HAR
            </a>
            <button
              type="button"
              class="small"
              onClick={() =>
                void attempt(async () => {
                  await call('requests', { method: 'DELETE' });
                  requests.value = [];
                }, 'Request log cleared')
              }
            >
              Clear
            </button>
          </div>
          <VirtualList
            rows={rows.value}
            rowHeight={34}
            keyOf={(r) => r.id}
            selected={selected}
            onSelect={(r) => navigate('requests', r.id)}
            renderRow={(r) => <Row row={r} />}
            label="Requests, newest first"
            empty="No requests yet. Point a client at the API base URL (Settings) and they appear here live."
          />
        </div>
        <div class="pane">
          <div class="pane-body">
            {selected ? <RequestDetail id={selected} organizations={orgDetails} /> : <p class="muted">Select a request to see it whole.</p>}
          </div>
        </div>
      </div>
    </section>
  );
}
