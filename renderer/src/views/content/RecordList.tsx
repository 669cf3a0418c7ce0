/**
 * The records of one section: a search box, paging through the server (so 10,000 posts never
 * travel at once) and a virtualized list, or the media grid. Pages come grouped from the page
 * read of the whole organization (data.ts) and are filtered here.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { Author, CollectionItem, MediaRecord, Page, Post, Term, Webhook } from '../../api/types.js';
import { VirtualList } from '../../components/VirtualList.js';
import { navigate } from '../../state/route.js';
import { sectionSegments, type Section } from './contentRoute.js';
import { pageMatches, relevantTo, sectionPath } from './data.js';
import { MediaGrid } from './MediaGrid.js';
import { AuthorRow, ItemRow, PageRow, PostRow, TermRow, WebhookRow } from './rows.js';
import { keyOfRecord, serverPath } from './sections.js';
import { readPage, useControlData, type Loaded } from './useControlData.js';

/** Records per server page: a screenful many times over, a small answer. */
export const PAGE_SIZE = 200;
const ROW_HEIGHT = 46;

interface ListProps {
  org: string;
  section: Section;
  label: string;
  selected: string | null;
  pages: Loaded<Page[]>;
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

export function RecordList({ org, section, label, selected, pages, locale }: ListProps) {
  const [text, setText] = useState('');
  const q = useDebounced(text, 250);
  // The page offset belongs to one search: a new search starts at the first page.
  const [paging, setPaging] = useState({ q, offset: 0 });
  const offset = paging.q === q ? paging.offset : 0;
  const setOffset = (next: number) => setPaging({ q, offset: next });

  const path = serverPath(section);
  const remote = useControlData<{ data: unknown[]; total: number }>(
    path && sectionPath(org, path),
    { q: q || undefined, limit: PAGE_SIZE, offset },
    { keep: true, read: readPage, relevant: relevantTo(org, section.kind) },
  );

  const grouped = useMemo(() => {
    if (path !== null || !pages.data) return null;
    const type = section.kind === 'pages' ? section.pageType : null;
    return pages.data.filter((p) => p.page_type === type && pageMatches(p, q));
  }, [path, pages.data, section, q]);

  const rows: unknown[] = grouped ?? remote.data?.data ?? [];
  const total = grouped ? grouped.length : (remote.data?.total ?? 0);
  const loading = path === null ? pages.loading && !pages.data : remote.loading && !remote.data;
  const error = path === null ? pages.error : remote.error;

  // A delete can leave the page past the end: step back to the last page.
  useEffect(() => {
    if (remote.data && offset > 0 && offset >= remote.data.total)
      setOffset(Math.max(0, Math.floor((remote.data.total - 1) / PAGE_SIZE) * PAGE_SIZE));
  }, [remote.data, offset]);

  const first = total === 0 ? 0 : grouped ? 1 : offset + 1;
  const last = grouped ? total : offset + rows.length;
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
