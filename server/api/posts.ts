/**
 * /posts/ (spec: Endpoints, blog part): list, search, single read, and the three writes.
 * Handlers parse, call the domain, respond; writes enqueue a job and answer 202 at once.
 */
import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { isoNow } from '../clock.js';
import type { EmulatorContext } from '../context.js';
import { notFound } from '../domain/errors.js';
import { messages } from '../domain/messages.js';
import { paginate, pageRequest } from '../domain/pagination.js';
import { applyPostDelete } from '../domain/posts/apply.js';
import { parsePostCreate, parsePostPatch, type SlugRules } from '../domain/posts/input.js';
import { indexedNeighbours, indexedPosts, postReadIndex } from '../domain/posts/read-index.js';
import { neighbourRecord, OrgIndex, serializePost } from '../domain/posts/serialize.js';
import { boolParam, filterParam, flagParam, paginationParams } from '../domain/query.js';
import { hitsFor, searchPosts } from '../domain/search.js';
import { authOf, requireRead, requireWrite } from '../http/auth.js';
import { postSlugs } from '../domain/posts/slug-index.js';
import { jsonBody } from '../http/body.js';
import { bodyObject, parseParams, parseQuery } from '../http/validate.js';
import type { Organization } from '../store/schema.js';
import { cachedJson } from './posts-cache.js';
import { apiCause, cdnBase, methodNotAllowed } from './route-helpers.js';

const listQuery = z.object({
  ...paginationParams,
  preview: flagParam('preview').optional(),
  exclude_body: boolParam('exclude_body').optional(),
  author_slug: filterParam,
  category_slug: filterParam,
  tag_slug: filterParam,
});

const searchQuery = z.object({
  ...paginationParams,
  query: z.string().max(100, { error: messages.queryTooLong }).optional(),
  exclude_body: boolParam('exclude_body').optional(),
});

const slugParams = z.object({ slug: z.string().max(100, { error: messages.pathSlugTooLong }) });

export function postsRouter(ctx: EmulatorContext): Router {
  const router = Router({ strict: true });
  const read = requireRead(ctx.store);
  const write = requireWrite(ctx.store);
  const body = jsonBody(ctx.config.bodyLimit);

  /** Slugs claimed by live posts and by accepted writes still in the queue. */
  function slugRules(org: Organization, exceptPostId: number | null): SlugRules {
    const claimed = new Set<string>();
    for (const job of ctx.jobs.pendingPayloads('post.create')) if (job.organization === org.slug) claimed.add(job.input.slug);
    for (const job of ctx.jobs.pendingPayloads('post.update')) {
      if (job.organization === org.slug && job.postId !== exceptPostId && job.input.slug) claimed.add(job.input.slug);
    }
    const live = postSlugs(org);
    return { isTaken: (slug) => claimed.has(slug) || live.isTaken(slug, exceptPostId) };
  }

  function livePostOr404(req: Request, res: Response) {
    const { organization } = authOf(res);
    const { slug } = parseParams(slugParams, req);
    const post = postReadIndex(organization, ctx.store.revision).liveBySlug.get(slug);
    if (!post) throw notFound(messages.notFound);
    return { organization, post };
  }

  router
    .route('/posts/')
    .get(read, (req, res) => {
      const { organization } = authOf(res);
      cachedJson(req, res, organization, ctx.store.revision, () => {
        const q = parseQuery(listQuery, req);
        const posts = indexedPosts(postReadIndex(organization, ctx.store.revision), q, q.preview ?? false);
        const index = new OrgIndex(organization, cdnBase(req), ctx.store.revision);
        return paginate(posts, pageRequest(q), (p) => serializePost(index, p, { excludeBody: q.exclude_body }));
      });
    })
    .post(write, ...body, async (req, res) => {
      const { organization } = authOf(res);
      const input = parsePostCreate(bodyObject(req), slugRules(organization, null));
      await ctx.jobs.accept(
        'post.create',
        { organization: organization.slug, input },
        { organization: organization.slug, cause: apiCause(res) },
      );
      res.status(202).json({ status: 'pending' });
    })
    .all(methodNotAllowed('GET', 'POST'));

  router
    .route('/posts/search/')
    .get(read, (req, res) => {
      const { organization } = authOf(res);
      cachedJson(req, res, organization, ctx.store.revision, () => {
        const q = parseQuery(searchQuery, req);
        const request = pageRequest(q);
        const hits = hitsFor(searchPosts(organization, ctx.store.revision, q.query ?? ''), request);
        const index = new OrgIndex(organization, cdnBase(req), ctx.store.revision);
        return paginate(hits, request, (hit) => ({ ...serializePost(index, hit.post, { excludeBody: q.exclude_body }), rank: hit.rank }));
      });
    })
    .all(methodNotAllowed('GET'));

  router
    .route('/posts/:slug/')
    .get(read, (req, res) => {
      const { organization } = authOf(res);
      cachedJson(req, res, organization, ctx.store.revision, () => {
        const { post } = livePostOr404(req, res);
        const { next, previous } = indexedNeighbours(postReadIndex(organization, ctx.store.revision), post);
        const index = new OrgIndex(organization, cdnBase(req), ctx.store.revision);
        return {
          meta: { next_post: neighbourRecord(index, next), previous_post: neighbourRecord(index, previous) },
          data: serializePost(index, post, { single: true }),
        };
      });
    })
    .patch(write, ...body, async (req, res) => {
      const { organization, post } = livePostOr404(req, res);
      const { input, warnings } = parsePostPatch(bodyObject(req), slugRules(organization, post.id));
      await ctx.jobs.accept(
        'post.update',
        { organization: organization.slug, postId: post.id, slug: post.slug, input },
        { organization: organization.slug, cause: apiCause(res) },
      );
      res.status(202).json({ status: 'pending', ...warnings });
    })
    .delete(write, async (req, res) => {
      const { organization, post } = livePostOr404(req, res);
      const deleted = ctx.store.mutate(
        () => applyPostDelete(post, isoNow(ctx.clock)),
        () => [{ array: organization.posts, items: [post] }],
      );
      ctx.bus.emit({ type: 'post.deleted', organization: organization.slug, post: deleted, cause: apiCause(res) });
      // Answered only once the deletion is on disk: a 204 is never lost to a crash.
      await ctx.store.flush();
      res.status(204).end();
    })
    .all(methodNotAllowed('GET', 'PATCH', 'DELETE'));

  return router;
}
