/** Background completion of accepted page and collection writes (spec: States and transitions). */
import { isoNow } from '../clock.js';
import type { EmulatorContext } from '../context.js';
import { applyItemCreate, applyItemUpdate } from '../domain/collections/apply.js';
import { cleanUpReferences } from '../domain/content/references.js';
import { applyPageCreate, applyPagePatch, pageDefs } from '../domain/pages/apply.js';
import { authorName } from '../domain/posts/serialize.js';
import type { Organization } from '../store/schema.js';
import type { Touch } from '../store/store.js';
import { enqueueMediaImports } from './media-jobs.js';
import { organizationOf } from './organization.js';

/** API writes are made with the organization's write token: its owner is the editor. */
function editorOf(org: Organization): string {
  const owner = org.authors.find((a) => a.slug === org.owner);
  return owner ? authorName(owner) : org.name;
}

/** What an item create or update touches (Store.mutate): that item of its collection. */
function itemTouches(org: Organization, collectionKey: string, itemId: number): Touch[] {
  const collection = org.collections.find((c) => c.key === collectionKey);
  return collection ? [{ array: collection.items, items: collection.items.filter((i) => i.id === itemId) }] : [];
}

export function registerContentJobs(ctx: EmulatorContext): void {
  const { jobs, store, bus, clock } = ctx;

  jobs.register('page.create', ({ organization, input, locale }, job) => {
    const org = organizationOf(ctx, organization);
    const page = store.mutate(
      () => applyPageCreate(org, input, isoNow(clock), editorOf(org)),
      (created) => [{ array: org.pages, items: [created] }],
    );
    bus.emit({ type: 'page.created', organization, page: structuredClone(page), locale, cause: job.cause });
    enqueueMediaImports(ctx, organization, pageDefs(org, page), input.changes, { kind: 'page', pageId: page.id }, job.cause);
  });

  jobs.register('page.update', ({ organization, pageId, input, locale }, job) => {
    const org = organizationOf(ctx, organization);
    const { before, after } = store.mutate(
      () => applyPagePatch(org, pageId, input, isoNow(clock), editorOf(org)),
      () => [{ array: org.pages, items: org.pages.filter((p) => p.id === pageId && p.deleted === null) }],
    );
    bus.emit({ type: 'page.updated', organization, page: after, before, locale, cause: job.cause });
    enqueueMediaImports(ctx, organization, pageDefs(org, after), input.changes, { kind: 'page', pageId }, job.cause);
  });

  jobs.register('item.create', ({ organization, collection, itemId, input }, job) => {
    const org = organizationOf(ctx, organization);
    const { item, changes } = store.mutate(
      () => applyItemCreate(org, collection, itemId, input, isoNow(clock)),
      (created) => itemTouches(org, collection, created.item.id),
    );
    bus.emit({ type: 'item.created', organization, collection, item: structuredClone(item), cause: job.cause });
    const defs = org.collections.find((c) => c.key === collection)?.fields ?? [];
    enqueueMediaImports(ctx, organization, defs, changes, { kind: 'item', collection, itemId: item.id }, job.cause);
  });

  jobs.register('item.update', ({ organization, collection, itemId, input, replace }, job) => {
    const org = organizationOf(ctx, organization);
    const { before, after, changes } = store.mutate(
      () => applyItemUpdate(org, collection, itemId, input, replace, isoNow(clock)),
      () => itemTouches(org, collection, itemId),
    );
    bus.emit({ type: 'item.updated', organization, collection, item: after, before, cause: job.cause });
    const defs = org.collections.find((c) => c.key === collection)?.fields ?? [];
    enqueueMediaImports(ctx, organization, defs, changes, { kind: 'item', collection, itemId }, job.cause);
  });

  jobs.register('references.cleanup', ({ organization, target }) => {
    const org = organizationOf(ctx, organization);
    store.mutate(() => cleanUpReferences(org, target));
  });
}
