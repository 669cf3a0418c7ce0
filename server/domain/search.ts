/**
 * Full-text search over published posts (spec: GET /posts/search/), ranked by BM25 through
 * MiniSearch rather than substring matching. One index per organization, rebuilt lazily when
 * the store's revision changes, so searches between writes cost only the query.
 */
import MiniSearch from 'minisearch';
import type { Organization, Post } from '../store/schema.js';
import { isPublished } from './posts/queries.js';

interface IndexedPost {
  id: number;
  title: string;
  body: string;
  summary: string;
}

interface CachedIndex {
  revision: number;
  index: MiniSearch<IndexedPost>;
  posts: Map<number, Post>;
}

const cache = new WeakMap<Organization, CachedIndex>();

export interface SearchHit {
  post: Post;
  rank: number;
}

/** Ranked hits for `query`; an empty query finds nothing (spec). */
export function searchPosts(org: Organization, revision: number, query: string): SearchHit[] {
  if (query.trim() === '') return [];
  const { index, posts } = indexFor(org, revision);
  return index.search(query).flatMap((result) => {
    const post = posts.get(result.id as number);
    return post ? [{ post, rank: Math.round(result.score * 1000) / 1000 }] : [];
  });
}

function indexFor(org: Organization, revision: number): CachedIndex {
  const cached = cache.get(org);
  if (cached && cached.revision === revision) return cached;
  const index = new MiniSearch<IndexedPost>({
    fields: ['title', 'body', 'summary'],
    searchOptions: {
      boost: { title: 3, summary: 1.5 },
      // Every word must match; the last may be a prefix ("hydrat" finds "hydration"), and
      // longer words tolerate a typo.
      combineWith: 'AND',
      prefix: (term, i, terms) => i === terms.length - 1 && term.length >= 3,
      fuzzy: (term) => (term.length >= 5 ? 0.2 : false),
    },
  });
  const published = org.posts.filter(isPublished);
  index.addAll(published.map((p) => ({ id: p.id, title: p.title, body: htmlToText(p.body), summary: p.summary })));
  const fresh: CachedIndex = { revision, index, posts: new Map(published.map((p) => [p.id, p])) };
  cache.set(org, fresh);
  return fresh;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** Text of an HTML body for indexing: tags dropped, common entities decoded. */
export function htmlToText(html: string): string {
  return html
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#x?[0-9a-f]+|[a-z]+);/gi, (whole, name: string) => {
      if (name.startsWith('#')) {
        const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
        return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : ' ';
      }
      return Object.hasOwn(ENTITIES, name.toLowerCase()) ? ENTITIES[name.toLowerCase()]! : whole;
    });
}
