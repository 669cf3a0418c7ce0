/**
 * Which webhook kinds a change fires (docs/webhooks.md, "Which change fires which kinds"), on
 * hand-built records: one case per row of the posts, pages and collection items tables, plus the
 * edges the tables imply (deletes, schedules, a draft above the live version).
 */
import { describe, expect, it } from 'vitest';
import { itemKinds, pageKinds, pageWebhookStatus, postKinds } from '../../server/domain/webhooks/kinds.js';
import {
  WEBHOOK_EVENTS,
  type CollectionItem,
  type Page,
  type PageVersion,
  type Post,
  type WebhookEvent,
} from '../../server/store/schema.js';

const T0 = '2026-01-01T10:00:00.000Z';
const T1 = '2026-01-02T10:00:00.000Z';
const T2 = '2026-01-03T10:00:00.000Z';
const FUTURE = '2030-01-01T09:00:00.000Z';

const sorted = (kinds: readonly WebhookEvent[]): WebhookEvent[] => [...kinds].sort();

// ---------------------------------------------------------------------------------------------
// Builders

function post(status: Post['status'], extra: Partial<Post> = {}): Post {
  return {
    id: 7,
    slug: 'a-post',
    title: 'A post',
    status,
    author: 'maya',
    categories: [],
    tags: [],
    featured_image: null,
    featured_image_alt: '',
    body: '',
    summary: '',
    seo_title: '',
    meta_description: '',
    created: T0,
    updated: T0,
    published: status === 'published' ? T0 : null,
    scheduled: status === 'scheduled' ? FUTURE : null,
    deleted: null,
    ...extra,
  };
}

const version = (saved: string, title = 'Title'): PageVersion => ({ fields: { en: { title } }, saved, editor: 'Maya Okafor' });

/** `live`: saved time of the published version; `draft`: of the draft version; null = none. */
function page(live: string | null, draft: string | null, extra: Partial<Page> = {}): Page {
  return {
    id: 3,
    slug: 'a-page',
    name: 'A page',
    page_type: 'guide',
    created: T0,
    published: live,
    updated: live,
    scheduled: null,
    published_version: live === null ? null : version(live),
    draft_version: draft === null ? null : version(draft, 'Draft title'),
    deleted: null,
    ...extra,
  };
}

function item(status: CollectionItem['status'], extra: Partial<CollectionItem> = {}): CollectionItem {
  return { id: 11, status, fields: { en: { name: 'Item' } }, created: T0, updated: T0, deleted: null, ...extra };
}

// ---------------------------------------------------------------------------------------------
// Posts

