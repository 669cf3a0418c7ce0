/**
 * Reads of structured content (spec: GET /pages/{page_type}/ and the collection reads of
 * docs/spec-gaps.md): which version a read sees, how values are shown (media as URL or
 * `{url, alt}`, references expanded up to `levels`, degrading to their URI when depth runs out),
 * and the `fields.*` filters that follow components and references.
 */
import type { Collection, CollectionItem, FieldDef, FieldValues, Organization, Page, PageStatus, PageVersion } from '../../store/schema.js';
import { isPlainObject } from './field-values.js';
import { liveMediaUrl } from '../media/library.js';
import { valuesIn } from './locales.js';
import { indexedPage, itemIndex, type ContentIndex } from './read-index.js';

export interface ReadOptions {
  /** `preview=1`: the latest version of pages, and draft items. */
  preview: boolean;
  /** Locale of the read; null without locales. */
  locale: string | null;
  /** `alt_media_text=1`: media as `{url, alt}`. */
  altMediaText: boolean;
  /** How deep references are expanded (1 to 5; 1 means URIs only). */
  levels: number;
  /** Base path of the API (`/v2`), for reference URIs. */
  basePath: string;
  /** Base URL of the CDN, for media of the library (`media:<id>`). */
  cdnUrl: string;
}

export interface PageRecord {
  slug: string;
  name?: string;
  published: string | null;
  updated: string | null;
  page_type: string | null;
  fields: Record<string, unknown>;
  scheduled: string | null;
  status: PageStatus;
}

export type ItemRecord = { meta: { id: number } } & Record<string, unknown>;

export class ContentReader {
  constructor(
    readonly org: Organization,
    readonly options: ReadOptions,
    /** The organization's index for the store's current revision (read-index.ts). */
    readonly index: ContentIndex,
  ) {}

  pageDefs(page: Page): readonly FieldDef[] {
    if (page.page_type === null) return page.definition ?? [];
    return this.org.page_types.find((t) => t.key === page.page_type)?.fields ?? [];
  }

  /** The version this read sees, with the status it shows; null if the page is not visible. */
  visibleVersion(page: Page): { version: PageVersion; status: PageStatus } | null {
    if (page.deleted !== null) return null;
    if (this.options.preview && page.draft_version) {
      return { version: page.draft_version, status: page.scheduled ? 'scheduled' : 'draft' };
    }
    return page.published_version ? { version: page.published_version, status: 'published' } : null;
  }

  /** Raw values of the visible version in the read's locale. */
  pageValues(page: Page): FieldValues | null {
    const visible = this.visibleVersion(page);
    return visible ? valuesIn(this.org, visible.version.fields, this.options.locale) : null;
  }

  pageRecord(page: Page, depth = 1, options: { omitName?: boolean } = {}): PageRecord | null {
    const visible = this.visibleVersion(page);
    if (!visible) return null;
    const values = valuesIn(this.org, visible.version.fields, this.options.locale);
    const record: PageRecord = {
      slug: page.slug,
      name: page.name,
      published: page.published,
      updated: page.updated,
      page_type: page.page_type,
      fields: this.renderValues(this.pageDefs(page), values, depth),
      // The schedule belongs to the draft: only a read that sees the draft sees it.
      scheduled: visible.version === page.draft_version ? page.scheduled : null,
      status: visible.status,
    };
    // Spec: `name` is absent in Single Page listings.
    if (options.omitName) delete record.name;
    return record;
  }

  itemVisible(item: CollectionItem): boolean {
    return item.deleted === null && (this.options.preview || item.status === 'published');
  }

  itemValues(item: CollectionItem): FieldValues {
    return valuesIn(this.org, item.fields, this.options.locale);
  }

  /** An item as reads show it: its fields beside `meta` (the real service's shape). */
  itemRecord(collection: Collection, item: CollectionItem, depth = 1): ItemRecord {
    return { meta: { id: item.id }, ...this.renderValues(collection.fields, this.itemValues(item), depth) };
  }

