/**
 * The `data` part of webhook payloads (spec: Events). `page.*` follows the spec's table exactly
 * (`timestamp` without a zone, `updated` with fractional seconds and `Z`); the others follow the
 * real service (docs/webhooks.md). The envelope adds `webhook: {event, target}` per delivery.
 */
import type { CollectionItem, FieldDef, FieldValues, MediaRecord, Organization, Page, Post } from '../../store/schema.js';
import { authorName } from '../posts/serialize.js';
import { isPlainObject } from '../content/field-values.js';

/** ISO 8601 with fractional seconds and `Z`, whatever precision the store kept. */
const isoZ = (value: string): string => new Date(value).toISOString();

/** "When the webhook was generated, without a zone suffix". */
export const zonelessTimestamp = (now: Date): string => now.toISOString().replace(/Z$/, '');

export function ownerName(org: Organization): string {
  const owner = org.authors.find((a) => a.slug === org.owner);
  return owner ? authorName(owner) : org.name;
}

export interface PagePayload {
  id: string;
  service_id: number;
  page_type: string;
  editor: string;
  name: string;
  timestamp: string;
  locale: string | null;
  status: 'draft' | 'published' | 'scheduled' | 'deleted';
  updated: string;
  published: string | null;
  scheduled: string | null;
}

export function pagePayload(page: Page, status: PagePayload['status'], locale: string | null, org: Organization, now: Date): PagePayload {
  const latest = page.draft_version ?? page.published_version;
  return {
    id: page.slug,
    service_id: page.id,
    page_type: page.page_type ?? '*',
    editor: latest?.editor || ownerName(org),
    name: page.name,
    timestamp: zonelessTimestamp(now),
    // Spec: "null for the default locale".
    locale: locale !== null && locale !== org.default_locale ? locale : null,
    status,
    updated: isoZ(page.deleted ?? page.updated ?? latest?.saved ?? page.created),
    published: page.published === null ? null : isoZ(page.published),
    scheduled: page.scheduled,
  };
}

export function postPayload(post: Post): { id: string; _id: number } {
  return { id: post.slug, _id: post.id };
}

/** A readable name for an item: its first text value, in the default locale. */
function itemLabel(org: Organization, defs: readonly FieldDef[], content: FieldValues): string {
  const values =
    org.default_locale !== null && isPlainObject(content[org.default_locale]) ? (content[org.default_locale] as FieldValues) : content;
  for (const def of defs) {
    const value = values[def.key];
    if ((def.type === 'short_text' || def.type === 'long_text') && typeof value === 'string' && value !== '') return value;
  }
  return '';
}

export function itemPayload(org: Organization, collectionKey: string, item: CollectionItem, basePath: string, now: Date) {
  const defs = org.collections.find((c) => c.key === collectionKey)?.fields ?? [];
  return {
    id: collectionKey,
    itemid: `${basePath}/content/?keys=${collectionKey}[_id=${item.id}]`,
    label: itemLabel(org, defs, item.fields),
    editor: ownerName(org),
    timestamp: zonelessTimestamp(now),
    locale: null,
    status: item.deleted !== null ? 'deleted' : item.status,
  };
}

export function mediaPayload(record: MediaRecord, cdnUrl: string) {
  return {
    id: record.id,
    url: `${cdnUrl}/${record.id}`,
    content_type: record.content_type,
    size: record.size,
    original_url: record.original_url,
    timestamp: zonelessTimestamp(new Date(record.created)),
  };
}