describe('postKinds (docs/webhooks.md, Posts)', () => {
  it.each<[string, Post | null, Post | null, WebhookEvent[]]>([
    ['POST → draft', null, post('draft'), ['post.draft']],
    ['POST → published', null, post('published'), ['post.published']],
    ['PATCH draft → draft', post('draft'), post('draft', { title: 'Edited' }), ['post.draft']],
    ['PATCH scheduled → draft', post('scheduled'), post('draft'), ['post.draft']],
    ['PATCH draft → published', post('draft'), post('published'), ['post.published']],
    ['PATCH scheduled → published', post('scheduled'), post('published'), ['post.published']],
    [
      'PATCH published → published (an edit of a published post)',
      post('published'),
      post('published', { title: 'Edited' }),
      ['post.published'],
    ],
    ['PATCH published → draft (unpublished)', post('published'), post('draft', { published: T0 }), ['post.draft', 'post.delete']],
    ['DELETE published → deleted (record kept, deleted set)', post('published'), post('published', { deleted: T1 }), ['post.delete']],
    ['DELETE draft → deleted (record kept, deleted set)', post('draft'), post('draft', { deleted: T1 }), ['post.delete']],
    ['DELETE scheduled → deleted (record kept, deleted set)', post('scheduled'), post('scheduled', { deleted: T1 }), ['post.delete']],
    ['deleted, no after record (before given)', post('published'), null, ['post.delete']],
  ])('%s', (_row, before, after, kinds) => {
    expect(sorted(postKinds(before, after))).toEqual(sorted([...kinds, 'post.all']));
  });

  it('a deleted post given as the before record (the dispatcher calls postKinds(post, null))', () => {
    const deleted = post('draft', { deleted: T1 });
    expect(sorted(postKinds(deleted, null))).toEqual(sorted(['post.delete', 'post.all']));
  });

  it('fires only post kinds, each once, always with post.all', () => {
    const cases: [Post | null, Post | null][] = [
      [null, post('draft')],
      [null, post('published')],
      [post('published'), post('draft')],
      [post('draft'), null],
    ];
    for (const [before, after] of cases) {
      const kinds = postKinds(before, after);
      expect(new Set(kinds).size).toBe(kinds.length);
      expect(kinds).toContain('post.all');
      for (const kind of kinds) {
        expect(kind.startsWith('post.')).toBe(true);
        expect(WEBHOOK_EVENTS).toContain(kind);
      }
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Pages

describe('pageKinds (docs/webhooks.md, Pages)', () => {
  it.each<[string, Page | null, Page, WebhookEvent[]]>([
    ['POST → draft', null, page(null, T0), ['page.draft']],
    ['POST → published', null, page(T0, null), ['page.published']],
    ['status published on a draft-only page: any → published', page(null, T0), page(T1, null), ['page.published']],
    ['status published on a live page with a draft: any → published', page(T0, T1), page(T2, null), ['page.published']],
    ['status published on a scheduled page: any → published', page(T0, T1, { scheduled: FUTURE }), page(T2, null), ['page.published']],
    ['status published on a live page with no draft: any → published', page(T0, null), page(T1, null), ['page.published']],
    ['no status on a live page with no draft: the live version changes', page(T0, null), page(T1, null), ['page.published']],
    ['status draft on a live page: published → draft', page(T0, null), page(null, T1), ['page.unpublished']],
    ['status draft on a live page with a draft: published → draft', page(T0, T1), page(null, T2), ['page.unpublished']],
    ['a draft-only page saved: the draft changes', page(null, T0), page(null, T1), ['page.draft']],
    ['status draft on a draft-only page: the draft changes', page(null, T0), page(null, T1, { published: null }), ['page.draft']],
    ['a draft above the live version saved: the draft changes', page(T0, T1), page(T0, T2), ['page.draft']],
    [
      'a scheduled change saved: the draft changes',
      page(T0, T1, { scheduled: FUTURE }),
      page(T0, T2, { scheduled: FUTURE }),
      ['page.draft'],
    ],
    ['deleted', page(T0, null), page(T0, null, { deleted: T1 }), ['page.delete']],
    ['deleted (a draft-only page)', page(null, T0), page(null, T0, { deleted: T1 }), ['page.delete']],
  ])('%s', (_row, before, after, kinds) => {
    expect(sorted(pageKinds(before, after))).toEqual(sorted([...kinds, 'page.all']));
  });

  it('a Single Page (no page type) follows the same rows', () => {
    const single = (live: string | null, draft: string | null) => page(live, draft, { page_type: null, definition: [] });
    expect(sorted(pageKinds(single(T0, null), single(T1, null)))).toEqual(['page.all', 'page.published']);
    expect(sorted(pageKinds(single(T0, null), single(null, T1)))).toEqual(['page.all', 'page.unpublished']);
  });

  it.each<[string, Page, ReturnType<typeof pageWebhookStatus>]>([
    ['draft-only', page(null, T0), 'draft'],
    ['live', page(T0, null), 'published'],
    ['live with a draft above it', page(T0, T1), 'published'],
    ['scheduled', page(T0, T1, { scheduled: FUTURE }), 'scheduled'],
    ['deleted', page(T0, null, { deleted: T1 }), 'deleted'],
  ])('pageWebhookStatus: %s → %s', (_name, p, status) => {
    expect(pageWebhookStatus(p)).toBe(status);
  });
});

// ---------------------------------------------------------------------------------------------
// Collection items

describe('itemKinds (docs/webhooks.md, Collection items)', () => {
  it.each<[string, CollectionItem | null, CollectionItem, WebhookEvent[]]>([
    ['POST → draft', null, item('draft'), ['collectionitem.draft']],
    ['POST → published', null, item('published'), ['collectionitem.published']],
    ['PUT/PATCH draft → published', item('draft'), item('published', { updated: T1 }), ['collectionitem.published']],
    ['PUT/PATCH published → published', item('published'), item('published', { updated: T1 }), ['collectionitem.published']],
    ['PUT/PATCH published → draft', item('published'), item('draft', { updated: T1 }), ['collectionitem.unpublished']],
    ['PUT/PATCH draft → draft', item('draft'), item('draft', { updated: T1 }), ['collectionitem.draft']],
    [
      'DELETE published → deleted (the dispatcher passes no before record)',
      null,
      item('published', { deleted: T1 }),
      ['collectionitem.delete'],
    ],
    ['DELETE draft → deleted (the dispatcher passes no before record)', null, item('draft', { deleted: T1 }), ['collectionitem.delete']],
    ['DELETE with a before record', item('published'), item('published', { deleted: T1 }), ['collectionitem.delete']],
  ])('%s', (_row, before, after, kinds) => {
    expect(sorted(itemKinds(before, after))).toEqual(sorted([...kinds, 'collectionitem.all']));
  });
});
