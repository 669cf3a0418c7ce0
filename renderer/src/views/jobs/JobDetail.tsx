/** One background job: why it failed (first, in red), what caused it, when it waited and ran. */
import { useEffect, useState } from 'preact/hooks';
import { getData } from '../../api/client.js';
import type { JobRecord, RequestSummary } from '../../api/types.js';
import { MethodBadge, StateBadge, StatusBadge } from '../../components/Badge.js';
import { Json } from '../../components/Code.js';
import { dateTimeOf, durationOf } from '../../components/format.js';
import { href } from '../../state/route.js';
import { isActive } from './batch.js';

const between = (from: string | null, to: string | null): number | null => (from && to ? Date.parse(to) - Date.parse(from) : null);

/** The request that caused a job, as the log has it (it may have rotated out). */
function useRequest(requestId: string | null): RequestSummary | null | 'gone' {
  const [request, setRequest] = useState<RequestSummary | null | 'gone'>(null);
  useEffect(() => {
    setRequest(null);
    if (!requestId) return;
    const abort = new AbortController();
    getData<RequestSummary & { response: { status: number } }>(`requests/${encodeURIComponent(requestId)}`, { signal: abort.signal })
      .then((r) => setRequest({ ...r, status: r.response.status }))
      .catch(() => {
        if (!abort.signal.aborted) setRequest('gone');
      });
    return () => abort.abort();
  }, [requestId]);
  return request;
}

function Cause({ job }: { job: JobRecord }) {
  const cause = job.cause;
  const request = useRequest(cause.kind === 'api' ? cause.requestId : null);
  if (cause.kind === 'control') return <span>Control API: {cause.action}</span>;
  if (!cause.requestId) return <span>An API write (not in the request log)</span>;
  return (
    <span class="job-cause">
      <a href={href('requests', cause.requestId)} data-testid="job-cause-link">
        API request
      </a>
      {request && request !== 'gone' && (
        <>
          <MethodBadge method={request.method} />
          <span class="mono small job-cause-url">{request.url}</span>
          <StatusBadge status={request.status} />
        </>
      )}
      {request === 'gone' && <span class="muted small">(no longer in the request log)</span>}
    </span>
  );
}

/** Other jobs the same request led to (a post and its media downloads). */
function Siblings({ job, all }: { job: JobRecord; all: readonly JobRecord[] }) {
  if (job.cause.kind !== 'api' || !job.cause.requestId) return null;
  const requestId = job.cause.requestId;
  const siblings = all.filter((j) => j.id !== job.id && j.cause.kind === 'api' && j.cause.requestId === requestId);
  if (siblings.length === 0) return null;
  return (
    <>
      <h3>Same request</h3>
      <table class="grid">
        <tbody>
          {siblings.map((j) => (
            <tr key={j.id}>
              <td>
                <a href={href('jobs', j.id)} class="mono small">
                  {j.kind}
                </a>
              </td>
              <td>
                <StateBadge state={j.status} />
              </td>
              <td class="muted small">{j.error ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

export function JobDetail({ job, all }: { job: JobRecord; all: readonly JobRecord[] }) {
  const waited = between(job.created, job.started);
  const ran = between(job.started, job.finished);
  const ahead = job.status === 'queued' ? all.filter((j) => isActive(j) && j.id !== job.id && j.created <= job.created).length : 0;
  return (
    <div data-testid="job-detail">
      <div class="detail-head">
        <StateBadge state={job.status} />
        <span class="mono">{job.kind}</span>
        <span class="muted small">{job.organization}</span>
      </div>
      {job.status === 'failed' && (
        <div class="job-failure" data-testid="job-error">
          <strong>Why it failed</strong>
          <p>{job.error ?? 'No reason was recorded.'}</p>
        </div>
      )}
      {job.status === 'running' && (
        <div class="progress" role="status">
          <span>Running since {dateTimeOf(job.started)}</span>
          <progress />
        </div>
      )}
      {job.status === 'queued' && (
        <div class="progress" role="status">
          <span>Waiting in the queue{ahead > 0 ? ` behind ${ahead} job${ahead === 1 ? '' : 's'}` : ''}</span>
          <progress />
        </div>
      )}
      <dl class="props">
        <dt>Cause</dt>
        <dd>
          <Cause job={job} />
        </dd>
        <dt>Organization</dt>
        <dd>{job.organization}</dd>
        <dt>Created</dt>
        <dd>{dateTimeOf(job.created)}</dd>
        <dt>Started</dt>
        <dd>
          {dateTimeOf(job.started)}
          {waited !== null && <span class="muted small"> · waited {durationOf(waited)}</span>}
        </dd>
        <dt>Finished</dt>
        <dd>
          {dateTimeOf(job.finished)}
          {ran !== null && <span class="muted small"> · ran {durationOf(ran)}</span>}
        </dd>
        <dt>Id</dt>
        <dd class="mono small">{job.id}</dd>
      </dl>
      <Siblings job={job} all={all} />
      <h3>Record</h3>
      <Json value={job} />
    </div>
  );
}
