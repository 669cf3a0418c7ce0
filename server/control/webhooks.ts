/**
 * /__emulator/deliveries and /__emulator/inboxes (docs/control-api.md): list, inspect, wait for
 * and replay webhook deliveries; configure and read the built-in receivers.
 */
import { deliverySummary, summaryView } from './events.js';
import type { EventBus } from '../bus.js';
import express, { Router } from 'express';
import { z } from 'zod';
import { detailError, notFound } from '../domain/errors.js';
import { intParam } from '../domain/query.js';
import { parseParams, parseQuery, parseControlBody } from '../http/validate.js';
import { inboxSchema } from '../store/schema.js';
import type { WebhookDispatcher } from '../webhooks/dispatcher.js';
import type { InboxHub } from '../webhooks/inboxes.js';
import { matchesFilter } from '../webhooks/dispatcher.js';

const filterQuery = {
  organization: z.string().optional(),
  event: z.string().optional(),
  webhook: z.string().optional(),
  target: z.string().optional(),
  state: z.enum(['pending', 'sending', 'retrying', 'succeeded', 'failed', 'finished']).optional(),
  since: z.iso.datetime({ offset: true, error: 'since must be an ISO 8601 date-time.' }).optional(),
};
const listQuery = z.object({ ...filterQuery, limit: intParam('limit', 1, 2000).optional(), view: summaryView });
const waitQuery = z.object({ ...filterQuery, timeout_ms: intParam('timeout_ms', 1, 120_000).optional() });
const idParams = z.object({ id: z.string() });
const nameParams = z.object({ name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'An inbox name is letters, digits, "_" or "-".') });

const replayBody = z
  .object({
    body: z.unknown().optional(),
    headers: z.record(z.string(), z.string()).optional(),
    target: z
      .string()
      .regex(/^(https?:\/\/\S+|inbox:[A-Za-z0-9_-]{1,64})$/, 'target is an http(s) URL or inbox:<name>')
      .optional(),
  })
  .strict();
/** No defaults here: what a PUT leaves out keeps its current value. */
const inboxConfigBody = z
  .object({
    status: inboxSchema.shape.status.unwrap().optional(),
    delay_ms: inboxSchema.shape.delay_ms.unwrap().optional(),
    fail_first: inboxSchema.shape.fail_first.unwrap().optional(),
  })
  .strict();

export function webhooksControlRouter(dispatcher: WebhookDispatcher, inboxes: InboxHub, bus: EventBus): Router {
  const router = Router({ strict: true });
  const json = express.json({ limit: '5mb' });

  router.get('/deliveries', (req, res) => {
    const q = parseQuery(listQuery, req);
    const data = dispatcher.log
      .list()
      .filter((d) => matchesFilter(d, q))
      .slice(0, q.limit ?? 100);
    res.json({ data: q.view === 'summary' ? data.map(deliverySummary) : data });
  });

  router.delete('/deliveries', (_req, res) => {
    dispatcher.log.clear();
    bus.emit({ type: 'log.cleared', log: 'deliveries' });
    res.status(204).end();
  });

  /** Long poll: the oldest delivery matching the filter (default: finished ones), or 408. */
  router.get('/deliveries/wait', async (req, res) => {
    const q = parseQuery(waitQuery, req);
    const timeout = q.timeout_ms ?? 5000;
    const delivery = await dispatcher.waitFor({ ...q, state: q.state ?? 'finished' }, timeout);
    if (!delivery) throw detailError(408, `No delivery matched within ${timeout} ms.`);
    res.json({ data: delivery });
  });

  router.get('/deliveries/:id', (req, res) => {
    const delivery = dispatcher.log.get(parseParams(idParams, req).id);
    if (!delivery) throw notFound('No such delivery.');
    res.json({ data: delivery });
  });

  router.post('/deliveries/:id/replay', json, (req, res) => {
    const original = dispatcher.log.get(parseParams(idParams, req).id);
    if (!original) throw notFound('No such delivery.');
    const edits = parseControlBody(replayBody, req.body);
    res.status(201).json({ data: dispatcher.replay(original, edits) });
  });

  router.get('/inboxes', (_req, res) => {
    res.json({ data: inboxes.list() });
  });

  router.put('/inboxes/:name/config', json, (req, res) => {
    const { name } = parseParams(nameParams, req);
    res.json({ data: inboxes.configure(name, parseControlBody(inboxConfigBody, req.body)) });
  });

  router.get('/inboxes/:name', (req, res) => {
    const { name } = parseParams(nameParams, req);
    res.json({ data: { ...inboxes.config(name), requests: inboxes.requests(name) } });
  });

  router.delete('/inboxes/:name/requests', (req, res) => {
    inboxes.clear(parseParams(nameParams, req).name);
    res.status(204).end();
  });

  /** The receiver itself: whatever arrives is recorded and answered as configured. */
  router.post('/inboxes/:name', express.text({ type: () => true, limit: '5mb' }), async (req, res) => {
    const { name } = parseParams(nameParams, req);
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));
    const answer = await inboxes.receive(name, { method: req.method, headers, body: typeof req.body === 'string' ? req.body : '' });
    res.status(answer.status).json(answer.body);
  });

  return router;
}
