/** /__emulator/requests: the request log, filtered, one by one with what it caused, as HAR or NDJSON. */
import { Router, type Request } from 'express';
import { z } from 'zod';
import type { EmulatorContext } from '../context.js';
import { notFound } from '../domain/errors.js';
import { intParam } from '../domain/query.js';
import { toHar } from '../http/har.js';
import { plainRequest, type LoggedRequest, type RequestLog } from '../http/request-log.js';
import { parseParams, parseQuery } from '../http/validate.js';
import { requestSummary, summaryView } from './events.js';
import type { WebhookDispatcher } from '../webhooks/dispatcher.js';

const filterQuery = z.object({
  method: z.string().optional(),
  /** An exact status (`404`) or a class (`4xx`). */
  status: z
    .string()
    .regex(/^([1-5]\d\d|[1-5]xx)$/, { error: 'status is a code such as 404 or a class such as 4xx.' })
    .optional(),
  path: z.string().optional(),
  organization: z.string().optional(),
  surface: z.enum(['api', 'cdn']).optional(),
  since: z.iso.datetime({ offset: true, error: 'since must be an ISO 8601 date-time.' }).optional(),
  until: z.iso.datetime({ offset: true, error: 'until must be an ISO 8601 date-time.' }).optional(),
  limit: intParam('limit', 1, 10_000).optional(),
  view: summaryView,
});
type Filter = z.output<typeof filterQuery>;

function matches(e: LoggedRequest, f: Filter): boolean {
  if (f.method !== undefined && e.method !== f.method.toUpperCase()) return false;
  if (f.status !== undefined) {
    const code = String(e.response.status);
    if (f.status.endsWith('xx') ? code[0] !== f.status[0] : code !== f.status) return false;
  }
  if (f.path !== undefined && !e.path.includes(f.path)) return false;
  if (f.organization !== undefined && e.organization !== f.organization) return false;
  if (f.surface !== undefined && e.surface !== f.surface) return false;
  if (f.since !== undefined && Date.parse(e.time) < Date.parse(f.since)) return false;
  if (f.until !== undefined && Date.parse(e.time) > Date.parse(f.until)) return false;
  return true;
}

export function requestsRouter(ctx: EmulatorContext, log: RequestLog, webhooks: WebhookDispatcher, version: string): Router {
  const router = Router({ strict: true });
  /** Lists default to the newest 100; exports to everything the log holds. */
  const selected = (req: Request, defaultLimit = 100) => {
    const f = parseQuery(filterQuery, req);
    const limit = f.limit ?? defaultLimit;
    // Stops at the limit: entries are made from the log only as far as the list goes.
    const rows: LoggedRequest[] = [];
    for (const e of log.newest()) {
      if (rows.length >= limit) break;
      if (matches(e, f)) rows.push(e);
    }
    return rows;
  };
  /** What a request caused: its background jobs and the webhook deliveries they led to. */
  const caused = (id: string) => ({
    jobs: ctx.jobs.list().filter((j) => j.cause.kind === 'api' && j.cause.requestId === id),
    deliveries: webhooks.log.list().filter((d) => d.cause.kind === 'api' && d.cause.requestId === id),
  });

  router.get('/requests', (req, res) => {
    const rows = selected(req);
    res.json({ data: req.query['view'] === 'summary' ? rows.map(requestSummary) : rows });
  });
  router.get('/requests/export.har', (req, res) => {
    const origin = `${req.protocol}://${req.get('host') ?? 'localhost'}`;
    res.setHeader('Content-Disposition', 'attachment; filename="cms-emulator.har"');
    res.json(toHar(selected(req, Infinity).reverse(), origin, version));
  });
  router.get('/requests/export.ndjson', (req, res) => {
    res.type('application/x-ndjson');
    res.setHeader('Content-Disposition', 'attachment; filename="cms-emulator-requests.ndjson"');
    res.send(
      selected(req, Infinity)
        .reverse()
        .map((e) => JSON.stringify(e) + '\n')
        .join(''),
    );
  });
  router.get('/requests/:id', (req, res) => {
    const { id } = parseParams(z.object({ id: z.string() }), req);
    const entry = log.get(id);
    if (!entry) throw notFound('No such request in the log (it may have been dropped: the log keeps the newest 5000).');
    // Log entries present their fields on read (getters), which a spread would not copy.
    res.json({ data: { ...plainRequest(entry), caused: caused(id) } });
  });
  router.delete('/requests', (_req, res) => {
    log.clear();
    ctx.bus.emit({ type: 'log.cleared', log: 'requests' });
    res.status(204).end();
  });
  return router;
}
