/**
 * The data folder and file: where they are, whether the file on disk is what the emulator serves
 * (a hand edit may have broken it), how often the emulator wrote it, whether hand edits fire
 * webhooks, and an export of the whole file with its progress.
 */
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { getData } from '../../api/client.js';
import type { EmulatorInfo, StoreStatus } from '../../api/types.js';
import { bytesOf } from '../../components/format.js';
import { contentRevision, storeProblem } from '../../state/live.js';
import { attempt } from '../../state/toasts.js';
import { CopyField } from './CopyField.js';
import { exportState, type ExportProgress } from './export-state.js';

function useStoreStatus(): [StoreStatus | null, (s: StoreStatus) => void] {
  const [status, setStatus] = useState<StoreStatus | null>(null);
  // Writes and problems change with content and with the file: refetch on those signals.
  const revision = contentRevision.value;
  const problem = storeProblem.value;
  useEffect(() => {
    const abort = new AbortController();
    getData<StoreStatus>('store', { signal: abort.signal })
      .then(setStatus)
      .catch(() => undefined);
    return () => abort.abort();
  }, [revision, problem]);
  return [status, setStatus];
}

function Export() {
  const [progress, setProgress] = useState<ExportProgress | null>(null);
  const [file, setFile] = useState<{ url: string; size: number } | null>(null);
  const link = useRef<HTMLAnchorElement>(null);
  const fresh = useRef(false);

  // The object URL lives as long as the link shows it.
  useEffect(() => () => (file ? URL.revokeObjectURL(file.url) : undefined), [file]);
  // Once ready, the download starts by itself; the link stays to save it again.
  useEffect(() => {
    if (file && fresh.current) {
      fresh.current = false;
      link.current?.click();
    }
  }, [file]);

  const start = async () => {
    setFile(null);
    setProgress({ received: 0, total: null }); // shown from the click: the answer may take a moment to start
    const blob = await attempt(() => exportState(setProgress));
    setProgress(null);
    if (blob) {
      fresh.current = true;
      setFile({ url: URL.createObjectURL(blob), size: blob.size });
    }
  };

  return (
    <div class="export">
      <div class="actions">
        <button type="button" disabled={progress !== null} onClick={() => void start()}>
          Export data file
        </button>
        {file && (
          <a ref={link} class="button" href={file.url} download="data.json" data-testid="export-link">
            Save data.json ({bytesOf(file.size)})
          </a>
        )}
      </div>
      {progress && (
        <div class="progress" role="status" aria-live="polite" data-testid="export-progress">
          <span>Exporting…</span>
          {progress.total ? (
            <progress max={progress.total} value={progress.received} aria-label="Export" />
          ) : (
            <progress aria-label="Export" />
          )}
          <span class="muted small">
            {bytesOf(progress.received)}
            {progress.total ? ` of ${bytesOf(progress.total)}` : ''}
          </span>
        </div>
      )}
    </div>
  );
}

export function DataFileSection({ info }: { info: EmulatorInfo | null }) {
  const [status, setStatus] = useStoreStatus();
  const toggleId = useId();
  return (
    <section class="card" aria-labelledby="settings-data">
      <h2 id="settings-data">Data file</h2>
      {info && (
        <>
          <CopyField label="Data folder" value={info.data_dir} testId="data-dir" />
          <CopyField label="Data file" value={info.data_file} testId="data-file" />
        </>
      )}
      <dl class="props settings-status" data-testid="store-status">
        <dt>On disk</dt>
        <dd>
          {!status ? (
            '…'
          ) : status.error ? (
            <span class="settings-bad">Invalid edit: {status.error.message}</span>
          ) : (
            <span class="settings-good">Matches what the emulator serves</span>
          )}
        </dd>
        <dt>Writes</dt>
        <dd data-testid="store-writes">{status ? status.writes : '…'}</dd>
        {status?.broken_copy && (
          <>
            <dt>Broken edit kept at</dt>
            <dd class="mono small">{status.broken_copy}</dd>
          </>
        )}
      </dl>
      <label class="check settings-toggle" for={toggleId}>
        <input
          id={toggleId}
          type="checkbox"
          aria-describedby={`${toggleId}-about`}
          checked={status?.edits_fire_webhooks ?? false}
          disabled={!status}
          onChange={(e) => {
            const on = e.currentTarget.checked;
            void attempt(
              () => getData<StoreStatus>('store/settings', { method: 'PUT', body: { edits_fire_webhooks: on } }),
              on ? 'Hand edits now fire webhooks' : 'Hand edits no longer fire webhooks',
            ).then((next) => (next ? setStatus(next) : getData<StoreStatus>('store').then(setStatus))); // on failure: the truth again
          }}
        />
        Hand edits fire webhooks
      </label>
      <p id={`${toggleId}-about`} class="muted small settings-toggle-about">
        When on, a valid edit of the file fires the events and webhooks of the posts, pages and items it changed.
      </p>
      <Export />
    </section>
  );
}
