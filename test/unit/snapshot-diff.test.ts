import { describe, expect, it } from 'vitest';
import { diff, shadowOf, type Change } from '../../server/store/snapshot-diff.js';
import { prng } from '../../bench/generate-store.js';

/** What the write worker does with the changes (write-worker.ts apply()). */
function apply(root: unknown, changes: Change[]): unknown {
  for (const change of changes) {
    if (change.path.length === 0 && change.op === 'set') {
      root = structuredClone(change.value);
      continue;
    }
    let node = root as Record<string | number, unknown>;
    for (const step of change.path.slice(0, -1)) node = node[step] as Record<string | number, unknown>;
    const last = change.path[change.path.length - 1]!;
    if (change.op === 'set') node[last] = structuredClone(change.value);
    else (node[last] as unknown[]).push(...structuredClone(change.values));
  }
  return root;
}

type Post = { id: number; title: string; tags: string[]; seo?: { title: string } };
const store = () => ({
  organizations: [
    { slug: 'a', posts: Array.from({ length: 30 }, (_, i): Post => ({ id: i, title: `P${i}`, tags: ['x'], seo: { title: 's' } })) },
    { slug: 'b', posts: [] as Post[] },
  ],
});

describe('shadowOf and diff', () => {
  it('objects of one shape share a keys array; arrays are sized exactly', () => {
    const data = store();
    const shadow = shadowOf(data) as { values: { items: { values: { items: { keys: string[] }[] }[] }[] }[] };
    const posts = shadow.values[0]!.items[0]!.values[1]!.items;
    expect(posts).toHaveLength(30);
    expect(posts[0]!.keys).toBe(posts[29]!.keys);
    expect(posts[0]!.keys).toEqual(['id', 'title', 'tags', 'seo']);
  });

  it('the changes bring a copy of the last write to the current data, over random edits', () => {
    const next = prng(7);
    const data = store();
    let copy: unknown = structuredClone(data);
    let shadow = shadowOf(data);
    for (let round = 0; round < 200; round++) {
      for (let edit = 0; edit < 3; edit++) {
        const org = data.organizations[Math.floor(next() * 2)]!;
        const roll = next();
        const post = org.posts[Math.floor(next() * org.posts.length)];
        if (roll < 0.25 || !post) org.posts.push({ id: 1000 + round, title: `new ${round}`, tags: [] });
        else if (roll < 0.45) post.title = `edited ${round} ✓`;
        else if (roll < 0.55) post.tags.push(`t${round}`);
        else if (roll < 0.65) delete post.seo;
        else if (roll < 0.75) post.seo = { title: `seo ${round}` };
        else if (roll < 0.85) org.posts.splice(Math.floor(next() * org.posts.length), 1);
        else if (roll < 0.95) (post as Record<string, unknown>)[`extra${round % 3}`] = round;
        else org.posts = org.posts.slice().reverse();
      }
      const changes: Change[] = [];
      shadow = diff(data, shadow, [], changes);
      copy = apply(copy, changes);
      expect(JSON.stringify(copy, null, 2)).toBe(JSON.stringify(data, null, 2));
    }
  });

  it('reports nothing when nothing changed', () => {
    const data = store();
    const changes: Change[] = [];
    diff(data, shadowOf(data), [], changes);
    expect(changes).toEqual([]);
  });
});
