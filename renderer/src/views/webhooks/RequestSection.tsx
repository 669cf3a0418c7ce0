/** The exact request a delivery sent: method, URL, headers, body (JSON pretty-printed). */
import type { Delivery } from '../../api/types.js';
import { Code } from '../../components/Code.js';
import { CopyButton } from '../../components/CopyButton.js';
import { HeaderTable } from '../../components/HeaderTable.js';

export function RequestSection({ request }: { request: Delivery['request'] }) {
  const size = new TextEncoder().encode(request.body).length;
  return (
    <section aria-label="Request">
      <p class="mono small wh-request-line">
        <span class="method m-post wh-method">{request.method}</span> {request.url}
      </p>
      <HeaderTable headers={request.headers} label="Request headers" />
      <div class="wh-body-head">
        <span class="muted small">Body ({size} bytes)</span>
        <CopyButton text={request.body} label="Copy body" />
      </div>
      <Code text={request.body} type={request.headers['content-type']} />
    </section>
  );
}
