/**
 * Jobs: the background work that finishes accepted writes (creates, updates, media downloads,
 * reference clean-ups), live, newest first, with filters; a detail pane for the selected job,
 * its failure reason first. While work is queued, a bar shows how much of the batch is done.
 * The selection lives in the URL (#/jobs/<id>).
 */
import { useComputed, useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import type { JobRecord } from '../../api/types.js';
import { StateBadge } from '../../components/Badge.js';
import { FilterSelect, OrganizationSelect } from '../../components/FilterSelect.js';
import { durationOf, timeOf } from '../../components/format.js';
import { VirtualList } from '../../components/VirtualList.js';
import { jobs } from '../../state/live.js';
import { navigate, route } from '../../state/route.js';
import { activeCount, batchProgress } from './batch.js';
import { kindsOf, matches, NO_FILTER, STATUSES, type JobFilter } from './filters.js';
import { loadJobHistory } from './history.js';
import { JobDetail } from './JobDetail.js';
import './jobs.css';

function Row({ job }: { job: JobRecord }) {
  const ran = job.started && job.finished ? Date.parse(job.finished) - Date.parse(job.started) : null;
  return (
    <>
      <span class="cell-time">{timeOf(job.created)}</span>
      <span class="job-status">
        <StateBadge state={job.status} />
      </span>
      <span class="mono small job-kind">{job.kind}</span>
      <span class="muted small job-org">{job.organization}</span>
      <span class={job.error ? 'cell-grow small job-row-error' : 'cell-grow'} title={job.error ?? undefined}>
        {job.error ?? ''}
      </span>
      <span class="cell-num">{durationOf(ran)}</span>
    </>
  );
}

/** The header's indicator: a pulsing dot while anything is queued or running. */
function Activity() {
  const active = activeCount.value;
  const failed = jobs.value.filter((j) => j.status === 'failed').length;
  return (
    <span class="jobs-indicators">
      <span class={active ? 'jobs-activity busy' : 'jobs-activity'} data-testid="jobs-activity" title="Jobs queued or running">
        {active ? `${active} in progress` : 'Idle'}
      </span>
      {failed > 0 && <span class="badge bad">{failed} failed</span>}
    </span>
  );
}

function BatchBar() {
  const p = batchProgress.value;
  if (!p) return null;
  const text = `${p.done} of ${p.total} background job${p.total === 1 ? '' : 's'} done`;
  const notes = [
    p.downloads > 0 ? `${p.downloads} media download${p.downloads === 1 ? '' : 's'} waiting` : '',
    p.running.length === 1 ? `now: ${p.running[0]!.kind} (${p.running[0]!.organization})` : '',
    p.running.length > 1 ? `${p.running.length} running at once` : '',
    p.failed > 0 ? `${p.failed} failed` : '',
  ].filter(Boolean);
  return (
    <div class={p.finished ? 'jobs-batch finished' : 'jobs-batch'} role="status" aria-live="polite" data-testid="jobs-progress">
      <span class="jobs-batch-text">{text}</span>
      <progress max={p.total} value={p.done} aria-label="Background jobs done" />
      <span class="muted small">{notes.join(' · ')}</span>
    </div>
  );
}

export function JobsView() {
  const filter = useSignal<JobFilter>(NO_FILTER);
  const rows = useComputed(() => jobs.value.filter((j) => matches(j, filter.value)));
  const selectedId = route.value.rest[0] ?? null;
  const selected = selectedId ? (jobs.value.find((j) => j.id === selectedId) ?? null) : null;
  const set = (patch: Partial<JobFilter>) => (filter.value = { ...filter.value, ...patch });

  useEffect(() => void loadJobHistory(), []);

  return (
    <section class="view jobs-view" aria-label="Jobs">
      <header class="jobs-head">
        <h1>Jobs</h1>
        <Activity />
      </header>
      <BatchBar />
      <div class="split">
        <div class="pane">
          <div class="toolbar" role="search">
            <FilterSelect
              label="Status"
              noFilterLabel="Any status"
              value={filter.value.status}
              choices={STATUSES}
              onChange={(status) => set({ status })}
            />
            <FilterSelect
              label="Kind"
              noFilterLabel="Any kind"
              value={filter.value.kind}
              choices={kindsOf(jobs.value, filter.value.kind)}
              onChange={(kind) => set({ kind })}
            />
            <OrganizationSelect value={filter.value.organization} onChange={(organization) => set({ organization })} />
            <span class="spacer" />
            <span class="muted small" data-testid="job-count">
              {rows.value.length} of {jobs.value.length}
            </span>
          </div>
          <VirtualList
            rows={rows.value}
            rowHeight={34}
            keyOf={(j) => j.id}
            selected={selectedId}
            onSelect={(j) => navigate('jobs', j.id)}
            renderRow={(j) => <Row job={j} />}
            label="Jobs, newest first"
            empty={
              jobs.value.length === 0
                ? 'No background jobs yet. API writes (creates, updates, media downloads) run here after their 202.'
                : 'No job matches these filters.'
            }
          />
        </div>
        <div class="pane">
          <div class="pane-body">
            {selected ? (
              <JobDetail job={selected} all={jobs.value} />
            ) : selectedId ? (
              <p class="muted">This job is not in the emulator's recent history.</p>
            ) : (
              <p class="muted">Select a job to see what caused it, when it ran and why it failed.</p>
            )}
          </div>
        </div>
      </div>
    </section>
  );
}
