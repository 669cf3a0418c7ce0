/** Where clients point: the API base and CDN URLs, and each organization's tokens with curl examples. */
import { serverOrigin } from '../../api/client.js';
import type { EmulatorInfo, OrganizationSummary } from '../../api/types.js';
import { CopyBlock, CopyField } from './CopyField.js';

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

export function readExample(apiUrl: string, token: string): string {
  return `curl ${quote(`${apiUrl}/posts/?auth_token=${encodeURIComponent(token)}&page_size=5`)}`;
}

export function writeExample(apiUrl: string, token: string): string {
  return [
    `curl -X POST ${quote(`${apiUrl}/posts/`)}`,
    `  -H ${quote(`Authorization: Token ${token}`)}`,
    `  -H 'Content-Type: application/json'`,
    `  --data-raw ${quote(JSON.stringify({ title: 'Hello from curl', status: 'draft' }))}`,
  ].join(' \\\n');
}

function Organization({ org, apiUrl }: { org: OrganizationSummary; apiUrl: string }) {
  const context = `(${org.slug})`;
  return (
    <section class="settings-org" aria-label={`Organization ${org.name}`} data-org={org.slug}>
      <h3 class="settings-org-name">
        {org.name} <span class="muted mono">{org.slug}</span>
      </h3>
      <CopyField inline label="Read token" context={context} value={org.tokens.read} testId={`token-read-${org.slug}`} />
      <CopyField inline label="Write token" context={context} value={org.tokens.write} testId={`token-write-${org.slug}`} />
      <CopyBlock label="Read example" context={context} text={readExample(apiUrl, org.tokens.read)} />
      <details class="settings-more">
        <summary>Write example</summary>
        <CopyBlock label="Write example" caption={false} context={context} text={writeExample(apiUrl, org.tokens.write)} />
      </details>
    </section>
  );
}

export function ConnectionSection({ info, organizations }: { info: EmulatorInfo | null; organizations: OrganizationSummary[] }) {
  const apiUrl = info ? serverOrigin + info.base_path : '';
  const cdnUrl = info ? serverOrigin + info.cdn_path : '';
  return (
    <section class="card" aria-labelledby="settings-connection">
      <h2 id="settings-connection">API and tokens</h2>
      {info ? (
        <>
          <CopyField label="API base URL" value={apiUrl} testId="api-url" />
          <CopyField label="CDN URL" value={cdnUrl} testId="cdn-url" />
        </>
      ) : (
        <p class="muted">Loading…</p>
      )}
      <p class="muted small">
        Reads send the read token as <code>auth_token</code> in the query; writes send the write token as{' '}
        <code>Authorization: Token …</code>.
      </p>
      {info && organizations.map((org) => <Organization key={org.slug} org={org} apiUrl={apiUrl} />)}
    </section>
  );
}
