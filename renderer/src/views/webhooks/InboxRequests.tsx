/** What an inbox received, newest first: headers and body as text. */
import { useState } from 'preact/hooks';
import type { InboxRequest } from '../../api/types.js';
import { Code } from '../../components/Code.js';
import { dateTimeOf } from '../../components/format.js';
import { HeaderTable } from '../../components/HeaderTable.js';

const PAGE = 25;

function Received({ request }: { request: InboxRequest }) {
  const event = (request.json as { webhook?: { event?: unknown } } | null)?.webhook?.event;
  return (
    <section class="wh-attempt wh-received" aria-label={`Received ${dateTimeOf(request.at)}`} data-testid="inbox-request">
      <div class="wh-attempt-head">
        <span class="method m-post wh-method">{request.method}</span>
        {typeof event === 'string' && <span class="mono small">{event}</span>}
        <span class="muted small">{dateTimeOf(request.at)}</span>
      </div>
      <Code text={request.body} type={request.headers['content-type']} label="Body (as text)" />
      <details>
        <summary class="small">Headers ({Object.keys(request.headers).length})</summary>
        <HeaderTable headers={request.headers} label="Received headers" />
      </details>
    </section>
  );
}

export function InboxRequests({ requests }: { requests: InboxRequest[] }) {
  const [shown, setShown] = useState(PAGE);
  if (requests.length === 0) return <p class="muted small">Nothing received yet.</p>;
  return (
    <>
      {requests.slice(0, shown).map((r) => (
        <Received key={r.id} request={r} />
      ))}
      {requests.length > shown && (
        <button type="button" class="small" onClick={() => setShown(shown + PAGE)}>
          Show {Math.min(PAGE, requests.length - shown)} more ({requests.length - shown} older)
        </button>
      )}
    </>
  );
}
