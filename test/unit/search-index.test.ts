/**
 * The post search index is updated in place when the store changes (domain/search.ts): after any
 * sequence of creates, edits, unpublishes and deletes it must answer exactly as an index built
 * from scratch over the same posts. Also the bounded edit distance behind typo tolerance.
 */
import { describe, expect, it } from 'vitest';
import { searchPosts } from '../../server/domain/search.js';
import { Ranking } from '../../server/domain/search-ranking.js';
import { boundedDistance } from '../../server/domain/search-terms.js';
import type { Organization, Post } from '../../server/store/schema.js';

const at = '2026-01-01T00:00:00.000Z';
const WORDS = ['glacier', 'glaciers', 'trail', 'trails', 'summit', 'ridge', 'hydration', 'canister', 'bear', 'tent', 'río', 'alpine'];

function post(id: number, words: string[], fields: Partial<Post> = {}): Post {
  return {
    id,
    slug: `p${id}`,
    title: `${words[0]} notes ${id}`,
    status: 'published',
    author: 'sam',
    categories: [],
    tags: [],
    featured_image: null,
    featured_image_alt: '',
    body: `<p>${words.join(' ')} &amp; more.</p><p>${words.slice(1).join(', ')}</p>`,
    summary: words.slice(-2).join(' '),
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

/** A small deterministic generator, so a failure reproduces. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a * 1103515245 + 12345) % 2147483648;
    return a / 2147483648;
  };
}

const QUERIES = [
  'glacier',
  'glac',
  'glaceir',
  'trail ridge',
  'bear canister',
  'HYDRATION',
  'hydrat',
  'río',
  'tent',
  'summit alpine',
  'nothing',
];
const org = (posts: Post[]) => ({ posts }) as unknown as Organization;
const answer = (o: Organization, revision: number) => QUERIES.map((q) => all(o, revision, q).map((h) => [h.post.id, h.rank] as const));
const all = (o: Organization, revision: number, q: string) => {
  const found = searchPosts(o, revision, q);
  return found.top(found.count);
};

describe('post search index', () => {
  it('answers like a fresh index after creates, edits, unpublishes and deletes', () => {
    const next = random(7);
    const pick = () => Array.from({ length: 3 + Math.floor(next() * 8) }, () => WORDS[Math.floor(next() * WORDS.length)]!);
    const live = org(Array.from({ length: 40 }, (_, i) => post(i + 1, pick())));
    let revision = 1;
    answer(live, revision); // builds the index that later changes update
    for (let round = 0; round < 30; round++) {
      const posts = live.posts;
      const target = posts[Math.floor(next() * posts.length)]!;
      const change = Math.floor(next() * 5);
      if (change === 0) posts.push(post(posts.length + 1, pick()));
      else if (change === 1) posts[posts.indexOf(target)] = { ...target, body: `<p>${pick().join(' ')}</p>` };
      else if (change === 2) target.status = target.status === 'published' ? 'draft' : 'published';
      else if (change === 3) target.deleted = target.deleted ? null : at;
      else target.title = `${pick().join(' ')}`;
      revision += 1;
      const fresh = org(posts.map((p) => ({ ...p })));
      expect(answer(live, revision), `round ${round}`).toEqual(answer(fresh, 1));
    }
  });

  it('stays right across the rebuild that many edits cause (removed posts leave holes)', () => {
    const live = org(Array.from({ length: 20 }, (_, i) => post(i + 1, [WORDS[i % WORDS.length]!, 'ridge'])));
    for (let revision = 1; revision <= 400; revision++) {
      const i = revision % live.posts.length;
      live.posts[i] = { ...live.posts[i]!, body: `<p>${WORDS[revision % WORDS.length]} ridge ${revision}</p>` };
      if (revision % 50 === 0) expect(answer(live, revision)).toEqual(answer(org(live.posts.map((p) => ({ ...p }))), 1));
      else searchPosts(live, revision, 'ridge');
    }
  });

  it('finds only published, live posts and ranks a title match first', () => {
    const o = org([
      post(1, ['ridge', 'glacier']),
      post(2, ['glacier', 'ridge']),
      post(3, ['glacier'], { status: 'draft' }),
      post(4, ['glacier'], { deleted: at }),
    ]);
    expect(all(o, 1, 'glacier').map((h) => h.post.id)).toEqual([2, 1]);
    expect(searchPosts(o, 1, '  ').count).toBe(0);
  });

  it('sees a post list replaced as a whole (reset, import, a hand edit)', () => {
    const o = org([post(1, ['glacier'])]);
    expect(searchPosts(o, 1, 'glacier').count).toBe(1);
    o.posts = [post(1, ['ridge'])];
    expect(searchPosts(o, 2, 'glacier').count).toBe(0);
    expect(searchPosts(o, 2, 'ridge').count).toBe(1);
  });
});

describe('boundedDistance', () => {
  const naive = (a: string, b: string): number => {
    const d = Array.from({ length: a.length + 1 }, (_, i) =>
      Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
    );
    for (let i = 1; i <= a.length; i++)
      for (let j = 1; j <= b.length; j++)
        d[i]![j] = Math.min(d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1), d[i - 1]![j]! + 1, d[i]![j - 1]! + 1);
    return d[a.length]![b.length]!;
  };

  it('is the Levenshtein distance up to the bound, and bound + 1 beyond it', () => {
    const pairs = [
      ['glacier', 'glaceir'],
      ['glacier', 'glacier'],
      ['kitten', 'sitting'],
      ['', 'abc'],
      ['hydration', 'hydrat'],
      ['río', 'rio'],
      ['trail', 'trails'],
    ] as const;
    for (const [a, b] of pairs) {
      for (const max of [0, 1, 2, 3, 6]) {
        const exact = naive(a, b);
        expect(boundedDistance(a, b, max), `${a}/${b}/${max}`).toBe(exact <= max ? exact : max + 1);
      }
    }
  });
});

describe('Ranking', () => {
  it('top(n) is the first n of the full order, ties broken by the tie order then the slot', () => {
    const next = random(11);
    const n = 500;
    const slots = Int32Array.from({ length: n }, (_, i) => i * 3);
    // Few distinct scores, so ties are common.
    const scores = Float64Array.from({ length: n }, () => Math.floor(next() * 20) / 4);
    const ids = Array.from({ length: n * 3 }, () => Math.floor(next() * 50));
    const ranking = new Ranking<number>(
      slots,
      scores,
      (slot) => ids[slot]!,
      (a, b) => a - b,
    );
    const full = ranking.top(n);
    for (let i = 1; i < full.length; i++) {
      const [a, b] = [full[i - 1]!, full[i]!];
      expect(a.score > b.score || (a.score === b.score && a.document <= b.document)).toBe(true);
    }
    for (const k of [0, 1, 2, 10, 99, 250, 499, 500, 800]) expect(ranking.top(k)).toEqual(full.slice(0, k));
  });
});
