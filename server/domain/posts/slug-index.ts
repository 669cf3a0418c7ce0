/**
 * Which slugs live posts hold, for the check a post write makes before its 202 (spec: a slug
 * "must be unique") and again when its job creates the post, and the highest post id (the next
 * post's id follows it). Scanning every post for each write cost 0.5 ms on a 10,000-post store,
 * twice per write (docs/performance.md); this answers from a map instead.
 *
 * The map is kept honest cheaply: every hit is verified against the post itself (so a post
 * deleted or renamed since is not counted), posts appended to the list since the last check are
 * added, and the one write that renames a post (post.update) tells it. A list replaced as a
 * whole (reset, import, a hand edit) is a new list, mapped afresh.
 */
import type { Organization, Post } from '../../store/schema.js';

class PostSlugs {
  private readonly bySlug = new Map<string, Post[]>();
  private mapped = 0;
  private highest = 0;

  constructor(readonly posts: Post[]) {}

  isTaken(slug: string, exceptPostId: number | null): boolean {
    const holder = this.liveHolder(slug);
    return holder !== undefined && holder.id !== exceptPostId;
  }

  /** The live post whose slug this is (as findLivePost would find it: the first in the list). */
  liveHolder(slug: string): Post | undefined {
    this.catchUp();
    return this.bySlug.get(slug)?.find((p) => p.slug === slug && p.deleted === null);
  }

  /** The highest id of any post in the list, deleted ones included (0 for none). Ids never change. */
  highestId(): number {
    this.catchUp();
    return this.highest;
  }

  /** `post` (already in the list) now holds `post.slug`. */
  renamed(post: Post): void {
    this.catchUp();
    this.add(post);
  }

  private catchUp(): void {
    for (; this.mapped < this.posts.length; this.mapped++) this.add(this.posts[this.mapped]!);
  }

  private add(post: Post): void {
    if (post.id > this.highest) this.highest = post.id;
    const holders = this.bySlug.get(post.slug);
    if (!holders) this.bySlug.set(post.slug, [post]);
    else if (!holders.includes(post)) holders.push(post);
  }
}

const byOrganization = new WeakMap<Organization, PostSlugs>();

export function postSlugs(org: Organization): PostSlugs {
  let slugs = byOrganization.get(org);
  if (!slugs || slugs.posts !== org.posts) {
    slugs = new PostSlugs(org.posts);
    byOrganization.set(org, slugs);
  }
  return slugs;
}
