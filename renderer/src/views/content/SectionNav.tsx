/**
 * The organization picker and its sections with their counts: page types with their pages,
 * Single Pages, collections with their items, the blog (posts, authors, categories, tags), the
 * media library and the webhooks. The counts are the organization's summary (live records only,
 * read again on every content change); a collection's is its item_count.
 */
import type { ComponentChildren } from 'preact';
import type { OrganizationSummary, PageType } from '../../api/types.js';
import { navigate } from '../../state/route.js';
import { placeHref, sameSection, sectionSegments, type Section } from './contentRoute.js';
import type { CollectionSummary } from './data.js';
import { FLAT_LABELS } from './sections.js';

interface NavProps {
  orgs: OrganizationSummary[];
  org: OrganizationSummary | undefined;
  orgSlug: string;
  current: Section | null;
  pageTypes: PageType[];
  collections: CollectionSummary[];
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

export function SectionNav({ orgs, org, orgSlug, current, pageTypes, collections }: NavProps) {
  const counts = org?.counts;
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
          {pageTypes.map((t) => item({ kind: 'pages', pageType: t.key }, t.name, counts && (counts.pages_by_type[t.key] ?? 0)))}
          {item({ kind: 'single-pages' }, 'Single Pages', counts?.single_pages)}
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
