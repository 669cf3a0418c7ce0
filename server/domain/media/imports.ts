/**
 * What a finished download changes (spec: media "downloads … and stores it in the media
 * library"): every use of the downloaded URL in the written record now points at the library
 * (`media:<id>`), keeping its alt text. Pure: operates on an organization passed in.
 */
import type { FieldDef, FieldValues, Organization } from '../../store/schema.js';
import { isPlainObject } from '../content/field-values.js';
import { pageDefs } from '../pages/apply.js';
import { mediaRef, replaceBodyImage } from './library.js';

/** Where a downloaded file is used: the record a write touched. */
export type MediaTarget =
  | { kind: 'post-featured-image'; postId: number }
  | { kind: 'post-body'; postId: number }
  | { kind: 'page'; pageId: number }
  | { kind: 'item'; collection: string; itemId: number };

/** Media values equal to `url` become library references; true when one did. */
function replaceInValues(defs: readonly FieldDef[], values: FieldValues, url: string, id: string): boolean {
  let changed = false;
  for (const def of defs) {
    const value = values[def.key];
    if (def.type === 'media' && isPlainObject(value) && value['url'] === url) {
      values[def.key] = { ...value, url: mediaRef(id) };
      changed = true;
    } else if (def.type === 'component' && isPlainObject(value)) {
      changed = replaceInValues(def.fields, value, url, id) || changed;
    } else if (def.type === 'repeater' && Array.isArray(value)) {
      for (const entry of value) if (isPlainObject(entry)) changed = replaceInValues(def.fields, entry, url, id) || changed;
    }
  }
  return changed;
}

function replaceInContent(org: Organization, defs: readonly FieldDef[], content: FieldValues, url: string, id: string): boolean {
  if (org.locales.length === 0) return replaceInValues(defs, content, url, id);
  let changed = false;
  for (const values of Object.values(content)) if (isPlainObject(values)) changed = replaceInValues(defs, values, url, id) || changed;
  return changed;
}

/** Points the target's uses of `url` at library file `id`; false when the target is gone. */
export function useLibraryFile(org: Organization, target: MediaTarget, url: string, id: string): boolean {
  switch (target.kind) {
    case 'post-featured-image':
    case 'post-body': {
      const post = org.posts.find((p) => p.id === target.postId && p.deleted === null);
      if (!post) return false;
      if (target.kind === 'post-featured-image' && post.featured_image === url) post.featured_image = mediaRef(id);
      if (target.kind === 'post-body') post.body = replaceBodyImage(post.body, url, id);
      return true;
    }
    case 'page': {
      const page = org.pages.find((p) => p.id === target.pageId && p.deleted === null);
      if (!page) return false;
      const defs = pageDefs(org, page);
      for (const version of [page.published_version, page.draft_version]) if (version) replaceInContent(org, defs, version.fields, url, id);
      return true;
    }
    case 'item': {
      const collection = org.collections.find((c) => c.key === target.collection);
      const item = collection?.items.find((i) => i.id === target.itemId && i.deleted === null);
      if (!collection || !item) return false;
      replaceInContent(org, collection.fields, item.fields, url, id);
      return true;
    }
  }
}
