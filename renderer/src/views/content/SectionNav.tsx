/**
 * The organization picker and its sections with their counts: page types with their pages,
 * Single Pages, collections with their items, the blog (posts, authors, categories, tags), the
 * media library and the webhooks.
 */
import type { ComponentChildren } from 'preact';
import type { OrganizationSummary, Page, PageType } from '../../api/types.js';
import { navigate } from '../../state/route.js';
import { placeHref, sameSection, sectionSegments, type Section } from './contentRoute.js';
import { groupPages, type CollectionSummary } from './data.js';
import { FLAT_LABELS } from './sections.js';

interface NavProps {
  orgs: OrganizationSummary[];
  org: OrganizationSummary | undefined;
  orgSlug: string;
  current: Section | null;
  pageTypes: PageType[];
  collections: CollectionSummary[];
  pages: Page[] | undefined;
}

function Item({ href, current, label, count }: { href: string; current: boolean; label: string; count: number | undefined }) {
  return (
    <li>
      <a href={href} aria-current={current ? 'page' : undefined}>
        <span class="nav-label">{label}</span>
        <span class="count">{count === undefined ? '' : count.toLocaleString()}</span>
      </a>
    </li>
  );
}

function Group({ title, children }: { title: string; children: ComponentChildren }) {
  const id = `nav-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <div class="nav-group">
      <h3 id={id}>{title}</h3>
      <ul aria-labelledby={id}>{children}</ul>
    </div>
  );
}

export function SectionNav({ orgs, org, orgSlug, current, pageTypes, collections, pages }: NavProps) {
  const groups = pages ? groupPages(pages) : null;
  const countOf = (type: string | null) => (groups ? (groups.get(type)?.length ?? 0) : undefined);
  const item = (section: Section, label: string, count: number | undefined) => (
    <Item
      key={sectionSegments(section).join('/')}
      href={placeHref(orgSlug, section)}
      current={sameSection(section, current)}
      label={label}
      count={count}
    />
  );
  const flat = (kind: keyof typeof FLAT_LABELS, count: number | undefined) => item({ kind }, FLAT_LABELS[kind], count);
  const counts = org?.counts;

  return (
    <nav class="pane content-nav" aria-label="Content sections">
      <div class="toolbar">
        <select
          class="grow"
          aria-label="Organization"
          value={orgSlug}
          onChange={(e) => navigate('content', e.currentTarget.value, ...(current ? sectionSegments(current).slice(0, 1) : []))}
        >
          {orgs.map((o) => (
            <option key={o.slug} value={o.slug}>
              {o.name}
            </option>
          ))}
        </select>
      </div>
      <div class="pane-body nav-body">
        <Group title="Pages">
          {pageTypes.map((t) => item({ kind: 'pages', pageType: t.key }, t.name, countOf(t.key)))}
          {item({ kind: 'single-pages' }, 'Single Pages', countOf(null))}
        </Group>
        {collections.length > 0 && (
          <Group title="Collections">{collections.map((c) => item({ kind: 'items', collection: c.key }, c.name, c.item_count))}</Group>
        )}
        <Group title="Blog">
          {flat('posts', counts?.posts)}
          {flat('authors', counts?.authors)}
          {flat('categories', counts?.categories)}
          {flat('tags', counts?.tags)}
        </Group>
        <Group title="Library">
          {flat('media', counts?.media)}
          {flat('webhooks', counts?.webhooks)}
        </Group>
      </div>
    </nav>
  );
}
