/** /__emulator/jobs (background jobs, waiting for idle) and /__emulator/clock (the emulator's time). */
import express, { Router } from 'express';
import { z } from 'zod';
import type { EmulatorClock } from '../clock.js';
import type { EmulatorContext } from '../context.js';
import { detailError } from '../domain/errors.js';
import { intParam } from '../domain/query.js';
import { parseQuery, parseControlBody } from '../http/validate.js';
import type { WebhookDispatcher } from '../webhooks/dispatcher.js';

const jobsQuery = z.object({
  status: z.enum(['queued', 'running', 'succeeded', 'failed']).optional(),
  kind: z.string().optional(),
  organization: z.string().optional(),
  limit: intParam('limit', 1, 2000).optional(),
});
const idleQuery = z.object({
  timeout_ms: intParam('timeout_ms', 1, 120_000).optional(),
  /** `1`: also wait for webhook deliveries in flight. */
  deliveries: z.enum(['0', '1']).optional(),
});
const setClock = z
  .object({ now: z.iso.datetime({ offset: true, error: 'now must be an ISO 8601 date-time.' }), freeze: z.boolean().optional() })
  .strict();
const advanceClock = z
  .object({
    ms: z.int().min(0).optional(),
    seconds: z.number().min(0).optional(),
    minutes: z.number().min(0).optional(),
    hours: z.number().min(0).optional(),
    days: z.number().min(0).optional(),
  })
  .strict();

export function jobsRouter(ctx: EmulatorContext, webhooks: WebhookDispatcher): Router {
  const router = Router({ strict: true });
  router.get('/jobs', (req, res) => {
    const q = parseQuery(jobsQuery, req);
    const data = [...ctx.jobs.list()]
      .reverse()
      .filter((j) => (q.status === undefined || j.status === q.status) && (q.kind === undefined || j.kind === q.kind))
      .filter((j) => q.organization === undefined || j.organization === q.organization)
      .slice(0, q.limit ?? 100);
    res.json({ data });
  });
  /** 200 once every accepted write has finished (and deliveries, with deliveries=1); 408 past the timeout. */
  router.get('/jobs/idle', async (req, res) => {
    const q = parseQuery(idleQuery, req);
    const timeout = q.timeout_ms ?? 10_000;
    const settled = (async () => {
      while (!ctx.jobs.isIdle()) await ctx.jobs.idle();
      if (q.deliveries === '1') await webhooks.idle();
      await ctx.store.flush();
      return true;
    })();
    let timer: NodeJS.Timeout | undefined;
    const idle = await Promise.race([settled, new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeout)))]);
    clearTimeout(timer);
    if (!idle) throw detailError(408, `Still busy after ${timeout} ms.`);
    res.json({ data: { idle: true } });
  });
  return router;
}

export function clockRouter(ctx: EmulatorContext, clock: EmulatorClock): Router {
  const router = Router({ strict: true });
  const json = express.json();
  const answer = () => {
    ctx.bus.emit({ type: 'clock.changed', now: clock.now().toISOString() });
    return { data: clock.state() };
  };
  router.get('/clock', (_req, res) => {
    res.json({ data: clock.state() });
  });
  router.put('/clock', json, (req, res) => {
    const { now, freeze } = parseControlBody(setClock, req.body);
    clock.set(new Date(now), freeze ?? false);
    res.json(answer());
  });
  router.post('/clock/advance', json, (req, res) => {
    const b = parseControlBody(advanceClock, req.body);
    const ms = (b.ms ?? 0) + (b.seconds ?? 0) * 1e3 + (b.minutes ?? 0) * 6e4 + (b.hours ?? 0) * 3.6e6 + (b.days ?? 0) * 8.64e7;
    clock.advance(ms);
    res.json(answer());
  });
  router.delete('/clock', (_req, res) => {
    clock.reset();
    res.json(answer());
  });
  return router;
}