  renderValues(defs: readonly FieldDef[], values: FieldValues, depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const def of defs) out[def.key] = this.renderValue(def, values[def.key], depth);
    return out;
  }

  private renderValue(def: FieldDef, value: unknown, depth: number): unknown {
    switch (def.type) {
      case 'media': {
        if (!isPlainObject(value) || typeof value['url'] !== 'string') return this.options.altMediaText ? null : '';
        const url = liveMediaUrl(value['url'], this.options.cdnUrl);
        if (!this.options.altMediaText) return url;
        const alt = value['alt'];
        return typeof alt === 'string' && alt !== '' ? { url, alt } : { url };
      }
      case 'reference': {
        const targets = def.multiple ? (Array.isArray(value) ? value : []) : value === null || value === undefined ? [] : [value];
        const shown = targets.map((t) => this.renderReference(def.to, t, depth)).filter((t) => t !== null);
        return def.multiple ? shown : (shown[0] ?? null);
      }
      case 'component':
        return isPlainObject(value) ? this.renderValues(def.fields, value, depth) : null;
      case 'repeater':
        return Array.isArray(value) ? value.filter(isPlainObject).map((entry) => this.renderValues(def.fields, entry, depth)) : [];
      case 'short_text':
      case 'long_text':
      case 'html':
      case 'dropdown':
        return typeof value === 'string' ? value : '';
      default:
        return value ?? null;
    }
  }

  /**
   * At the last level a reference is its URI; before that, the referenced record. Either way a
   * reference to what this read may not see (a draft without preview, a deleted item) is left out.
   */
  private renderReference(to: { page_type: string } | { collection: string }, target: unknown, depth: number): unknown {
    const base = this.options.basePath;
    if ('page_type' in to) {
      const slug = String(target);
      const page = this.findPage(to.page_type, slug);
      if (!page || !this.visibleVersion(page)) return null;
      if (depth >= this.options.levels) return `${base}/pages/${to.page_type}/${encodeURIComponent(slug)}/`;
      return this.pageRecord(page, depth + 1);
    }
    const id = Number(target);
    const found = this.findItem(to.collection, id);
    if (!found || !this.itemVisible(found.item)) return null;
    if (depth >= this.options.levels) return `${base}/content/?keys=${to.collection}[_id=${id}]`;
    return this.itemRecord(found.collection, found.item, depth + 1);
  }

  /** A live page of a page type by slug. */
  findPage(pageType: string, slug: string): Page | undefined {
    return indexedPage(this.index, pageType, slug);
  }

  /** A live item of a collection by id. */
  findItem(collectionKey: string, id: number): { collection: Collection; item: CollectionItem } | undefined {
    const collection = this.org.collections.find((c) => c.key === collectionKey);
    const item = collection && itemIndex(this.index, collection).byId.get(id);
    return collection && item ? { collection, item } : undefined;
  }

  /** True when the value at `path` (dot notation through components and references) equals `expected`. */
  matches(defs: readonly FieldDef[], values: FieldValues, path: readonly string[], expected: string): boolean {
    const [head, ...rest] = path;
    const def = defs.find((d) => d.key === head);
    if (!def) return false;
    const value = values[def.key];
    switch (def.type) {
      case 'component':
        return isPlainObject(value) && this.matches(def.fields, value, rest, expected);
      case 'repeater':
        return Array.isArray(value) && value.some((entry) => isPlainObject(entry) && this.matches(def.fields, entry, rest, expected));
      case 'media': {
        if (!isPlainObject(value)) return expected === '';
        if (rest[0] === 'alt') return String(value['alt'] ?? '') === expected;
        // Compare with the URL reads show (a library file's CDN URL), and with the one stored.
        const stored = String(value['url'] ?? '');
        return stored === expected || liveMediaUrl(stored, this.options.cdnUrl) === expected;
      }
      case 'reference': {
        const targets = def.multiple ? (Array.isArray(value) ? value : []) : value === null || value === undefined ? [] : [value];
        if (rest.length === 0) return targets.some((t) => String(t) === expected);
        return targets.some((t) => this.matchesReferenced(def.to, t, rest, expected));
      }
      default:
        return rest.length === 0 && scalarEquals(value, expected);
    }
  }

  private matchesReferenced(
    to: { page_type: string } | { collection: string },
    target: unknown,
    path: readonly string[],
    expected: string,
  ): boolean {
    if ('page_type' in to) {
      const page = this.findPage(to.page_type, String(target));
      if (!page) return false;
      if (path.length === 1 && (path[0] === 'slug' || path[0] === 'name')) return page[path[0]] === expected;
      const values = this.pageValues(page);
      return values !== null && this.matches(this.pageDefs(page), values, path, expected);
    }
    const found = this.findItem(to.collection, Number(target));
    if (!found || !this.itemVisible(found.item)) return false;
    return this.matches(found.collection.fields, this.itemValues(found.item), path, expected);
  }
}

function scalarEquals(value: unknown, expected: string): boolean {
  if (typeof value === 'boolean') return (value ? ['true', '1'] : ['false', '0']).includes(expected.toLowerCase());
  if (typeof value === 'number') return expected.trim() !== '' && Number(expected) === value;
  if (value === null || value === undefined) return expected === '';
  return String(value) === expected;
}
