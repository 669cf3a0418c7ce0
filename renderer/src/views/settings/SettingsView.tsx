/**
 * Settings: how to reach the emulator (URLs, tokens, curl), its clock, its state (reset, fixtures,
 * snapshots) and its data file (status, hand-edit webhooks, export). One scrolling page of cards.
 */
import { useEffect, useState } from 'preact/hooks';
import { getData } from '../../api/client.js';
import type { EmulatorInfo, OrganizationSummary } from '../../api/types.js';
import { contentRevision } from '../../state/live.js';
import { attempt } from '../../state/toasts.js';
import { ClockSection } from './ClockSection.js';
import { ConnectionSection } from './ConnectionSection.js';
import { DataFileSection } from './DataFileSection.js';
import { StateSection } from './StateSection.js';
import './settings.css';

function useInfo(): EmulatorInfo | null {
  const [info, setInfo] = useState<EmulatorInfo | null>(null);
  useEffect(() => {
    void attempt(() => getData<EmulatorInfo>('info')).then((data) => data && setInfo(data));
  }, []);
  return info;
}

/** Organizations with their tokens; a fixture load or reset may change them. */
function useOrganizations(): OrganizationSummary[] {
  const [orgs, setOrgs] = useState<OrganizationSummary[]>([]);
  const revision = contentRevision.value;
  useEffect(() => {
    const abort = new AbortController();
    getData<OrganizationSummary[]>('organizations', { signal: abort.signal })
      .then(setOrgs)
      .catch(() => undefined);
    return () => abort.abort();
  }, [revision]);
  return orgs;
}

export function SettingsView() {
  const info = useInfo();
  const organizations = useOrganizations();
  return (
    <section class="view settings-view" aria-label="Settings">
      <header class="settings-head">
        <h1>Settings</h1>
        {info && (
          <span class="muted small">
            CMS Emulator {info.version}
            {info.strict ? ' · strict mode' : ''}
            {info.control_token_required ? ' · control token required' : ''}
          </span>
        )}
      </header>
      <div class="settings-columns">
        <div class="settings-column">
          <ConnectionSection info={info} organizations={organizations} />
          <DataFileSection info={info} />
        </div>
        <div class="settings-column">
          <ClockSection />
          <StateSection />
        </div>
      </div>
    </section>
  );
}
