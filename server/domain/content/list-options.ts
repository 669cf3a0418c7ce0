/**
 * `fields.<path>=value` filters and `order` of page-type and collection lists (spec: GET
 * /pages/{page_type}/ query; real-service notes: order is `published`, `updated` or a field
 * key, ascending, with a leading `-` for descending).
 */
import type { FieldDef, Organization } from '../../store/schema.js';
import { badRequest } from '../errors.js';
import { messages } from '../messages.js';

export interface FieldFilter {
  /** The query parameter as sent, for messages. */
  param: string;
  path: string[];
  value: string;
}

/** Picks `fields.*` parameters out of a query; a repeated one is refused. */
export function fieldFilters(query: Record<string, unknown>): FieldFilter[] {
  const filters: FieldFilter[] = [];
  for (const [param, value] of Object.entries(query)) {
    if (!param.startsWith('fields.')) continue;
    if (typeof value !== 'string') throw badRequest(messages.repeatedParam(param));
    const path = param.slice('fields.'.length).split('.');
    if (path.some((part) => part === '')) throw badRequest(messages.unknownFilter(param, 'this list'));
    filters.push({ param, path, value });
  }
  return filters;
}

/** Refuses a filter whose path names no field (following components and references). */
export function checkFilterPath(org: Organization, defs: readonly FieldDef[], filter: FieldFilter, owner: string): void {
  if (!pathExists(org, defs, filter.path, 0)) throw badRequest(messages.unknownFilter(filter.param, owner));
}

function pathExists(org: Organization, defs: readonly FieldDef[], path: readonly string[], depth: number): boolean {
  const [head, ...rest] = path;
  const def = defs.find((d) => d.key === head);
  if (!def || depth > 10) return false;
  switch (def.type) {
    case 'component':
    case 'repeater':
      return rest.length > 0 && pathExists(org, def.fields, rest, depth + 1);
    case 'media':
      return rest.length === 0 || (rest.length === 1 && (rest[0] === 'url' || rest[0] === 'alt'));
    case 'reference': {
      if (rest.length === 0) return true;
      if ('page_type' in def.to) {
        if (rest.length === 1 && (rest[0] === 'slug' || rest[0] === 'name')) return true;
        const target = org.page_types.find((t) => t.key === (def.to as { page_type: string }).page_type);
        return target !== undefined && pathExists(org, target.fields, rest, depth + 1);
      }
      const target = org.collections.find((c) => c.key === (def.to as { collection: string }).collection);
      return target !== undefined && pathExists(org, target.fields, rest, depth + 1);
    }
    default:
      return rest.length === 0;
  }
}

const ORDERABLE = new Set(['short_text', 'long_text', 'html', 'number', 'date', 'boolean', 'dropdown']);

export interface Order {
  key: string;
  descending: boolean;
}

export function parseOrder(order: string | undefined, defs: readonly FieldDef[], builtIn: readonly string[]): Order | null {
  if (order === undefined || order === '') return null;
  const descending = order.startsWith('-');
  const key = descending ? order.slice(1) : order;
  const fieldKeys = defs.filter((d) => ORDERABLE.has(d.type)).map((d) => d.key);
  if (!builtIn.includes(key) && !fieldKeys.includes(key)) throw badRequest(messages.orderParam([...builtIn, ...fieldKeys].join(', ')));
  return { key, descending };
}

/** Empty values sort last in both directions; numbers numerically, text by locale rules. */
export function compareForOrder(a: unknown, b: unknown, descending: boolean): number {
  const emptyA = a === null || a === undefined || a === '';
  const emptyB = b === null || b === undefined || b === '';
  if (emptyA || emptyB) return emptyA === emptyB ? 0 : emptyA ? 1 : -1;
  let result: number;
  if (typeof a === 'number' && typeof b === 'number') result = a - b;
  else if (typeof a === 'boolean' && typeof b === 'boolean') result = Number(a) - Number(b);
  else result = String(a).localeCompare(String(b));
  return descending ? -result : result;
}
