/** RSS 2.0 (spec: Feeds, /feeds/rss/), with every element the spec lists. */
import { create } from 'xmlbuilder2';
import { liveBodyMedia, liveMediaUrl } from '../media/library.js';
import { authorName, OrgIndex, postUrl } from '../posts/serialize.js';
import { feedPosts, lastUpdated, xmlText, type FeedRequest } from './common.js';

export function renderRss(request: FeedRequest): string {
  const { org } = request;
  const index = new OrgIndex(org, request.cdnUrl, request.revision);
  const posts = feedPosts(request);
  const channel = create({ version: '1.0', encoding: 'UTF-8' })
    .ele('rss', {
      version: '2.0',
      'xmlns:atom': 'http://www.w3.org/2005/Atom',
      'xmlns:content': 'http://purl.org/rss/1.0/modules/content/',
      'xmlns:dc': 'http://purl.org/dc/elements/1.1/',
      'xmlns:media': 'http://search.yahoo.com/mrss/',
    })
    .ele('channel');
  channel.ele('title').txt(xmlText(org.blog.title));
  channel.ele('link').txt(xmlText(org.blog.url));
  channel.ele('description').txt(xmlText(org.blog.description));
  channel.ele('atom:link', { href: xmlText(request.selfUrl), rel: 'self', type: 'application/rss+xml' });
  channel.ele('language').txt(xmlText(org.blog.language));
  channel.ele('lastBuildDate').txt(lastUpdated(posts, request.now).toUTCString());

  for (const post of posts) {
    const url = postUrl(org, post);
    const item = channel.ele('item');
    item.ele('title').txt(xmlText(post.title));
    item.ele('link').txt(xmlText(url));
    if (post.featured_image)
      item.ele('media:content', { url: xmlText(liveMediaUrl(post.featured_image, request.cdnUrl)), medium: 'image' });
    item.ele('dc:creator').txt(xmlText(authorName(index.author(post.author))));
    item.ele('pubDate').txt(new Date(post.published ?? post.created).toUTCString());
    item.ele('guid', { isPermaLink: 'true' }).txt(xmlText(url));
    for (const slug of post.categories) {
      const category = index.categories.get(slug);
      if (category) item.ele('category').txt(xmlText(category.name));
    }
    item.ele('description').txt(xmlText(post.summary));
    item.ele('content:encoded').txt(xmlText(liveBodyMedia(post.body, request.cdnUrl)));
  }
  return channel.end({ prettyPrint: true });
}
