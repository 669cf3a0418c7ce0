/**
 * The emulator's own surface under /__emulator/ (ARCHITECTURE: control vs emulated surface):
 * never part of the emulated API. Documented in docs/control-api.md.
 */
import { Router } from 'express';
import { notFound } from '../domain/errors.js';
import type { WebhookDispatcher } from '../webhooks/dispatcher.js';
import type { InboxHub } from '../webhooks/inboxes.js';
import { webhooksControlRouter } from './webhooks.js';

export const CONTROL_PATH = '/__emulator';

export interface ControlServices {
  webhooks: WebhookDispatcher;
  inboxes: InboxHub;
}

export function controlRouter(services: ControlServices): Router {
  const router = Router({ strict: true });
  router.use(webhooksControlRouter(services.webhooks, services.inboxes));
  router.use(() => {
    throw notFound('No such control endpoint. See docs/control-api.md.');
  });
  return router;
}
