/**
 * The emulated v2 API: one router per resource of the spec, and nothing else. Anything not
 * matched is the spec's 404 `{detail}`, with a hint when only the trailing slash is missing.
 */
import { Router } from 'express';
import type { EmulatorContext } from '../context.js';
import { notFound } from '../domain/errors.js';
import { messages } from '../domain/messages.js';
import { authorsRouter } from './authors.js';
import { contentRouter } from './content.js';
import { feedsRouter } from './feeds.js';
import { pagesRouter } from './pages.js';
import { postsRouter } from './posts.js';
import { termsRouter } from './terms.js';

export function apiRouter(ctx: EmulatorContext): Router {
  const router = Router({ strict: true });
  router.use(postsRouter(ctx));
  router.use(authorsRouter(ctx));
  router.use(termsRouter(ctx, 'categories'));
  router.use(termsRouter(ctx, 'tags'));
  router.use(feedsRouter(ctx));
  router.use(pagesRouter(ctx));
  router.use(contentRouter(ctx));
  router.use((req) => {
    const path = `${req.baseUrl}${req.path}`;
    throw notFound(path.endsWith('/') ? messages.notFound : messages.notFoundTrailingSlash(path));
  });
  return router;
}
