/** Atom 1.0 (spec: Feeds, /feeds/atom/), with every element the spec lists. */
import { create } from 'xmlbuilder2';
import { authorName, OrgIndex, postUrl } from '../posts/serialize.js';
import { feedPosts, lastUpdated, xmlText, type FeedRequest } from './common.js';

export function renderAtom(request: FeedRequest): string {
  const { org } = request;
  const index = new OrgIndex(org, request.cdnUrl, request.revision);
  const posts = feedPosts(request);
  const feed = create({ version: '1.0', encoding: 'UTF-8' }).ele('feed', {
    xmlns: 'http://www.w3.org/2005/Atom',
    'xml:lang': xmlText(org.blog.language),
  });
  feed.ele('title').txt(xmlText(org.blog.title));
  if (org.blog.description) feed.ele('subtitle').txt(xmlText(org.blog.description));
  feed.ele('link', { rel: 'alternate', type: 'text/html', href: xmlText(org.blog.url) });
  feed.ele('link', { rel: 'self', type: 'application/atom+xml', href: xmlText(request.selfUrl) });
  feed.ele('id').txt(xmlText(org.blog.url));
  feed.ele('updated').txt(lastUpdated(posts, request.now).toISOString());

  for (const post of posts) {
    const url = postUrl(org, post);
    const entry = feed.ele('entry');
    entry.ele('title').txt(xmlText(post.title));
    entry.ele('link', { rel: 'alternate', type: 'text/html', href: xmlText(url) });
    entry.ele('published').txt(post.published ?? post.created);
    entry.ele('updated').txt(post.updated);
    entry
      .ele('author')
      .ele('name')
      .txt(xmlText(authorName(index.author(post.author))));
    entry.ele('id').txt(xmlText(url));
    entry.ele('summary', { type: 'html' }).txt(xmlText(post.summary));
  }
  return feed.end({ prettyPrint: true });
}
