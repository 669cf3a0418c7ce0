/**
 * One stored field value, readable: text as text (HTML too: its source, never markup), media as
 * a CDN thumbnail, references as links to the record, components and repeaters as nested tables.
 * Values that do not fit their definition are shown as they are.
 */
import type { FieldDef } from '../../api/types.js';
import { placeHref } from './contentRoute.js';
import { isObject, mediaIdOf } from './media.js';
import { Thumb } from './Thumb.js';
import { FieldTable } from './FieldTable.js';
import type { Values } from './fields.js';

export interface FieldContext {
  org: string;
}

const Empty = () => <span class="muted">—</span>;

function MediaValue({ value, org }: { value: unknown; org: string }) {
  const id = mediaIdOf(value);
  const url = typeof value === 'string' ? value : isObject(value) && typeof value['url'] === 'string' ? value['url'] : null;
  const alt = isObject(value) && typeof value['alt'] === 'string' ? value['alt'] : '';
  if (!id) return url ? <span class="mono small wrap">{url}</span> : <GenericValue value={value} ctx={{ org }} />;
  return (
    <div class="media-value">
      <a href={placeHref(org, { kind: 'media' }, id)} title={`Media ${id}`}>
        <Thumb id={id} alt={alt} size={64} />
      </a>
      <div class="small">
        <div class="mono muted">{id}</div>
        {alt && <div>{alt}</div>}
      </div>
    </div>
  );
}

function ReferenceValue({ value, def, org }: { value: unknown; def: Extract<FieldDef, { type: 'reference' }>; org: string }) {
  const targets = (Array.isArray(value) ? value : [value]).filter((v) => typeof v === 'string' || typeof v === 'number');
  if (targets.length === 0)
    return value === null || value === undefined || Array.isArray(value) ? <Empty /> : <GenericValue value={value} ctx={{ org }} />;
  const to = def.to;
  return (
    <ul class="refs">
      {targets.map((target) => {
        const link =
          'page_type' in to
            ? placeHref(org, { kind: 'pages', pageType: to.page_type }, target)
            : placeHref(org, { kind: 'items', collection: to.collection }, target);
        const label = 'page_type' in to ? `${to.page_type} / ${target}` : `${to.collection} #${target}`;
        return (
          <li key={String(target)}>
            <a href={link}>{label}</a>
          </li>
        );
      })}
    </ul>
  );
}

/** A value without (or against) its definition. */
export function GenericValue({ value, ctx }: { value: unknown; ctx: FieldContext }) {
  if (value === null || value === undefined || value === '') return <Empty />;
  if (typeof value === 'boolean') return <span>{value ? 'Yes' : 'No'}</span>;
  if (typeof value === 'number') return <span class="num">{value}</span>;
  if (typeof value === 'string') return mediaIdOf(value) ? <MediaValue value={value} org={ctx.org} /> : <span class="wrap">{value}</span>;
  if (Array.isArray(value))
    return (
      <ol class="generic-list">
        {value.map((v, i) => (
          <li key={i}>
            <GenericValue value={v} ctx={ctx} />
          </li>
        ))}
      </ol>
    );
  if (isObject(value)) {
    if (mediaIdOf(value)) return <MediaValue value={value} org={ctx.org} />;
    return <FieldTable defs={[]} values={value} ctx={ctx} nested />;
  }
  return <span>{String(value)}</span>;
}

export function FieldValue({ value, def, ctx }: { value: unknown; def: FieldDef | null; ctx: FieldContext }) {
  if (def === null) return <GenericValue value={value} ctx={ctx} />;
  if (value === null || value === undefined || value === '') return <Empty />;
  switch (def.type) {
    case 'short_text':
    case 'dropdown':
    case 'date':
      return typeof value === 'string' ? <span class="wrap">{value}</span> : <GenericValue value={value} ctx={ctx} />;
    case 'long_text':
      return typeof value === 'string' ? <span class="pre-wrap">{value}</span> : <GenericValue value={value} ctx={ctx} />;
    case 'html':
      // The source of the HTML, as text: stored content never becomes markup here.
      return typeof value === 'string' ? <pre class="field-html">{value}</pre> : <GenericValue value={value} ctx={ctx} />;
    case 'number':
    case 'boolean':
      return <GenericValue value={value} ctx={ctx} />;
    case 'media':
      return <MediaValue value={value} org={ctx.org} />;
    case 'reference':
      return <ReferenceValue value={value} def={def} org={ctx.org} />;
    case 'component':
      return isObject(value) ? <FieldTable defs={def.fields} values={value} ctx={ctx} nested /> : <GenericValue value={value} ctx={ctx} />;
    case 'repeater':
      if (!Array.isArray(value)) return <GenericValue value={value} ctx={ctx} />;
      if (value.length === 0) return <span class="muted">No entries</span>;
      return (
        <ol class="repeater">
          {value.map((entry, i) => (
            <li key={i}>
              {isObject(entry) ? (
                <FieldTable defs={def.fields} values={entry as Values} ctx={ctx} nested />
              ) : (
                <GenericValue value={entry} ctx={ctx} />
              )}
            </li>
          ))}
        </ol>
      );
  }
}
