/** Pieces every record detail uses: the head, a property list, the locale picker, field definitions. */
import { signal } from '@preact/signals';
import type { ComponentChildren } from 'preact';
import type { FieldDef, OrganizationSummary } from '../../../api/types.js';
import { dateTimeOf } from '../../../components/format.js';
import { RecordBadge } from '../RecordBadge.js';
import type { RecordState } from '../status.js';

export function DetailHead({ title, state, sub }: { title: string; state?: RecordState | undefined; sub?: ComponentChildren }) {
  return (
    <header class="record-head">
      <div class="record-title">
        {state && <RecordBadge state={state.state} />}
        {state?.extra && <RecordBadge state={state.extra} />}
        <h2>{title}</h2>
      </div>
      {sub && <div class="muted small mono record-sub">{sub}</div>}
    </header>
  );
}

/** A definition list of label → value; values that are empty show a dash. */
export function Props({ rows, columns = 1 }: { rows: [string, ComponentChildren][]; columns?: 1 | 2 }) {
  return (
    <dl class={columns === 2 ? 'props small record-props two' : 'props small record-props'}>
      {rows.map(([label, value]) => [
        <dt key={`${label}-t`}>{label}</dt>,
        <dd key={`${label}-d`}>{value === null || value === undefined || value === '' ? <span class="muted">—</span> : value}</dd>,
      ])}
    </dl>
  );
}

export const when = (iso: string | null | undefined) => (iso ? dateTimeOf(iso) : null);

/** The locale the field tables show, kept while moving between records. */
const chosenLocale = signal<string | null>(null);

/** The locale to show for an organization: the chosen one if it has it, else its default. */
export function localeFor(org: OrganizationSummary | undefined): string | null {
  if (!org || org.locales.length === 0) return null;
  const chosen = chosenLocale.value;
  if (chosen && org.locales.some((l) => l.slug === chosen)) return chosen;
  return org.default_locale ?? org.locales[0]?.slug ?? null;
}

export function LocaleSelect({ org }: { org: OrganizationSummary | undefined }) {
  if (!org || org.locales.length === 0) return null;
  return (
    <label class="inline-field small">
      <span>Locale</span>
      <select value={localeFor(org) ?? ''} onChange={(e) => (chosenLocale.value = e.currentTarget.value)}>
        {org.locales.map((l) => (
          <option key={l.slug} value={l.slug}>
            {l.name} ({l.slug})
          </option>
        ))}
      </select>
    </label>
  );
}

/** Field definitions (of a page type, a Single Page or a collection), nested ones indented. */
export function DefinitionTable({ defs }: { defs: FieldDef[] }) {
  const rows: { def: FieldDef; depth: number }[] = [];
  const walk = (list: FieldDef[], depth: number) => {
    for (const def of list) {
      rows.push({ def, depth });
      if (def.type === 'component' || def.type === 'repeater') walk(def.fields, depth + 1);
    }
  };
  walk(defs, 0);
  if (rows.length === 0) return <p class="muted">No field definitions.</p>;
  return (
    <table class="grid small definitions">
      <thead>
        <tr>
          <th scope="col">Key</th>
          <th scope="col">Name</th>
          <th scope="col">Type</th>
          <th scope="col">Required</th>
        </tr>
      </thead>
      <tbody>
        {rows.map(({ def, depth }, i) => (
          <tr key={i}>
            <td class={`mono depth-${Math.min(depth, 3)}`}>{def.key}</td>
            <td>{def.name ?? ''}</td>
            <td class="mono">
              {def.type}
              {def.type === 'reference' && (
                <span class="muted">
                  {' → '}
                  {'page_type' in def.to ? `pages of ${def.to.page_type}` : `items of ${def.to.collection}`}
                  {def.multiple ? ' (many)' : ''}
                </span>
              )}
              {def.type === 'dropdown' && <span class="muted"> ({def.options.join(', ')})</span>}
            </td>
            <td>{def.required ? 'yes' : ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
