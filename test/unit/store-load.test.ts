import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseStoreText, StoreLoadError } from '../../server/store/load.js';

const minimal = {
  format_version: 1,
  organizations: [
    {
      slug: 'a',
      name: 'A',
      tokens: { read: 'read-token-a', write: 'write-token-a' },
      owner: 'sam',
      blog: { title: 'Blog', url: 'https://a.example/blog' },
      authors: [{ slug: 'sam' }],
      posts: [
        {
          id: 1,
          slug: 'p',
          title: 'P',
          status: 'published',
          author: 'sam',
          created: '2026-01-01T00:00:00.000Z',
          updated: '2026-01-01T00:00:00.000Z',
          published: '2026-01-01T00:00:00.000Z',
        },
      ],
    },
  ],
};

function loadError(text: string): string {
  try {
    parseStoreText(text, 'data.json');
  } catch (err) {
    expect(err).toBeInstanceOf(StoreLoadError);
    return (err as Error).message;
  }
  throw new Error('expected the load to fail');
}

describe('parseStoreText', () => {
  it('fills defaults', () => {
    const data = parseStoreText(JSON.stringify(minimal), 'data.json');
    expect(data.organizations[0]?.posts[0]?.deleted).toBeNull();
    expect(data.organizations[0]?.blog.language).toBe('en-us');
  });

  it('names the line and column of a JSON syntax error', () => {
    expect(loadError('{\n  "format_version": 1,\n  oops\n}')).toMatch(/line 3, column 3/);
  });

  it('names the path of a bad value', () => {
    const bad = structuredClone(minimal);
    bad.organizations[0]!.posts[0]!.author = 'nobody';
    expect(loadError(JSON.stringify(bad))).toContain('at organizations[0].posts[0].author: no author with slug "nobody"');
  });

  it('refuses a token used twice', () => {
    const bad = structuredClone(minimal);
    bad.organizations[0]!.tokens.write = bad.organizations[0]!.tokens.read;
    expect(loadError(JSON.stringify(bad))).toContain('organizations[0].tokens.write');
  });

  it('refuses a published post without its publication time', () => {
    const bad = structuredClone(minimal) as { organizations: { posts: Record<string, unknown>[] }[] };
    delete bad.organizations[0]!.posts[0]!['published'];
    expect(loadError(JSON.stringify(bad))).toContain('organizations[0].posts[0].published');
  });

  it('accepts the example of docs/data-file.md, so the documentation stays true', () => {
    const doc = readFileSync(new URL('../../docs/data-file.md', import.meta.url), 'utf8');
    const example = /## A minimal file\s+```json\n([\s\S]*?)```/.exec(doc)?.[1];
    expect(example).toBeDefined();
    expect(parseStoreText(example!, 'docs example').organizations[0]?.slug).toBe('my-site');
  });
});
