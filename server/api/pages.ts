/**
 * /pages/ (spec: POST /pages/, GET /pages/{page_type}/, PATCH and PUT
 * /pages/{page_type}/{page_slug}/), plus the single-page read the spec leaves open
 * (docs/spec-gaps.md), which `--strict` turns off.
 */
import { Router, type Request, type Response } from 'express';
import type { EmulatorContext } from '../context.js';
import { fieldErrors, forbiddenError, notFound } from '../domain/errors.js';
import { ContentReader } from '../domain/content/reader.js';
import { contentIndex } from '../domain/content/read-index.js';
import { referenceCheck } from '../domain/content/references.js';
import { messages } from '../domain/messages.js';
import { paginate, pageRequest } from '../domain/pagination.js';
import { findLivePage, pageDefs } from '../domain/pages/apply.js';
import { parsePageCreate, parsePagePatch, type MediaToProbe, type PageWriteContext } from '../domain/pages/input.js';
import { listPages } from '../domain/pages/queries.js';
import { authOf, requireRead, requireWrite } from '../http/auth.js';
import { jsonBody } from '../http/body.js';
import { bodyObject } from '../http/validate.js';
import { missingMedia } from '../media/probe.js';
import type { Organization } from '../store/schema.js';
import { parseContentRead, queryLocale } from './content-query.js';
import { apiCause, methodNotAllowed, turnedOff } from './route-helpers.js';

export function pagesRouter(ctx: EmulatorContext): Router {
  const router = Router({ strict: true });
  const read = requireRead(ctx.store);
  const write = requireWrite(ctx.store);
  const body = jsonBody(ctx.config.bodyLimit);
  const { basePath } = ctx.config;

  function writeContext(org: Organization, req: Request): PageWriteContext {
    return { org, locale: queryLocale(req), references: referenceCheck(org) };
  }

  /** Live pages plus creations accepted but not yet finished: both count for slugs and the cap. */
  function pendingCreates(org: Organization) {
    return ctx.jobs.pendingPayloads('page.create').filter((job) => job.organization === org.slug);
  }

  async function refuseMissingMedia(media: MediaToProbe): Promise<void> {
    const errors = await missingMedia(media);
    if (Object.keys(errors).length > 0) throw fieldErrors(errors);
  }

  router
    .route('/pages/')
    .post(write, ...body, async (req, res) => {
      const { organization: org } = authOf(res);
      const slugTaken = (slug: string) =>
        org.pages.some((p) => p.slug === slug && p.deleted === null) || pendingCreates(org).some((job) => job.input.slug === slug);
      const { input, media } = parsePageCreate(writeContext(org, req), bodyObject(req), slugTaken);
      await refuseMissingMedia(media);
      // Another create may have claimed the slug while the media were checked: from here to the
      // enqueue nothing awaits, so this second look is final.
      if (slugTaken(input.slug)) throw fieldErrors({ slug: [messages.pageSlugTaken] });
      const pageCount = org.pages.filter((p) => p.deleted === null).length + pendingCreates(org).length;
      if (org.page_limit !== null && pageCount >= org.page_limit) throw forbiddenError(messages.pageLimitReached(org.page_limit));
      await ctx.jobs.accept(
        'page.create',
        { organization: org.slug, input, locale: queryLocale(req) ?? null },
        { organization: org.slug, cause: apiCause(res) },
      );
      res.status(202).json({ status: 'pending' });
    })
    .all(methodNotAllowed('POST'));

  router
    .route('/pages/:page_type/')
    .get(read, (req, res) => {
      const { organization: org } = authOf(res);
      const request = parseContentRead(req, org, basePath);
      const reader = new ContentReader(org, request.options, contentIndex(org, ctx.store.revision));
      const pageType = String(req.params['page_type']);
      const pages = listPages(org, reader, { pageType, filters: request.filters, order: request.query.order });
      const single = pageType === '*';
      res.json(paginate(pages, pageRequest(request.query), (page) => reader.pageRecord(page, 1, { omitName: single })));
    })
    .all(methodNotAllowed('GET'));

  function pageOr404(req: Request, res: Response) {
    const { organization: org } = authOf(res);
    const pageType = String(req.params['page_type']);
    if (pageType !== '*' && !org.page_types.some((t) => t.key === pageType)) throw notFound(messages.pageTypeNotFound);
    const page = findLivePage(contentIndex(org, ctx.store.revision), String(req.params['page_slug']), pageType);
    if (!page) throw notFound(messages.pageNotFound);
    return { org, page };
  }

  const update = async (req: Request, res: Response) => {
    const { org, page } = pageOr404(req, res);
    const { input, media } = parsePagePatch(writeContext(org, req), page, pageDefs(org, page), bodyObject(req));
    await refuseMissingMedia(media);
    await ctx.jobs.accept(
      'page.update',
      { organization: org.slug, pageId: page.id, input, locale: queryLocale(req) ?? null },
      { organization: org.slug, cause: apiCause(res) },
    );
    res.status(202).json({ status: 'pending' });
  };

  const route = router.route('/pages/:page_type/:page_slug/');
  if (ctx.config.strict) route.get(turnedOff);
  else {
    // Extension (docs/spec-gaps.md): a single page by slug, as the real service serves it.
    route.get(read, (req, res) => {
      const { org, page } = pageOr404(req, res);
      const request = parseContentRead(req, org, basePath);
      const record = new ContentReader(org, request.options, contentIndex(org, ctx.store.revision)).pageRecord(page);
      if (!record) throw notFound(messages.pageNotFound);
      res.json({ data: record });
    });
  }
  route
    .patch(write, ...body, update)
    .put(write, ...body, update)
    .all(methodNotAllowed(...(ctx.config.strict ? [] : ['GET']), 'PATCH', 'PUT'));

  return router;
}
