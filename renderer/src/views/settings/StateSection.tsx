/**
 * The whole state: back to the fixture, load another fixture (with progress while it runs), and
 * named snapshots to save and restore (in memory, milliseconds).
 */
import { useEffect, useId, useState } from 'preact/hooks';
import { call, getData } from '../../api/client.js';
import { dateTimeOf } from '../../components/format.js';
import { Progress } from '../../components/Progress.js';
import { contentRevision } from '../../state/live.js';
import { attempt, notify } from '../../state/toasts.js';
import { ConfirmButton } from './ConfirmButton.js';

interface Snapshot {
  name: string;
  created: string;
}

const SNAPSHOT_NAME = '[A-Za-z0-9._\\-]{1,100}';

/** Seconds since `since`, ticking, for the progress of work that reports none. */
function useElapsed(since: number | null): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (since === null) return;
    const timer = window.setInterval(() => setNow(Date.now()), 200);
    return () => window.clearInterval(timer);
  }, [since]);
  return since === null ? 0 : Math.max(0, now - since) / 1000;
}

function Snapshots() {
  const [list, setList] = useState<Snapshot[] | null>(null);
  const [name, setName] = useState('');
  const nameId = useId();
  const refresh = () =>
    getData<Snapshot[]>('snapshots')
      .then(setList)
      .catch(() => setList([]));
  // A state replacement elsewhere (another window, a test) may have added some: refetch on it.
  const revision = contentRevision.value;
  useEffect(() => void refresh(), [revision]);

  return (
    <>
      <h3>Snapshots</h3>
      <form
        class="settings-form"
        aria-label="Save a snapshot"
        onSubmit={(e) => {
          e.preventDefault();
          const wanted = name.trim();
          if (!wanted) return;
          void attempt(async () => {
            await call('snapshots', { method: 'POST', body: { name: wanted } });
            setName('');
            await refresh();
          }, `Snapshot "${wanted}" saved`);
        }}
      >
        <span class="field grow">
          <label for={nameId}>Snapshot name</label>
          <input
            id={nameId}
            value={name}
            pattern={SNAPSHOT_NAME}
            title='Letters, digits, ".", "_" or "-"'
            placeholder="before-migration"
            required
            onInput={(e) => setName(e.currentTarget.value)}
          />
        </span>
        <button type="submit">Save snapshot</button>
      </form>
      {list === null ? (
        <p class="muted">Loading…</p>
      ) : list.length === 0 ? (
        <p class="muted small">No snapshots yet. A snapshot keeps the whole state in memory until the emulator stops.</p>
      ) : (
        <table class="grid" aria-label="Snapshots">
          <thead>
            <tr>
              <th>Name</th>
              <th>Saved (emulator time)</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {list.map((s) => (
              <tr key={s.name} data-snapshot={s.name}>
                <td class="mono">{s.name}</td>
                <td class="muted small">{dateTimeOf(s.created)}</td>
                <td class="cell-actions">
                  <button
                    type="button"
                    class="small"
                    aria-label={`Restore snapshot ${s.name}`}
                    onClick={() =>
                      void attempt(
                        () => call(`snapshots/${encodeURIComponent(s.name)}/restore`, { method: 'POST' }),
                        `Snapshot "${s.name}" restored`,
                      )
                    }
                  >
                    Restore
                  </button>
                  <button
                    type="button"
                    class="small danger"
                    aria-label={`Delete snapshot ${s.name}`}
                    onClick={() =>
                      void attempt(async () => {
                        await call(`snapshots/${encodeURIComponent(s.name)}`, { method: 'DELETE' });
                        await refresh();
                      }, `Snapshot "${s.name}" deleted`)
                    }
                  >
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

export function StateSection() {
  const [fixture, setFixture] = useState('demo');
  const [work, setWork] = useState<{ label: string; since: number } | null>(null);
  const elapsed = useElapsed(work?.since ?? null);
  const fixtureId = useId();

  const replace = async (label: string, done: string, path: string, body?: unknown) => {
    setWork({ label, since: Date.now() });
    const result = await attempt(() =>
      getData<{ fixture: string }>(path, body === undefined ? { method: 'POST' } : { method: 'POST', body }),
    );
    setWork(null);
    if (result) notify(`${done} (${result.fixture})`);
  };

  return (
    <section class="card" aria-labelledby="settings-state">
      <h2 id="settings-state">State</h2>
      <div class="actions">
        <ConfirmButton
          label="Reset to fixture…"
          question="Replace all content by the fixture's? Jobs not yet run are dropped."
          confirm="Reset"
          disabled={work !== null}
          onConfirm={() => void replace('Resetting to the fixture…', 'Reset to the fixture', 'reset')}
        />
      </div>
      <form class="settings-form" aria-label="Load a fixture" onSubmit={(e) => e.preventDefault()}>
        <span class="field grow">
          <label for={fixtureId}>Fixture</label>
          <input
            id={fixtureId}
            value={fixture}
            placeholder="demo, or the path of a folder holding data.json"
            required
            onInput={(e) => setFixture(e.currentTarget.value)}
          />
        </span>
        <ConfirmButton
          label="Load fixture…"
          question="Replace all content by this fixture's?"
          confirm="Load"
          disabled={work !== null || fixture.trim() === ''}
          onConfirm={() => {
            const name = fixture.trim();
            void replace(`Loading fixture “${name}”…`, `Fixture “${name}” loaded`, 'fixtures/load', { fixture: name });
          }}
        />
      </form>
      {work && <Progress label={`${work.label} ${elapsed.toFixed(1)} s`} />}
      <Snapshots />
    </section>
  );
}
