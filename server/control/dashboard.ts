/**
 * Dashboard actions (docs/control-api.md): what the real service's dashboard does to content,
 * with the webhooks it would fire. POST /__emulator/organizations/{org}/{posts|pages}/{slug}/{action}
 * and POST /__emulator/organizations/{org}/collections/{key}/items/{id}/{action}.
 */
import express, { Router, type Request } from 'express';
import { z } from 'zod';
import type { EmulatorContext } from '../context.js';
import { actOnItem, actOnPage, actOnPost } from '../domain/dashboard.js';
import { detailError, notFound } from '../domain/errors.js';
import type { Cause } from '../domain/events.js';
import { ownerName } from '../domain/webhooks/payloads.js';
import { parseParams } from '../http/validate.js';
import type { Organization } from '../store/schema.js';

const atBody = z.object({ at: z.iso.datetime({ offset: true, error: '"at" must be an ISO 8601 date-time.' }).optional() }).strict();
const postOrPage = z.object({ org: z.string(), slug: z.string(), action: z.string() });
const itemParams = z.object({ org: z.string(), key: z.string(), id: z.string(), action: z.string() });
const POST_ACTIONS = ['publish', 'unpublish', 'schedule', 'delete'] as const;
const ITEM_ACTIONS = ['publish', 'unpublish', 'delete'] as const;

/** An action a record does not have is a path that does not exist: 404. */
function actionOf<T extends string>(action: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(action))
    throw notFound(`No action "${action}" here; the actions are ${allowed.join(', ')}.`);
  return action as T;
}

export function dashboardRouter(ctx: EmulatorContext): Router {
  const router = Router({ strict: true });
  const json = express.json();

  function organization(slug: string): Organization {
    const org = ctx.store.organization(slug);
    if (!org) throw notFound(`No organization "${slug}".`);
    return org;
  }
  function scheduledAt(req: Request): string | null {
    const result = atBody.safeParse(req.body ?? {});
    if (!result.success) throw detailError(400, result.error.issues[0]?.message ?? 'Invalid body.');
    return result.data.at === undefined ? null : new Date(result.data.at).toISOString();
  }
  const cause = (action: string): Cause => ({ kind: 'control', action: `dashboard ${action}` });

  router.post('/organizations/:org/posts/:slug/:action', json, (req, res) => {
    const { org: slug, slug: postSlug, action: name } = parseParams(postOrPage, req);
    const action = actionOf(name, POST_ACTIONS);
    const org = organization(slug);
    const post = org.posts.find((p) => p.slug === postSlug && p.deleted === null);
    if (!post) throw notFound(`No post "${postSlug}".`);
    const at = scheduledAt(req);
    const { before, after } = ctx.store.mutate(() => actOnPost(post, action, ctx.clock.now().toISOString(), at));
    const event =
      action === 'delete' ? ({ type: 'post.deleted', post: after } as const) : ({ type: 'post.updated', post: after, before } as const);
    ctx.bus.emit({ ...event, organization: org.slug, cause: cause(action) });
    res.json({ data: after });
  });

  router.post('/organizations/:org/pages/:slug/:action', json, (req, res) => {
    const { org: slug, slug: pageSlug, action: name } = parseParams(postOrPage, req);
    const action = actionOf(name, POST_ACTIONS);
    const org = organization(slug);
    const page = org.pages.find((p) => p.slug === pageSlug && p.deleted === null);
    if (!page) throw notFound(`No page "${pageSlug}".`);
    const at = scheduledAt(req);
    const { before, after } = ctx.store.mutate(() => actOnPage(page, action, ctx.clock.now().toISOString(), at, ownerName(org)));
    ctx.bus.emit({ type: 'page.updated', organization: org.slug, page: after, before, locale: null, cause: cause(action) });
    if (action === 'delete' && after.page_type !== null) {
      const target = { page_type: after.page_type, slug: after.slug };
      ctx.jobs.enqueue('references.cleanup', { organization: org.slug, target }, { organization: org.slug, cause: cause(action) });
    }
    res.json({ data: after });
  });

  router.post('/organizations/:org/collections/:key/items/:id/:action', (req, res) => {
    const { org: slug, key, id, action: name } = parseParams(itemParams, req);
    const action = actionOf(name, ITEM_ACTIONS);
    const org = organization(slug);
    const collection = org.collections.find((c) => c.key === key);
    const item = /^\d{1,15}$/.test(id) ? collection?.items.find((i) => i.id === Number(id) && i.deleted === null) : undefined;
    if (!collection || !item) throw notFound(`No item ${id} in collection "${key}".`);
    const { before, after } = ctx.store.mutate(() => actOnItem(item, action, ctx.clock.now().toISOString()));
    const event =
      action === 'delete' ? ({ type: 'item.deleted', item: after } as const) : ({ type: 'item.updated', item: after, before } as const);
    ctx.bus.emit({ ...event, organization: org.slug, collection: key, cause: cause(action) });
    if (action === 'delete') {
      ctx.jobs.enqueue(
        'references.cleanup',
        { organization: org.slug, target: { collection: key, id: item.id } },
        { organization: org.slug, cause: cause(action) },
      );
    }
    res.json({ data: after });
  });

  return router;
}
