/**
 * The emulator's own surface under /__emulator/ (ARCHITECTURE: control vs emulated surface):
 * never part of the emulated API. Documented in docs/control-api.md.
 */
import { dirname } from 'node:path';
import express, { Router } from 'express';
import { z } from 'zod';
import type { EmulatorClock } from '../clock.js';
import { CDN_PATH } from '../media/cdn-path.js';
import type { EmulatorContext } from '../context.js';
import { notFound } from '../domain/errors.js';
import { parseControlBody } from '../http/validate.js';
import type { RequestLog } from '../http/request-log.js';
import type { WebhookDispatcher } from '../webhooks/dispatcher.js';
import type { InboxHub } from '../webhooks/inboxes.js';
import { contentRouter } from './content.js';
import { dashboardRouter } from './dashboard.js';
import { eventsRouter } from './events.js';
import { controlOpenApi } from './openapi.js';
import type { EventStream } from '../http/sse.js';
import type { StoreWatcher } from '../store/watch.js';
import { clockRouter, jobsRouter } from './jobs-clock.js';
import { requestsRouter } from './requests.js';
import type { StateService } from './state-service.js';
import { stateRouter } from './state.js';
import { webhooksControlRouter } from './webhooks.js';

export const CONTROL_PATH = '/__emulator';

export interface ControlServices {
  webhooks: WebhookDispatcher;
  inboxes: InboxHub;
  requests: RequestLog;
  state: StateService;
  clock: EmulatorClock;
  events: EventStream;
  watcher: StoreWatcher;
  version: string;
}

export function controlRouter(ctx: EmulatorContext, services: ControlServices): Router {
  const router = Router({ strict: true });
  router.use(webhooksControlRouter(services.webhooks, services.inboxes, ctx.bus));
  router.use(requestsRouter(ctx, services.requests, services.webhooks, services.version));
  router.use(jobsRouter(ctx, services.webhooks));
  router.use(clockRouter(ctx, services.clock));
  router.use(stateRouter(services.state, '100mb'));
  router.use(dashboardRouter(ctx));
  router.use(contentRouter(ctx));
  router.use(eventsRouter(services.events));
  const storeState = () => ({
    file: ctx.store.file,
    error: services.watcher.state.error,
    broken_copy: ctx.store.brokenCopy,
    writes: ctx.store.writes,
    edits_fire_webhooks: services.watcher.state.editsFireWebhooks,
  });
  // What the UI's Settings view shows; URLs are the client's own origin plus these paths.
  router.get('/info', (_req, res) => {
    res.json({
      data: {
        version: services.version,
        data_dir: dirname(ctx.store.file),
        data_file: ctx.store.file,
        base_path: ctx.config.basePath,
        cdn_path: CDN_PATH,
        strict: ctx.config.strict,
        control_token_required: ctx.config.controlToken !== undefined,
      },
    });
  });
  router.get('/store', (_req, res) => {
    res.json({ data: storeState() });
  });
  router.put('/store/settings', express.json(), (req, res) => {
    const { edits_fire_webhooks } = parseControlBody(z.object({ edits_fire_webhooks: z.boolean() }).strict(), req.body);
    services.watcher.state.editsFireWebhooks = edits_fire_webhooks;
    res.json({ data: storeState() });
  });
  const openapi = controlOpenApi(services.version);
  router.get('/openapi.json', (_req, res) => {
    res.json(openapi);
  });
  router.use(() => {
    throw notFound('No such control endpoint. See docs/control-api.md.');
  });
  return router;
}
