/**
 * /content/ (spec: POST /content/; PUT, PATCH, DELETE /content/{collection_key}/{item_id}/), and
 * the collection reads the spec leaves open (docs/spec-gaps.md): `/content/{keys}/`,
 * `/content/?keys=…` and `/content/{key}/{item_id}/`, which `--strict` turns off.
 */
import { Router, type Request, type Response } from 'express';
import type { EmulatorContext } from '../context.js';
import { badRequest, notFound } from '../domain/errors.js';
import { applyItemDelete, nextItemId } from '../domain/collections/apply.js';
import { collectionKeyOf, findCollection, parseItemWrite } from '../domain/collections/input.js';
import { findLiveItem, listItems, parseKeys } from '../domain/collections/queries.js';
import { ContentReader } from '../domain/content/reader.js';
import { contentIndex, type ContentIndex } from '../domain/content/read-index.js';
import { messages } from '../domain/messages.js';
import { paginate, pageRequest } from '../domain/pagination.js';
import { isoNow } from '../clock.js';
import { authOf, requireRead, requireWrite } from '../http/auth.js';
import { jsonBody } from '../http/body.js';
import { bodyObject } from '../http/validate.js';
import type { Organization } from '../store/schema.js';
import { parseContentRead, type ContentRead, queryLocale } from './content-query.js';
import { apiCause, methodNotAllowed, turnedOff } from './route-helpers.js';

function itemOr404(org: Organization, index: ContentIndex, req: Request) {
  const collection = findCollection(org, String(req.params['collection_key']));
  const raw = String(req.params['item_id']);
  const id = /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
  const item = findLiveItem(index, collection, id);
  if (!item) throw notFound(messages.itemNotFound);
  return { collection, item };
}

/**
 * `{data: {key: [items]}}`, the real service's multi-key form. Filters and order apply to a
 * single key; with several keys, and for pagination in this form, use `/content/{key}/`.
 */
function readSeveral(org: Organization, index: ContentIndex, req: Request, read: ContentRead, keys: string) {
  const selected = parseKeys(org, keys);
  const paginated = ['page', 'page_size', 'limit', 'offset'].some((p) => p in req.query);
  const listOptions = read.filters.length > 0 || read.query.order !== undefined;
  if (paginated || (selected.length > 1 && listOptions)) throw badRequest(messages.severalKeysOptions);
  const reader = new ContentReader(org, read.options, index);
  const data: Record<string, unknown[]> = {};
  for (const { collection, selector } of selected) {
    const items = listItems(org, reader, collection, { filters: read.filters, order: read.query.order, selector: selector.filter });
    data[selector.key] = items.map((item) => reader.itemRecord(collection, item));
  }
  return data;
}

export function contentRouter(ctx: EmulatorContext): Router {
  const router = Router({ strict: true });
  const read = requireRead(ctx.store);
  const write = requireWrite(ctx.store);
  const body = jsonBody(ctx.config.bodyLimit);
  const { basePath, strict } = ctx.config;

  const root = router.route('/content/');
  if (strict) root.get(turnedOff);
  else {
    root.get(read, (req, res) => {
      const { organization: org } = authOf(res);
      const keys = (req.query as Record<string, unknown>)['keys'];
      if (keys !== undefined && typeof keys !== 'string') throw badRequest(messages.repeatedParam('keys'));
      // Real service: an empty `keys` answers `{}`.
      if (!keys) {
        res.json({});
        return;
      }
      res.json({ data: readSeveral(org, contentIndex(org, ctx.store.revision), req, parseContentRead(req, org, basePath), keys) });
    });
  }
  root
    .post(write, ...body, async (req, res) => {
      const { organization: org } = authOf(res);
      const payload = bodyObject(req);
      const collection = findCollection(org, collectionKeyOf(payload));
      const input = parseItemWrite(org, collection, payload, queryLocale(req), true);
      const reserved = ctx.jobs
        .pendingPayloads('item.create')
        .filter((job) => job.organization === org.slug)
        .map((job) => job.itemId);
      const itemId = nextItemId(org, reserved);
      await ctx.jobs.accept(
        'item.create',
        { organization: org.slug, collection: collection.key, itemId, input },
        { organization: org.slug, cause: apiCause(res) },
      );
      res.status(202).json({ status: 'pending' });
    })
    .all(methodNotAllowed('POST', ...(strict ? [] : ['GET'])));

  if (!strict) {
    router
      .route('/content/:keys/')
      .get(read, (req, res) => {
        const { organization: org } = authOf(res);
        const request = parseContentRead(req, org, basePath);
        const keys = String(req.params['keys']);
        const selected = parseKeys(org, keys);
        const index = contentIndex(org, ctx.store.revision);
        if (selected.length !== 1) {
          res.json({ data: readSeveral(org, index, req, request, keys) });
          return;
        }
        const { collection, selector } = selected[0]!;
        const reader = new ContentReader(org, request.options, index);
        const items = listItems(org, reader, collection, {
          filters: request.filters,
          order: request.query.order,
          selector: selector.filter,
        });
        const page = paginate(items, pageRequest(request.query), (item) => reader.itemRecord(collection, item));
        res.json({ meta: page.meta, data: { [selector.key]: page.data } });
      })
      .all(methodNotAllowed('GET'));
  }

  const update = (replace: boolean) => async (req: Request, res: Response) => {
    const { organization: org } = authOf(res);
    const { collection, item } = itemOr404(org, contentIndex(org, ctx.store.revision), req);
    const input = parseItemWrite(org, collection, bodyObject(req), queryLocale(req), replace);
    await ctx.jobs.accept(
      'item.update',
      { organization: org.slug, collection: collection.key, itemId: item.id, input, replace },
      { organization: org.slug, cause: apiCause(res) },
    );
    res.status(202).json({ status: 'pending' });
  };

  const itemRoute = router.route('/content/:collection_key/:item_id/');
  if (strict) itemRoute.get(turnedOff);
  else {
    itemRoute.get(read, (req, res) => {
      const { organization: org } = authOf(res);
      const request = parseContentRead(req, org, basePath);
      const index = contentIndex(org, ctx.store.revision);
      const { collection, item } = itemOr404(org, index, req);
      const reader = new ContentReader(org, request.options, index);
      if (!reader.itemVisible(item)) throw notFound(messages.itemNotFound);
      res.json({ data: reader.itemRecord(collection, item) });
    });
  }
  itemRoute
    .put(write, ...body, update(true))
    .patch(write, ...body, update(false))
    .delete(write, async (req, res) => {
      const { organization: org } = authOf(res);
      const { collection, item } = itemOr404(org, contentIndex(org, ctx.store.revision), req);
      const deleted = ctx.store.mutate(
        () => applyItemDelete(item, isoNow(ctx.clock)),
        () => [{ array: collection.items, items: [item] }],
      );
      ctx.bus.emit({ type: 'item.deleted', organization: org.slug, collection: collection.key, item: deleted, cause: apiCause(res) });
      // Spec: webhooks and reference cleanup run in the background.
      await ctx.jobs.accept(
        'references.cleanup',
        { organization: org.slug, target: { collection: collection.key, id: item.id } },
        { organization: org.slug, cause: apiCause(res) },
      );
      // Answered only once the deletion is on disk: a 204 is never lost to a crash.
      await ctx.store.flush();
      res.status(204).end();
    })
    .all(methodNotAllowed(...(strict ? [] : ['GET']), 'PUT', 'PATCH', 'DELETE'));

  return router;
}
