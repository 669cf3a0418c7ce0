/**
 * The emulator's clock: what time it thinks it is (ticking here between updates, standing still
 * when frozen), set it (optionally frozen), advance it, or send it back to real time. Scheduled
 * posts and pages publish when it passes their time. Updates arrive live from the `clock` signal.
 */
import { useEffect, useId, useMemo, useState } from 'preact/hooks';
import { getData } from '../../api/client.js';
import type { ClockState } from '../../api/types.js';
import { clock } from '../../state/live.js';
import { attempt } from '../../state/toasts.js';
import { fromLocalInput, offsetOf, toLocalInput } from './clock-time.js';

const MODE_TEXT: Record<ClockState['mode'], string> = { real: 'Real time', offset: 'Shifted', frozen: 'Frozen' };

/** The emulator's time now: the last state received, run forward by the local clock unless frozen. */
function useTicking(state: ClockState | null): Date | null {
  const base = useMemo(() => (state ? { at: Date.now(), now: Date.parse(state.now) } : null), [state]);
  const [, setTick] = useState(0);
  useEffect(() => {
    if (!state || state.mode === 'frozen') return;
    const timer = window.setInterval(() => setTick((n) => n + 1), 1000);
    return () => window.clearInterval(timer);
  }, [state]);
  if (!base || !state) return null;
  return new Date(state.mode === 'frozen' ? base.now : base.now + (Date.now() - base.at));
}

async function change(path: string, method: 'PUT' | 'POST' | 'DELETE', body?: unknown): Promise<void> {
  const state = await getData<ClockState>(path, body === undefined ? { method } : { method, body });
  clock.value = state;
}

function NumberField({ label, value, onInput, max }: { label: string; value: number; onInput: (n: number) => void; max: number }) {
  const id = useId();
  return (
    <span class="field">
      <label for={id}>{label}</label>
      <input
        id={id}
        type="number"
        min={0}
        max={max}
        step={1}
        value={value}
        onInput={(e) => onInput(Math.max(0, Number(e.currentTarget.value) || 0))}
      />
    </span>
  );
}

export function ClockSection() {
  const state = clock.value;
  const now = useTicking(state);
  const ids = { at: useId(), freeze: useId() };
  const [at, setAt] = useState('');
  const [freeze, setFreeze] = useState(false);
  const [advance, setAdvance] = useState({ days: 0, hours: 1, minutes: 0 });
  const [busy, setBusy] = useState(false);

  // The form starts at the emulator's time, once known; after that it is the user's.
  useEffect(() => {
    if (at === '' && state) setAt(toLocalInput(new Date(state.now)));
  }, [state, at]);

  const run = async (action: () => Promise<void>, done: string) => {
    setBusy(true);
    await attempt(action, done);
    setBusy(false);
  };
  const target = fromLocalInput(at);
  const advanceEmpty = advance.days + advance.hours + advance.minutes === 0;

  return (
    <section class="card" aria-labelledby="settings-clock">
      <h2 id="settings-clock">Clock</h2>
      <div class="clock-now" role="group" aria-label="Emulator time">
        {now && state ? (
          <>
            <time class="clock-time" dateTime={now.toISOString()} data-testid="clock-now" data-mode={state.mode}>
              {now.toLocaleString(undefined, { hour12: false, dateStyle: 'medium', timeStyle: 'medium' })}
            </time>
            <span class={`badge ${state.mode === 'real' ? 'good' : 'warn'}`} data-testid="clock-mode">
              {MODE_TEXT[state.mode]}
            </span>
            <span class="muted small mono">{now.toISOString()}</span>
            {state.mode !== 'real' && <span class="muted small">{offsetOf(state.offset_ms)} from real time</span>}
          </>
        ) : (
          <span class="muted">Waiting for the emulator…</span>
        )}
      </div>

      <form
        class="settings-form"
        aria-label="Set the clock"
        onSubmit={(e) => {
          e.preventDefault();
          if (target) void run(() => change('clock', 'PUT', { now: target, freeze }), freeze ? 'Clock set and frozen' : 'Clock set');
        }}
      >
        <span class="field">
          <label for={ids.at}>Date and time</label>
          <input id={ids.at} type="datetime-local" step={1} value={at} required onInput={(e) => setAt(e.currentTarget.value)} />
        </span>
        <label class="check" for={ids.freeze}>
          <input id={ids.freeze} type="checkbox" checked={freeze} onChange={(e) => setFreeze(e.currentTarget.checked)} />
          Freeze
        </label>
        <button type="submit" disabled={busy || !target}>
          Set clock
        </button>
      </form>

      <form
        class="settings-form"
        aria-label="Advance the clock"
        onSubmit={(e) => {
          e.preventDefault();
          if (!advanceEmpty) void run(() => change('clock/advance', 'POST', advance), 'Clock advanced');
        }}
      >
        <NumberField label="Days" value={advance.days} max={3650} onInput={(days) => setAdvance({ ...advance, days })} />
        <NumberField label="Hours" value={advance.hours} max={10000} onInput={(hours) => setAdvance({ ...advance, hours })} />
        <NumberField label="Minutes" value={advance.minutes} max={100000} onInput={(minutes) => setAdvance({ ...advance, minutes })} />
        <button type="submit" disabled={busy || advanceEmpty}>
          Advance
        </button>
      </form>

      <div class="actions">
        <button
          type="button"
          disabled={busy || !state || state.mode === 'real'}
          onClick={() => void run(() => change('clock', 'DELETE'), 'Back to real time')}
        >
          Back to real time
        </button>
        <span class="muted small">Scheduled posts and pages publish, with their webhooks, when the clock passes their time.</span>
      </div>
    </section>
  );
}
