/**
 * The records of one section: a search box, paging through the server (so 10,000 posts never
 * travel at once; pages are narrowed to a page type or the Single Pages by the server too) and a
 * virtualized list, or the media grid. Posts and pages come newest first, as the server lists them.
 */
import { useEffect, useState } from 'preact/hooks';
import type { Author, CollectionItem, MediaRecord, Page, Post, Term, Webhook } from '../../api/types.js';
import { VirtualList } from '../../components/VirtualList.js';
import { navigate } from '../../state/route.js';
import { sectionSegments, type Section } from './contentRoute.js';
import { listSource, relevantTo } from './data.js';
import { MediaGrid } from './MediaGrid.js';
import { AuthorRow, ItemRow, PageRow, PostRow, TermRow, WebhookRow } from './rows.js';
import { keyOfRecord } from './sections.js';
import { readPage, useControlData } from './useControlData.js';

/** Records per server page: a screenful many times over, a small answer. */
export const PAGE_SIZE = 200;
const ROW_HEIGHT = 46;

interface ListProps {
  org: string;
  section: Section;
  label: string;
  selected: string | null;
  locale: string | null;
}

function useDebounced(value: string, ms: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

function Row({ section, record, locale }: { section: Section; record: unknown; locale: string | null }) {
  switch (section.kind) {
    case 'pages':
    case 'single-pages':
      return <PageRow page={record as Page} />;
    case 'items':
      return <ItemRow item={record as CollectionItem} locale={locale} />;
    case 'posts':
      return <PostRow post={record as Post} />;
    case 'authors':
      return <AuthorRow author={record as Author} />;
    case 'categories':
    case 'tags':
      return <TermRow term={record as Term} />;
    case 'webhooks':
      return <WebhookRow webhook={record as Webhook} />;
    case 'media':
      return null;
  }
}

function Pager({ offset, total, shown, onOffset }: { offset: number; total: number; shown: number; onOffset: (o: number) => void }) {
  if (total <= PAGE_SIZE) return null;
  return (
    <span class="pager" role="group" aria-label="Pages of results">
      <button
        type="button"
        class="small"
        aria-label="Previous page"
        disabled={offset === 0}
        onClick={() => onOffset(Math.max(0, offset - PAGE_SIZE))}
      >
        ‹
      </button>
      <button
        type="button"
        class="small"
        aria-label="Next page"
        disabled={offset + shown >= total}
        onClick={() => onOffset(offset + PAGE_SIZE)}
      >
        ›
      </button>
    </span>
  );
}

export function RecordList({ org, section, label, selected, locale }: ListProps) {
  const [text, setText] = useState('');
  const q = useDebounced(text, 250);
  // The page offset belongs to one search: a new search starts at the first page.
  const [paging, setPaging] = useState({ q, offset: 0 });
  const offset = paging.q === q ? paging.offset : 0;
  const setOffset = (next: number) => setPaging({ q, offset: next });

  const { path, filter } = listSource(org, section);
  const list = useControlData<{ data: unknown[]; total: number }>(
    path,
    { ...filter, q: q || undefined, limit: PAGE_SIZE, offset },
    { keep: true, read: readPage, relevant: relevantTo(org, section.kind) },
  );

  const rows: unknown[] = list.data?.data ?? [];
  const total = list.data?.total ?? 0;
  const loading = list.loading && !list.data;
  const error = list.error;

  // A delete can leave the page past the end: step back to the last page.
  useEffect(() => {
    if (list.data && offset > 0 && offset >= list.data.total)
      setOffset(Math.max(0, Math.floor((list.data.total - 1) / PAGE_SIZE) * PAGE_SIZE));
  }, [list.data, offset]);

  const first = total === 0 ? 0 : offset + 1;
  const last = offset + rows.length;
  const select = (record: unknown) => navigate('content', org, ...sectionSegments(section), keyOfRecord(section, record));

  return (
    <div class="pane record-list">
      <div class="toolbar" role="search">
        <input
          type="search"
          class="grow"
          aria-label={`Search ${label}`}
          placeholder={`Search ${label.toLowerCase()}…`}
          value={text}
          onInput={(e) => setText(e.currentTarget.value)}
        />
      </div>
      {error && (
        <p class="list-error" role="alert">
          {error}
        </p>
      )}
      {section.kind === 'media' ? (
        <div class="pane-body">
          <MediaGrid org={org} media={rows as MediaRecord[]} selected={selected} />
        </div>
      ) : (
        <VirtualList
          key={offset}
          rows={rows}
          rowHeight={ROW_HEIGHT}
          keyOf={(r) => keyOfRecord(section, r)}
          selected={selected}
          onSelect={select}
          renderRow={(r) => <Row section={section} record={r} locale={locale} />}
          label={label}
          empty={loading ? 'Loading…' : q ? `Nothing matches “${q}”.` : `No ${label.toLowerCase()} yet.`}
        />
      )}
      <div class="list-foot">
        <span class="muted small nowrap" data-testid="record-count" aria-live="polite">
          {loading ? 'Loading…' : total === 0 ? '0' : `${first}–${last} of ${total.toLocaleString()}`}
        </span>
        <Pager offset={offset} total={total} shown={rows.length} onOffset={setOffset} />
      </div>
    </div>
  );
}
