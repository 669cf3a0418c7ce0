/** One logged request: headers and bodies both ways, what it caused, copy as curl. */
import { useEffect, useState } from 'preact/hooks';
import { ControlError, getData, serverOrigin } from '../../api/client.js';
import type { DeliverySummary, JobRecord, LoggedBody, LoggedRequest, OrganizationSummary } from '../../api/types.js';
import { StateBadge, StatusBadge } from '../../components/Badge.js';
import { Code } from '../../components/Code.js';
import { CopyButton } from '../../components/CopyButton.js';
import { HeaderTable } from '../../components/HeaderTable.js';
import { dateTimeOf, durationOf } from '../../components/format.js';
import { Tabs } from '../../components/Tabs.js';
import { href } from '../../state/route.js';
import { toCurl } from './curl.js';

type Detail = LoggedRequest & { caused: { jobs: JobRecord[]; deliveries: (DeliverySummary & { attempts: unknown })[] } };

function Body({ body, type, label }: { body: LoggedBody; type: string | undefined; label: string }) {
  return <Code text={body.text} type={type} label={`${label} (${body.size} bytes)`} truncated={body.truncated} />;
}

function Caused({ caused }: { caused: Detail['caused'] }) {
  if (caused.jobs.length === 0 && caused.deliveries.length === 0) return <p class="muted">No background work or webhooks.</p>;
  return (
    <>
      <h3>Jobs</h3>
      {caused.jobs.length === 0 ? (
        <p class="muted">None.</p>
      ) : (
        <table class="grid">
          <tbody>
            {caused.jobs.map((j) => (
              <tr key={j.id}>
                <td>
                  <a href={href('jobs', j.id)}>{j.kind}</a>
                </td>
                <td>
                  <StateBadge state={j.status} />
                </td>
                <td class="muted">{j.error ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h3>Webhook deliveries</h3>
      {caused.deliveries.length === 0 ? (
        <p class="muted">None.</p>
      ) : (
        <table class="grid">
          <tbody>
            {caused.deliveries.map((d) => (
              <tr key={d.id}>
                <td>
                  <a href={href('webhooks', d.id)}>{d.event}</a>
                </td>
                <td class="mono small">{d.target}</td>
                <td>
                  <StateBadge state={d.state} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

export function RequestDetail({ id, organizations }: { id: string; organizations: OrganizationSummary[] }) {
  const [detail, setDetail] = useState<Detail | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const abort = new AbortController();
    setDetail(null);
    setError(null);
    getData<Detail>(`requests/${encodeURIComponent(id)}`, { signal: abort.signal })
      .then(setDetail)
      .catch((e: unknown) => {
        if (abort.signal.aborted) return;
        if (e instanceof ControlError && e.status === 404)
          setError('This request is no longer in the emulator’s log: it keeps the newest 5000 (this window keeps 10,000 rows).');
        else setError(e instanceof ControlError ? e.detail : String(e));
      });
    return () => abort.abort();
  }, [id]);

  if (error) return <p class="muted">{error}</p>;
  if (!detail) return <p class="muted">Loading…</p>;

  const org = organizations.find((o) => o.slug === detail.organization);
  const token = org && detail.token ? org.tokens[detail.token] : null;
  const requestType = detail.request.headers['content-type'];
  const responseType = detail.response.headers['content-type'];
  const causedCount = detail.caused.jobs.length + detail.caused.deliveries.length;

  return (
    <div data-testid="request-detail">
      <div class="detail-head">
        <StatusBadge status={detail.response.status} />
        <span class="mono">
          {detail.method} {detail.url}
        </span>
      </div>
      <dl class="props small">
        <dt>Time</dt>
        <dd>{dateTimeOf(detail.time)}</dd>
        <dt>Duration</dt>
        <dd>{durationOf(detail.duration_ms)}</dd>
        <dt>Organization</dt>
        <dd>{detail.organization ?? '—'}</dd>
        <dt>Token</dt>
        <dd>{detail.token ?? 'none'}</dd>
      </dl>
      <div class="actions">
        <CopyButton text={toCurl(detail, serverOrigin, token ?? null)} label="Copy as curl" />
      </div>
      <Tabs
        label="Request detail"
        tabs={[
          {
            id: 'response',
            label: 'Response',
            render: () => (
              <>
                <Body body={detail.response.body} type={responseType} label="Body" />
                <h3>Headers</h3>
                <HeaderTable headers={detail.response.headers} label="Response headers" />
              </>
            ),
          },
          {
            id: 'request',
            label: 'Request',
            render: () => (
              <>
                <h3>Headers</h3>
                <HeaderTable headers={detail.request.headers} label="Request headers" />
                <h3>Query</h3>
                <Code text={JSON.stringify(detail.query, null, 2)} type="application/json" />
                {detail.request.body.size > 0 && <Body body={detail.request.body} type={requestType} label="Body" />}
              </>
            ),
          },
          { id: 'caused', label: `Caused (${causedCount})`, render: () => <Caused caused={detail.caused} /> },
        ]}
      />
    </div>
  );
}
