/** Tabs with the WAI-ARIA keyboard pattern: arrows move between tabs. */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';

export interface Tab {
  id: string;
  label: string;
  render: () => ComponentChildren;
}

export function Tabs({ tabs, label }: { tabs: Tab[]; label: string }) {
  const [active, setActive] = useState(tabs[0]?.id ?? '');
  const current = tabs.find((t) => t.id === active) ?? tabs[0];
  function onKeyDown(event: KeyboardEvent) {
    const i = tabs.findIndex((t) => t.id === current?.id);
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    const next = tabs[(i + step + tabs.length) % tabs.length];
    if (next) {
      setActive(next.id);
      document.getElementById(`tab-${next.id}`)?.focus();
    }
  }
  return (
    <div class="tabs">
      <div role="tablist" aria-label={label} onKeyDown={onKeyDown}>
        {tabs.map((t) => (
          <button
            key={t.id}
            id={`tab-${t.id}`}
            type="button"
            role="tab"
            aria-selected={t.id === current?.id}
            tabIndex={t.id === current?.id ? 0 : -1}
            onClick={() => setActive(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" aria-labelledby={`tab-${current?.id ?? ''}`}>
        {current?.render()}
      </div>
    </div>
  );
}
