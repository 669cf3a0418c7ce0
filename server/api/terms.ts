/**
 * /categories/ and /tags/ with their single reads (spec: Category and Tag; Author, category and
 * tag reads). The two resources differ only in name, so one factory builds both routers.
 */
import { Router } from 'express';
import { z } from 'zod';
import type { EmulatorContext } from '../context.js';
import { notFound } from '../domain/errors.js';
import { messages } from '../domain/messages.js';
import { postReadIndex, type PostReadIndex } from '../domain/posts/read-index.js';
import { OrgIndex, serializePost, termRecord } from '../domain/posts/serialize.js';
import { includeParam } from '../domain/query.js';
import { findTerm, recentPostsOfTerm, termsWithPublishedPosts, type TermKind } from '../domain/terms.js';
import { authOf, requireRead } from '../http/auth.js';
import { parseQuery } from '../http/validate.js';
import type { Term } from '../store/schema.js';
import { cdnBase, methodNotAllowed } from './route-helpers.js';

const includeQuery = z.object({ include: includeParam });

export function termsRouter(ctx: EmulatorContext, kind: TermKind): Router {
  const router = Router({ strict: true });
  const read = requireRead(ctx.store);

  const present = (posts: PostReadIndex, index: OrgIndex, term: Term, include: boolean) =>
    include
      ? { ...termRecord(term), recent_posts: recentPostsOfTerm(posts, kind, term.slug).map((p) => serializePost(index, p)) }
      : termRecord(term);

  router
    .route(`/${kind}/`)
    .get(read, (req, res) => {
      const { organization } = authOf(res);
      const { include } = parseQuery(includeQuery, req);
      const index = new OrgIndex(organization, cdnBase(req), ctx.store.revision);
      const posts = postReadIndex(organization, ctx.store.revision);
      const terms = termsWithPublishedPosts(organization, kind, posts);
      res.json({ data: terms.map((t) => present(posts, index, t, include !== undefined)) });
    })
    .all(methodNotAllowed('GET'));

  router
    .route(`/${kind}/:slug/`)
    .get(read, (req, res) => {
      const { organization } = authOf(res);
      const { include } = parseQuery(includeQuery, req);
      const term = findTerm(organization, kind, String(req.params['slug']));
      if (!term) throw notFound(messages.notFound);
      res.json({
        data: present(
          postReadIndex(organization, ctx.store.revision),
          new OrgIndex(organization, cdnBase(req), ctx.store.revision),
          term,
          include !== undefined,
        ),
      });
    })
    .all(methodNotAllowed('GET'));

  return router;
}
