/** /authors/ and /authors/{slug}/ (spec: Author, category and tag reads). */
import { Router } from 'express';
import { z } from 'zod';
import type { EmulatorContext } from '../context.js';
import { notFound } from '../domain/errors.js';
import { messages } from '../domain/messages.js';
import { postReadIndex, type PostReadIndex } from '../domain/posts/read-index.js';
import { authorRecord, OrgIndex, serializePost } from '../domain/posts/serialize.js';
import { includeParam } from '../domain/query.js';
import { recentPostsOfAuthor } from '../domain/terms.js';
import { authOf, requireRead } from '../http/auth.js';
import { parseParams, parseQuery } from '../http/validate.js';
import type { Author } from '../store/schema.js';
import { cdnBase, methodNotAllowed } from './route-helpers.js';

const includeQuery = z.object({ include: includeParam });
const authorParams = z.object({ slug: z.string().max(100, { error: messages.pathSlugTooLong }) });

function withRecentPosts(posts: PostReadIndex, index: OrgIndex, author: Author, include: boolean) {
  const record = authorRecord(author);
  if (!include) return record;
  return { ...record, recent_posts: recentPostsOfAuthor(posts, author.slug).map((p) => serializePost(index, p)) };
}

export function authorsRouter(ctx: EmulatorContext): Router {
  const router = Router({ strict: true });
  const read = requireRead(ctx.store);

  router
    .route('/authors/')
    .get(read, (req, res) => {
      const { organization } = authOf(res);
      const { include } = parseQuery(includeQuery, req);
      const index = new OrgIndex(organization, cdnBase(req), ctx.store.revision);
      const posts = postReadIndex(organization, ctx.store.revision);
      res.json({ data: organization.authors.map((a) => withRecentPosts(posts, index, a, include !== undefined)) });
    })
    .all(methodNotAllowed('GET'));

  router
    .route('/authors/:slug/')
    .get(read, (req, res) => {
      const { organization } = authOf(res);
      const { include } = parseQuery(includeQuery, req);
      const { slug } = parseParams(authorParams, req);
      const author = organization.authors.find((a) => a.slug === slug);
      if (!author) throw notFound(messages.notFound);
      res.json({
        data: withRecentPosts(
          postReadIndex(organization, ctx.store.revision),
          new OrgIndex(organization, cdnBase(req), ctx.store.revision),
          author,
          include !== undefined,
        ),
      });
    })
    .all(methodNotAllowed('GET'));

  return router;
}
