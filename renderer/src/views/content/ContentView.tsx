/**
 * Content: per organization, its sections (page types and their pages, Single Pages,
 * collections and items, the blog, the media library, webhooks), the records of one section,
 * and the selected record with its versions, fields, raw JSON and dashboard actions. Everything
 * is read again when content changes (contentRevision, from the live stream). The place lives
 * in the URL: #/content/<org>/<section>/<id…> (contentRoute.ts).
 */
import './content.css';
import { route } from '../../state/route.js';
import { parsePlace, sectionSegments, type Section } from './contentRoute.js';
import { useCollections, useOrganizations, usePageTypes } from './data.js';
import { DefinitionTable, localeFor } from './detail/parts.js';
import { RecordDetail } from './detail/RecordDetail.js';
import { RecordList } from './RecordList.js';
import { SectionNav } from './SectionNav.js';
import { sectionLabel } from './sections.js';

function Placeholder({
  section,
  label,
  defs,
}: {
  section: Section;
  label: string;
  defs: Parameters<typeof DefinitionTable>[0]['defs'] | null;
}) {
  const what =
    section.kind === 'pages' ? `a page of type ${label}` : section.kind === 'media' ? 'a file' : `one of the ${label.toLowerCase()}`;
  return (
    <div class="placeholder">
      <p class="muted">Select {what} to see it whole.</p>
      {defs && defs.length > 0 && (
        <>
          <h3>Fields of {label}</h3>
          <DefinitionTable defs={defs} />
        </>
      )}
    </div>
  );
}

export function ContentView() {
  const place = parsePlace(route.value.rest);
  const orgs = useOrganizations();
  const orgSlug = place.org ?? orgs.data?.[0]?.slug ?? null;
  const org = orgs.data?.find((o) => o.slug === orgSlug);
  const pageTypes = usePageTypes(orgSlug);
  const collections = useCollections(orgSlug);

  if (orgs.error) return <section class="view">{orgs.error}</section>;
  if (!orgSlug || !orgs.data) return <section class="view muted">Loading…</section>;
  if (!org)
    return (
      <section class="view" aria-label="Content">
        <p role="alert">No organization “{orgSlug}”.</p>
      </section>
    );

  const types = pageTypes.data ?? [];
  const cols = collections.data ?? [];
  const firstType = types[0];
  const section: Section | null =
    place.section ?? (pageTypes.data ? (firstType ? { kind: 'pages', pageType: firstType.key } : { kind: 'single-pages' }) : null);
  const label = section ? sectionLabel(section, types, cols) : '';
  const defs =
    section?.kind === 'pages'
      ? (types.find((t) => t.key === section.pageType)?.fields ?? null)
      : section?.kind === 'items'
        ? (cols.find((c) => c.key === section.collection)?.fields ?? null)
        : null;

  return (
    <section class="view content-view" aria-label="Content">
      <div class={section?.kind === 'media' ? 'content-layout media' : 'content-layout'}>
        <SectionNav orgs={orgs.data} org={org} orgSlug={orgSlug} current={section} pageTypes={types} collections={cols} />
        {section ? (
          <RecordList
            key={`${orgSlug}/${sectionSegments(section).join('/')}`}
            org={orgSlug}
            section={section}
            label={label}
            selected={place.id}
            locale={localeFor(org)}
          />
        ) : (
          <div class="pane" />
        )}
        <div class="pane record-detail">
          <div class="pane-body">
            {section && place.id ? (
              <RecordDetail orgSlug={orgSlug} org={org} section={section} id={place.id} pageTypes={types} collections={cols} />
            ) : section ? (
              <Placeholder section={section} label={label} defs={defs} />
            ) : null}
          </div>
        </div>
      </div>
    </section>
  );
}
