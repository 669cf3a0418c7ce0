/** A page: its state and dates, the dashboard actions, its published and draft versions side by side. */
import type { FieldDef, OrganizationSummary, Page } from '../../../api/types.js';
import { Json } from '../../../components/Code.js';
import { Tabs } from '../../../components/Tabs.js';
import { Actions } from '../Actions.js';
import { actionPath, placeHref } from '../contentRoute.js';
import { pageState } from '../status.js';
import { VersionCompare } from '../VersionCompare.js';
import { DefinitionTable, DetailHead, LocaleSelect, localeFor, Props, when } from './parts.js';

interface PageDetailProps {
  page: Page;
  org: OrganizationSummary | undefined;
  orgSlug: string;
  defs: FieldDef[];
  onDeleted: () => void;
}

function describe(page: Page): string {
  const s = pageState(page);
  if (page.scheduled) return `the latest version publishes ${when(page.scheduled)}`;
  return s.extra === 'changes' ? 'published, with a newer draft' : s.state;
}

export function PageDetail({ page, org, orgSlug, defs, onDeleted }: PageDetailProps) {
  const locale = localeFor(org);
  const typeLink =
    page.page_type === null ? (
      <a href={placeHref(orgSlug, { kind: 'single-pages' })}>Single Page</a>
    ) : (
      <a href={placeHref(orgSlug, { kind: 'pages', pageType: page.page_type })}>{page.page_type}</a>
    );
  return (
    <article data-testid="page-detail" aria-label={`Page ${page.name}`}>
      <DetailHead title={page.name} state={pageState(page)} sub={`/${page.slug}`} />
      <Props
        columns={2}
        rows={[
          ['ID', page.id],
          ['Page type', typeLink],
          ['Created', when(page.created)],
          ['First published', when(page.published)],
          ['Updated', when(page.updated)],
          ['Scheduled', when(page.scheduled)],
        ]}
      />
      <Actions<Page>
        path={actionPath(orgSlug, { kind: 'single-pages' }, page.slug)!}
        actions={['publish', 'unpublish', 'schedule', 'delete']}
        name={page.slug}
        describe={describe}
        onDone={(action) => action === 'delete' && onDeleted()}
      />
      <Tabs
        label="Page"
        tabs={[
          {
            id: 'versions',
            label: 'Versions',
            render: () => (
              <>
                <LocaleSelect org={org} />
                <VersionCompare
                  defs={defs}
                  published={page.published_version}
                  draft={page.draft_version}
                  scheduled={page.scheduled}
                  locale={locale}
                  ctx={{ org: orgSlug }}
                />
              </>
            ),
          },
          { id: 'definition', label: 'Definition', render: () => <DefinitionTable defs={defs} /> },
          { id: 'raw', label: 'Raw JSON', render: () => <Json value={page} /> },
        ]}
      />
    </article>
  );
}
