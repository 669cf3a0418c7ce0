/**
 * What page jobs do once a write was accepted (spec: States and transitions, page rows).
 * Version model (docs/data-file.md): `published_version` is live; `draft_version` is newer and
 * unpublished, scheduled when `scheduled` is set.
 *   status published → the latest content plus the changes goes live; any draft or schedule ends.
 *   status draft     → the page is unpublished: the content becomes a draft and nothing is live.
 *   no status        → the changes go to the latest version, which keeps its state (a live page
 *                      stays live, a draft stays a draft, a schedule is untouched).
 */
import type { FieldDef, Organization, Page, PageVersion } from '../../store/schema.js';
import { applyChanges } from '../content/merge.js';
import { indexedPage, type ContentIndex } from '../content/read-index.js';
import { WriteFailure } from '../errors.js';
import { messages } from '../messages.js';
import type { PageCreateInput, PagePatchInput } from './input.js';

export function pageDefs(org: Organization, page: Pick<Page, 'page_type' | 'definition'>): readonly FieldDef[] {
  if (page.page_type === null) return page.definition ?? [];
  return org.page_types.find((t) => t.key === page.page_type)?.fields ?? [];
}

/** A live page by slug, of `pageType` or (`*`) of any type, from the read index of the store's revision. */
export function findLivePage(index: ContentIndex, slug: string, pageType: string | '*'): Page | undefined {
  return indexedPage(index, pageType, slug);
}

export function applyPageCreate(org: Organization, input: PageCreateInput, now: string, editor: string): Page {
  if (org.pages.some((p) => p.slug === input.slug && p.deleted === null)) throw new WriteFailure(messages.jobPageSlugTaken(input.slug));
  const defs = org.page_types.find((t) => t.key === input.pageType)?.fields ?? [];
  const version: PageVersion = { fields: applyChanges(org, defs, {}, input.changes), saved: now, editor };
  const live = input.status === 'published';
  const page: Page = {
    id: org.pages.reduce((max, p) => Math.max(max, p.id), 0) + 1,
    slug: input.slug,
    name: input.title,
    page_type: input.pageType,
    created: now,
    published: live ? now : null,
    updated: live ? now : null,
    scheduled: null,
    published_version: live ? version : null,
    draft_version: live ? null : version,
    deleted: null,
  };
  org.pages.push(page);
  return page;
}

export function applyPagePatch(
  org: Organization,
  pageId: number,
  input: PagePatchInput,
  now: string,
  editor: string,
): { before: Page; after: Page } {
  const page = org.pages.find((p) => p.id === pageId && p.deleted === null);
  if (!page) throw new WriteFailure(messages.jobPageGone);
  const before = structuredClone(page);
  const latest = page.draft_version ?? page.published_version;
  const fields = applyChanges(org, pageDefs(org, page), latest?.fields ?? {}, input.changes);
  const version: PageVersion = { fields, saved: now, editor };

  if (input.status === 'published') {
    page.published_version = version;
    page.draft_version = null;
    page.scheduled = null;
    page.published ??= now;
    page.updated = now;
  } else if (input.status === 'draft') {
    page.published_version = null;
    page.draft_version = version;
    page.scheduled = null;
    page.published = null;
  } else if (page.draft_version) {
    page.draft_version = version;
  } else {
    page.published_version = version;
    page.updated = now;
  }
  return { before, after: structuredClone(page) };
}

/** Overall state of a page, as webhooks and the emulator's views name it. */
export function pageState(page: Page): 'draft' | 'published' | 'scheduled' | 'deleted' {
  if (page.deleted !== null) return 'deleted';
  if (page.scheduled !== null) return 'scheduled';
  return page.published_version ? 'published' : 'draft';
}
