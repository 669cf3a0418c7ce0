/**
 * What a hand edit of the data file changed, as domain events (issue 7: an edit "fires no
 * webhooks … unless the user asks for it through the control API"). Posts, pages and collection
 * items are matched by id between the state before and after the edit.
 */
import type { StoreData } from '../store/schema.js';
import type { Cause, DomainEvent } from './events.js';

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

export function editEvents(before: StoreData, after: StoreData, cause: Cause): DomainEvent[] {
  const events: DomainEvent[] = [];
  for (const org of after.organizations) {
    const old = before.organizations.find((o) => o.slug === org.slug);
    const oldPosts = new Map((old?.posts ?? []).map((p) => [p.id, p]));
    for (const post of org.posts) {
      const was = oldPosts.get(post.id);
      if (!was) events.push({ type: 'post.created', organization: org.slug, post, cause });
      else if (post.deleted !== null && was.deleted === null) events.push({ type: 'post.deleted', organization: org.slug, post, cause });
      else if (!same(was, post)) events.push({ type: 'post.updated', organization: org.slug, post, before: was, cause });
    }
    const oldPages = new Map((old?.pages ?? []).map((p) => [p.id, p]));
    for (const page of org.pages) {
      const was = oldPages.get(page.id);
      if (!was) events.push({ type: 'page.created', organization: org.slug, page, locale: null, cause });
      else if (!same(was, page)) events.push({ type: 'page.updated', organization: org.slug, page, before: was, locale: null, cause });
    }
    for (const collection of org.collections) {
      const oldItems = new Map((old?.collections.find((c) => c.key === collection.key)?.items ?? []).map((i) => [i.id, i]));
      for (const item of collection.items) {
        const was = oldItems.get(item.id);
        const base = { organization: org.slug, collection: collection.key, item, cause };
        if (!was) events.push({ type: 'item.created', ...base });
        else if (item.deleted !== null && was.deleted === null) events.push({ type: 'item.deleted', ...base });
        else if (!same(was, item)) events.push({ type: 'item.updated', ...base, before: was });
      }
    }
  }
  return events;
}
