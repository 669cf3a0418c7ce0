/**
 * The window's frame: the navigation, the connection and clock, the banner for a broken data
 * file, and the notices. Views render inside it.
 */
import type { ComponentChildren } from 'preact';
import { clock, connection, deliveries, jobs, requests, storeProblem } from '../state/live.js';
import { href, route, type View } from '../state/route.js';
import { toasts } from '../state/toasts.js';
import { dateTimeOf } from './format.js';

const NAV: { view: View; label: string; key: string; count?: () => number }[] = [
  { view: 'requests', label: 'Requests', key: '1', count: () => requests.value.length },
  { view: 'content', label: 'Content', key: '2' },
  { view: 'webhooks', label: 'Webhooks', key: '3', count: () => deliveries.value.length },
  { view: 'jobs', label: 'Jobs', key: '4', count: () => jobs.value.filter((j) => j.status === 'failed').length },
  { view: 'settings', label: 'Settings', key: '5' },
];

// Alt+1…5 switch views from anywhere.
window.addEventListener('keydown', (event) => {
  if (!event.altKey || event.ctrlKey || event.metaKey) return;
  const item = NAV.find((n) => n.key === event.key);
  if (item) {
    event.preventDefault();
    location.hash = href(item.view);
  }
});

function StoreBanner() {
  const problem = storeProblem.value;
  if (!problem) return null;
  return (
    <div class="banner" role="alert" data-testid="store-error-banner">
      <strong>The data file has an invalid edit.</strong> {problem.message}
      <span class="muted"> — the emulator keeps serving the last good state until the file is fixed ({problem.file}).</span>
    </div>
  );
}

function ClockBadge() {
  const state = clock.value;
  if (!state) return null;
  return (
    <a class={`clock ${state.mode}`} href={href('settings')} title="The emulator's clock (Settings)">
      {state.mode === 'real'
        ? 'Real time'
        : state.mode === 'frozen'
          ? `Frozen at ${dateTimeOf(state.now)}`
          : `Clock at ${dateTimeOf(state.now)}`}
    </a>
  );
}

export function Shell({ children }: { children: ComponentChildren }) {
  const current = route.value.view;
  return (
    <div class="shell">
      <header class="topbar">
        <span class="brand">CMS Emulator</span>
        <ClockBadge />
        <span class={`connection ${connection.value}`} role="status">
          {connection.value === 'live' ? 'Live' : connection.value === 'connecting' ? 'Connecting…' : 'Reconnecting…'}
        </span>
      </header>
      <nav class="sidebar" aria-label="Views">
        {NAV.map((item) => {
          const count = item.count?.();
          return (
            <a key={item.view} href={href(item.view)} aria-current={current === item.view ? 'page' : undefined} title={`Alt+${item.key}`}>
              <span>{item.label}</span>
              {count ? <span class="count">{count}</span> : null}
            </a>
          );
        })}
      </nav>
      <main class="main">
        <StoreBanner />
        {children}
      </main>
      <div class="toasts" aria-live="polite">
        {toasts.value.map((t) => (
          <div key={t.id} class={`toast ${t.kind}`} role={t.kind === 'error' ? 'alert' : 'status'}>
            {t.text}
          </div>
        ))}
      </div>
    </div>
  );
}
