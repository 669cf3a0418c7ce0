/** Sitemap protocol urlset (spec: Feeds, /feeds/sitemap/): `loc` and `lastmod` as a date. */
import { create } from 'xmlbuilder2';
import { postUrl } from '../posts/serialize.js';
import { feedPosts, xmlText, type FeedRequest } from './common.js';

/** The sitemap protocol's own cap on URLs per file. */
const SITEMAP_LIMIT = 50_000;

export function renderSitemap(request: FeedRequest): string {
  const urlset = create({ version: '1.0', encoding: 'UTF-8' }).ele('urlset', {
    xmlns: 'http://www.sitemaps.org/schemas/sitemap/0.9',
  });
  for (const post of feedPosts(request, SITEMAP_LIMIT)) {
    const url = urlset.ele('url');
    url.ele('loc').txt(xmlText(postUrl(request.org, post)));
    url.ele('lastmod').txt(post.updated.slice(0, 10));
  }
  return urlset.end({ prettyPrint: true });
}
