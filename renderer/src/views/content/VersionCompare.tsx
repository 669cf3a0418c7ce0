/**
 * A page's published and draft versions side by side, field by field, changed fields marked.
 * With one version only, that version alone and a word on why.
 */
import { useState } from 'preact/hooks';
import type { FieldDef, PageVersion } from '../../api/types.js';
import { dateTimeOf } from '../../components/format.js';
import { FieldTable } from './FieldTable.js';
import { FieldValue, type FieldContext } from './FieldValue.js';
import { labelOf, localized, rowsOf, sameValue } from './fields.js';

interface Props {
  defs: FieldDef[];
  published: PageVersion | null;
  draft: PageVersion | null;
  scheduled: string | null;
  locale: string | null;
  ctx: FieldContext;
}

function VersionHead({ title, version, note }: { title: string; version: PageVersion; note?: string | undefined }) {
  return (
    <div class="version-head">
      <strong>{title}</strong>
      <span class="muted small">
        saved {dateTimeOf(version.saved)}
        {version.editor ? ` by ${version.editor}` : ''}
      </span>
      {note && <span class="badge info">{note}</span>}
    </div>
  );
}

export function VersionCompare({ defs, published, draft, scheduled, locale, ctx }: Props) {
  const [changedOnly, setChangedOnly] = useState(false);
  const scheduledNote = scheduled ? `publishes ${dateTimeOf(scheduled)}` : undefined;

  if (!published && !draft) return <p class="muted">This page has no version.</p>;
  if (!published || !draft) {
    const version = (published ?? draft)!;
    return (
      <section aria-label={published ? 'Published version' : 'Draft version'} class="version-single">
        <VersionHead title={published ? 'Published version' : 'Draft version'} version={version} note={draft ? scheduledNote : undefined} />
        <p class="muted small">
          {published ? 'No draft: the published version is the latest.' : 'Not published: this draft is the only version.'}
        </p>
        <FieldTable defs={defs} values={localized(version.fields, locale)} ctx={ctx} />
      </section>
    );
  }

  const live = localized(published.fields, locale);
  const next = localized(draft.fields, locale);
  const rows = rowsOf(defs, live, next).map((row) => ({ ...row, changed: !sameValue(live[row.key], next[row.key]) }));
  const changes = rows.filter((r) => r.changed).length;
  const shown = changedOnly ? rows.filter((r) => r.changed) : rows;

  return (
    <section aria-label="Published and draft versions" class="version-compare">
      <div class="compare-bar">
        <span class="small muted">
          {changes === 0 ? 'The draft changes no field.' : `${changes} field${changes === 1 ? '' : 's'} changed in the draft.`}
        </span>
        <label class="check small">
          <input type="checkbox" checked={changedOnly} onChange={(e) => setChangedOnly(e.currentTarget.checked)} />
          Changed fields only
        </label>
      </div>
      <table class="fields compare">
        <colgroup>
          <col class="col-label" />
          <col />
          <col />
        </colgroup>
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">
              <VersionHead title="Published version" version={published} />
            </th>
            <th scope="col">
              <VersionHead title="Draft version" version={draft} note={scheduledNote} />
            </th>
          </tr>
        </thead>
        <tbody>
          {shown.map(({ key, def, changed }) => (
            <tr key={key} class={changed ? 'changed' : undefined}>
              <th scope="row">
                {labelOf(key, def)}
                {changed && <span class="changed-mark">changed</span>}
              </th>
              <td>
                <FieldValue value={live[key]} def={def} ctx={ctx} />
              </td>
              <td>
                <FieldValue value={next[key]} def={def} ctx={ctx} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
