/**
 * Full-text search over published posts (spec: GET /posts/search/), ranked by BM25 over title,
 * body text and summary (search-index.ts). One index per organization, kept up to date rather
 * than rebuilt: when the store's revision moves, the posts are compared with what the index
 * holds (a pass over the list, no text work for unchanged posts) and only the posts that were
 * created, changed, published, unpublished or deleted are indexed again. A test suite that
 * writes, then searches, pays for the posts it wrote, not for the whole blog.
 */
import type { Organization, Post } from '../store/schema.js';
import type { PageRequest } from './pagination.js';
import { isPublished } from './posts/queries.js';
import { SearchIndex, type TermOptions } from './search-index.js';
import { htmlToText } from './search-terms.js';

export { htmlToText } from './search-terms.js';

export interface SearchHit {
  post: Post;
  rank: number;
}

/** What the index holds of a post: enough to tell whether the post changed since. */
interface Indexed {
  slot: number;
  post: Post;
  title: string;
  body: string;
  summary: string;
  /** The last sync that found the post still there. */
  seen: number;
}

interface OrgSearch {
  revision: number;
  /** The list it was synced with: a replaced organization or list is indexed afresh. */
  posts: Post[];
  index: SearchIndex<Post>;
  byId: Map<number, Indexed>;
  syncs: number;
}

const cache = new WeakMap<Organization, OrgSearch>();

/** Equal scores: the older post first (the order of the list, as MiniSearch gave them). */
const byId = (a: Post, b: Post): number => a.id - b.id;

/** Rebuild once removed posts leave more holes than this share of the index (and at least 256). */
const MAX_HOLE_SHARE = 0.5;

/**
 * Every word must match; the last may be a prefix ("hydrat" finds "hydration"), and longer
 * words tolerate a typo.
 */
const termOptions = (term: string, i: number, terms: string[]): TermOptions => ({
  prefix: i === terms.length - 1 && term.length >= 3,
  fuzzy: term.length >= 5 ? 0.2 : 0,
});

/** The posts a query matched: how many, and the best of them on demand. */
export interface SearchResults {
  count: number;
  /** The best `n` hits, best first. */
  top(n: number): SearchHit[];
}

/** Hits for `query`; an empty query finds nothing (spec). */
export function searchPosts(org: Organization, revision: number, query: string): SearchResults {
  if (query.trim() === '') return { count: 0, top: () => [] };
  const ranking = indexFor(org, revision).search(query, termOptions);
  return {
    count: ranking.count,
    top: (n) => ranking.top(n).map(({ document, score }) => ({ post: document, rank: Math.round(score * 1000) / 1000 })),
  };
}

/**
 * The hits paginate() reads for `request`: a list as long as the count, filled from the best hit
 * to the end of the requested page. Entries past that stay empty and are never read, so a word
 * that most posts hold costs a page's worth of ranking, not the whole blog's.
 */
export function hitsFor(results: SearchResults, request: PageRequest): SearchHit[] {
  const end = request.style === 'page' ? request.page * request.pageSize : request.offset + request.limit;
  const list = new Array<SearchHit>(results.count);
  results.top(Math.min(end, results.count)).forEach((hit, i) => (list[i] = hit));
  return list;
}

function indexFor(org: Organization, revision: number): SearchIndex<Post> {
  let state = cache.get(org);
  if (state && state.revision === revision) return state.index;
  const tooManyHoles = state && state.index.holes > Math.max(256, state.index.size * MAX_HOLE_SHARE);
  if (!state || state.posts !== org.posts || tooManyHoles) {
    state = { revision, posts: org.posts, index: new SearchIndex<Post>(byId), byId: new Map(), syncs: 0 };
    cache.set(org, state);
  }
  sync(state, org.posts);
  state.revision = revision;
  return state.index;
}

/** Brings the index in line with `posts`: adds, re-indexes and removes what changed. */
function sync(state: OrgSearch, posts: Post[]): void {
  const pass = ++state.syncs;
  for (const post of posts) {
    const entry = state.byId.get(post.id);
    if (!isPublished(post)) {
      if (entry) drop(state, entry);
      continue;
    }
    if (entry && entry.post === post && entry.title === post.title && entry.body === post.body && entry.summary === post.summary) {
      entry.seen = pass;
      continue;
    }
    if (entry) drop(state, entry);
    const slot = state.index.add(post, [post.title, htmlToText(post.body), post.summary]);
    state.byId.set(post.id, { slot, post, title: post.title, body: post.body, summary: post.summary, seen: pass });
  }
  // Posts gone from the list altogether (a hand edit of the data file).
  for (const entry of state.byId.values()) if (entry.seen !== pass) drop(state, entry);
}

function drop(state: OrgSearch, entry: Indexed): void {
  state.index.remove(entry.slot);
  state.byId.delete(entry.post.id);
}
