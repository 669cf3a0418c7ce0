/**
 * A list that renders only the rows in view (fixed row height), so 10,000 rows scroll as
 * smoothly as 10. Arrow keys, Home/End and PageUp/PageDown move the selection; the selected row
 * is kept in view. Rows are plain components: they must render text, never HTML.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

interface Props<T> {
  rows: T[];
  rowHeight: number;
  keyOf: (row: T) => string | number;
  selected: string | number | null;
  onSelect: (row: T) => void;
  renderRow: (row: T) => ComponentChildren;
  label: string;
  empty?: ComponentChildren;
}

const OVERSCAN = 8;

export function VirtualList<T>({ rows, rowHeight, keyOf, selected, onSelect, renderRow, label, empty }: Props<T>) {
  const viewport = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(600);

  useEffect(() => {
    const el = viewport.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setHeight(el.clientHeight));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const index = selected === null ? -1 : rows.findIndex((row) => keyOf(row) === selected);
  // Where the keyboard is: a second key pressed before the selection has come back through the
  // route (a re-render) must move on from the first one, not from the old selection.
  const cursor = useRef(index);
  cursor.current = index;

  // Keep the selected row in view when the selection moves by keyboard.
  useEffect(() => {
    const el = viewport.current;
    if (!el || index < 0) return;
    const top = index * rowHeight;
    if (top < el.scrollTop) el.scrollTop = top;
    else if (top + rowHeight > el.scrollTop + el.clientHeight) el.scrollTop = top + rowHeight - el.clientHeight;
  }, [index, rowHeight]);

  function onKeyDown(event: KeyboardEvent) {
    const page = Math.max(1, Math.floor(height / rowHeight) - 1);
    const at = cursor.current;
    const moves: Record<string, number> = {
      ArrowDown: at + 1,
      ArrowUp: at - 1,
      PageDown: at + page,
      PageUp: at - page,
      Home: 0,
      End: rows.length - 1,
    };
    const target = moves[event.key];
    if (target === undefined || rows.length === 0) return;
    event.preventDefault();
    const next = Math.min(rows.length - 1, Math.max(0, target));
    const row = rows[next];
    if (row === undefined) return;
    cursor.current = next;
    onSelect(row);
  }

  if (rows.length === 0) return <div class="list-empty">{empty ?? 'Nothing yet.'}</div>;

  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - OVERSCAN);
  const last = Math.min(rows.length, Math.ceil((scrollTop + height) / rowHeight) + OVERSCAN);
  const visible = rows.slice(first, last);

  return (
    <div
      class="vlist"
      ref={viewport}
      role="listbox"
      aria-label={label}
      aria-activedescendant={index >= 0 ? `row-${String(selected)}` : undefined}
      tabIndex={0}
      onScroll={(e) => setScrollTop((e.currentTarget as HTMLDivElement).scrollTop)}
      onKeyDown={onKeyDown}
    >
      <div class="vlist-spacer" style={{ height: `${rows.length * rowHeight}px` }}>
        {visible.map((row, i) => {
          const key = keyOf(row);
          return (
            <div
              key={key}
              id={`row-${String(key)}`}
              role="option"
              aria-selected={key === selected}
              class={key === selected ? 'vlist-row selected' : 'vlist-row'}
              style={{ top: `${(first + i) * rowHeight}px`, height: `${rowHeight}px` }}
              onClick={() => onSelect(row)}
            >
              {renderRow(row)}
            </div>
          );
        })}
      </div>
    </div>
  );
}
