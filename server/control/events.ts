/**
 * GET /__emulator/events: the live stream of the emulator (docs/control-api.md). What goes out:
 * `snapshot` (recent requests, jobs, deliveries, the clock), then `request`, `job`, `delivery`,
 * `change` (content changed through the API, a dashboard action or the scheduler), `state`
 * (reset, import, snapshot restored) and `clock`. Payloads are summaries; details are one GET away.
 */
import { Router } from 'express';
import { z } from 'zod';
import type { EmulatorEvent, RequestEvent } from '../bus.js';
import type { EmulatorClock } from '../clock.js';
import type { EmulatorContext } from '../context.js';
import type { LoggedRequest, RequestLog } from '../http/request-log.js';
import { EventStream, type SseBody } from '../http/sse.js';
import type { StoreWatcher } from '../store/watch.js';
import type { Delivery } from '../webhooks/delivery.js';
import type { WebhookDispatcher } from '../webhooks/dispatcher.js';

export const requestSummary = (r: LoggedRequest) => ({
  id: r.id,
  time: r.time,
  surface: r.surface,
  method: r.method,
  url: r.url,
  status: r.response.status,
  duration_ms: r.duration_ms,
  organization: r.organization,
});

export const deliverySummary = (d: Delivery) => ({
  id: d.id,
  organization: d.organization,
  webhook_id: d.webhook_id,
  event: d.event,
  target: d.target,
  state: d.state,
  attempts: d.attempts.length,
  status: d.attempts.at(-1)?.status ?? null,
  duration_ms: d.attempts.at(-1)?.duration_ms ?? null,
  replay_of: d.replay_of,
  created: d.created,
  finished: d.finished,
});

/** `?view=summary` on the request and delivery lists: the rows the live stream sends, nothing more. */
export const summaryView = z.enum(['full', 'summary'], { error: 'view is full or summary.' }).optional();

export type RequestSummary = ReturnType<typeof requestSummary>;
export type DeliverySummary = ReturnType<typeof deliverySummary>;
export type EventsSnapshot = ReturnType<typeof snapshotOf>;

function snapshotOf(
  ctx: EmulatorContext,
  services: { requests: RequestLog; webhooks: WebhookDispatcher; clock: EmulatorClock; watcher: StoreWatcher },
) {
  return {
    requests: services.requests.list().slice(0, 100).map(requestSummary),
    jobs: [...ctx.jobs.list()].reverse().slice(0, 100),
    deliveries: services.webhooks.log.list().slice(0, 100).map(deliverySummary),
    clock: services.clock.state(),
    store: { file: ctx.store.file, error: services.watcher.state.error, broken_copy: ctx.store.brokenCopy },
    organizations: ctx.store.organizations().map((o) => ({ slug: o.slug, name: o.name })),
  };
}

/** A request's message: its summary. */
const requestMessage = (entry: LoggedRequest): SseBody => ({ event: 'request', data: requestSummary(entry) });

/**
 * What an event says, without the records themselves. Requests are not here: their messages are
 * kept by reference (createEventStream).
 */
function change(event: Exclude<EmulatorEvent, RequestEvent>): SseBody | null {
  switch (event.type) {
    case 'post.created':
    case 'post.updated':
    case 'post.deleted':
      return {
        event: 'change',
        data: { type: event.type, organization: event.organization, slug: event.post.slug, status: event.post.status, cause: event.cause },
      };
    case 'page.created':
    case 'page.updated':
      return {
        event: 'change',
        data: {
          type: event.type,
          organization: event.organization,
          slug: event.page.slug,
          page_type: event.page.page_type,
          cause: event.cause,
        },
      };
    case 'item.created':
    case 'item.updated':
    case 'item.deleted':
      return {
        event: 'change',
        data: { type: event.type, organization: event.organization, collection: event.collection, id: event.item.id, cause: event.cause },
      };
    case 'media.created':
      return { event: 'change', data: { type: event.type, organization: event.organization, id: event.media.id, cause: event.cause } };
    case 'job.queued':
    case 'job.started':
    case 'job.succeeded':
    case 'job.failed':
      return { event: 'job', data: event.job };
    case 'delivery.created':
    case 'delivery.updated':
      return { event: 'delivery', data: deliverySummary(event.delivery) };
    case 'store.replaced':
      return { event: 'state', data: { reason: event.reason } };
    case 'store.error':
      return { event: 'store-error', data: { message: event.message, file: event.file } };
    case 'store.recovered':
      return { event: 'store-error', data: null };
    case 'log.cleared':
      return { event: 'cleared', data: { log: event.log } };
    case 'clock.changed':
      return { event: 'clock', data: { now: event.now } };
  }
}

export function createEventStream(
  ctx: EmulatorContext,
  services: { requests: RequestLog; webhooks: WebhookDispatcher; clock: EmulatorClock; watcher: StoreWatcher },
): EventStream {
  const stream = new EventStream(() => snapshotOf(ctx, services), {
    resolve: (sequence) => {
      const entry = services.requests.at(sequence);
      return entry ? requestMessage(entry) : null;
    },
  });
  ctx.bus.subscribe((event) => {
    // One per request: kept in the stream's ring as the log's number for it, not as a summary.
    if (event.type === 'request.logged') {
      stream.publishRef(event.sequence, () => requestMessage(event.request));
      return;
    }
    const message = change(event);
    if (message) stream.publish(message.event, message.data);
  });
  return stream;
}

export function eventsRouter(stream: EventStream): Router {
  const router = Router({ strict: true });
  router.get('/events', (req, res) => stream.handle(req, res));
  return router;
}
