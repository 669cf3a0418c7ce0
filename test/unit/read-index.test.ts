import { describe, expect, it } from 'vitest';
import { indexedNeighbours, indexedPosts, newestMatching, postReadIndex } from '../../server/domain/posts/read-index.js';
import type { Organization, Post } from '../../server/store/schema.js';

const at = '2026-01-01T00:00:00.000Z';
function post(id: number, fields: Partial<Post> = {}): Post {
  return {
    id,
    slug: `p${id}`,
    title: `P${id}`,
    status: 'published',
    author: 'sam',
    categories: [],
    tags: [],
    featured_image: null,
    featured_image_alt: '',
    body: '',
    summary: '',
    seo_title: '',
    meta_description: '',
    created: at,
    updated: at,
    published: at,
    scheduled: null,
    deleted: null,
    ...fields,
  };
}
const org = (posts: Post[]) => ({ posts }) as unknown as Organization;

describe('post read index', () => {
  it('orders equal publication times by higher id first, so pages are stable', () => {
    const index = postReadIndex(org([post(1), post(3), post(2)]), 1);
    expect(index.published.map((p) => p.id)).toEqual([3, 2, 1]);
  });

  it('leaves deleted posts out everywhere and drafts out of published lists', () => {
    const index = postReadIndex(org([post(1), post(2, { status: 'draft', published: null }), post(3, { deleted: at })]), 1);
    expect(indexedPosts(index, {}, false).map((p) => p.id)).toEqual([1]);
    expect(indexedPosts(index, {}, true).map((p) => p.id)).toEqual([2, 1]);
    expect(index.liveBySlug.has('p3')).toBe(false);
  });

  it('newestMatching stops at the limit and applies filters', () => {
    const posts = Array.from({ length: 30 }, (_, i) =>
      post(i + 1, { published: new Date(Date.UTC(2026, 0, i + 1)).toISOString(), tags: i % 2 ? ['odd'] : [] }),
    );
    const index = postReadIndex(org(posts), 1);
    expect(newestMatching(index, {}, 10).map((p) => p.id)).toEqual([30, 29, 28, 27, 26, 25, 24, 23, 22, 21]);
    expect(newestMatching(index, { tag_slug: 'odd' }, 3).map((p) => p.id)).toEqual([30, 28, 26]);
  });

  it('gives neighbours in publication order, none for a draft', () => {
    const draft = post(9, { status: 'draft', published: null });
    const index = postReadIndex(
      org([
        post(1, { published: '2026-01-01T00:00:00Z' }),
        post(2, { published: '2026-02-01T00:00:00Z' }),
        post(3, { published: '2026-03-01T00:00:00Z' }),
        draft,
      ]),
      1,
    );
    const [newest, middle, oldest] = index.published;
    expect(indexedNeighbours(index, middle!)).toEqual({ next: newest, previous: oldest });
    expect(indexedNeighbours(index, newest!).next).toBeNull();
    expect(indexedNeighbours(index, draft)).toEqual({ next: null, previous: null });
  });

  it('is rebuilt when the revision changes, reused otherwise', () => {
    const o = org([post(1)]);
    const first = postReadIndex(o, 1);
    expect(postReadIndex(o, 1)).toBe(first);
    o.posts.push(post(2));
    expect(postReadIndex(o, 2).published).toHaveLength(2);
  });
});
