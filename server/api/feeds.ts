/** /feeds/rss/, /feeds/atom/, /feeds/sitemap/ (spec: Feeds): XML, `application/xml`. */
import { Router, type Request } from 'express';
import { z } from 'zod';
import type { EmulatorContext } from '../context.js';
import { notFound } from '../domain/errors.js';
import type { FeedRequest } from '../domain/feeds/common.js';
import { renderAtom } from '../domain/feeds/atom.js';
import { renderRss } from '../domain/feeds/rss.js';
import { renderSitemap } from '../domain/feeds/sitemap.js';
import { messages } from '../domain/messages.js';
import { postReadIndex } from '../domain/posts/read-index.js';
import { filterParam } from '../domain/query.js';
import { authOf, requireRead } from '../http/auth.js';
import { parseQuery } from '../http/validate.js';
import { cdnBase, methodNotAllowed } from './route-helpers.js';

const feedQuery = z.object({ category_slug: filterParam, tag_slug: filterParam });

/** A Map, not an object: `/feeds/constructor/` must not find Object's own properties. */
const renderers = new Map<string, (request: FeedRequest) => string>([
  ['rss', renderRss],
  ['atom', renderAtom],
  ['sitemap', renderSitemap],
]);

/** The feed's own URL for its self link: same filters, never the token. */
function selfUrl(req: Request, filters: z.output<typeof feedQuery>): string {
  const url = new URL(`${req.protocol}://${req.get('host') ?? 'localhost'}${req.baseUrl}${req.path}`);
  if (filters.category_slug) url.searchParams.set('category_slug', filters.category_slug);
  if (filters.tag_slug) url.searchParams.set('tag_slug', filters.tag_slug);
  return url.toString();
}

export function feedsRouter(ctx: EmulatorContext): Router {
  const router = Router({ strict: true });
  const read = requireRead(ctx.store);

  router
    .route('/feeds/:format/')
    .get(read, (req, res) => {
      const render = renderers.get(String(req.params['format']));
      if (!render) throw notFound(messages.notFound);
      const { organization } = authOf(res);
      const filters = parseQuery(feedQuery, req);
      const revision = ctx.store.revision;
      const posts = postReadIndex(organization, revision);
      const xml = render({
        org: organization,
        filters,
        selfUrl: selfUrl(req, filters),
        now: ctx.clock.now(),
        cdnUrl: cdnBase(req),
        posts,
        revision,
      });
      res.type('application/xml; charset=utf-8').send(xml);
    })
    .all(methodNotAllowed('GET'));

  return router;
}
