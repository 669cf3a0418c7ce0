/**
 * Turns domain events into webhook deliveries (issue 5, ARCHITECTURE convention 8): for every
 * enabled webhook of the organization that subscribes to a kind the change fires, one delivery.
 * Deliveries to one target go out one after another in the order of the changes that caused
 * them (a lane per target URL); retries, when a webhook configures them, happen inside the lane.
 * Nothing here runs on the request path, so a slow or dead receiver never slows the API.
 */
import { randomUUID } from 'node:crypto';
import type { EmulatorEvent } from '../bus.js';
import type { EmulatorContext } from '../context.js';
import type { Cause, DomainEvent } from '../domain/events.js';
import { itemKinds, pageKinds, pageWebhookStatus, postKinds } from '../domain/webhooks/kinds.js';
import { itemPayload, mediaPayload, pagePayload, postPayload } from '../domain/webhooks/payloads.js';
import type { Organization, Webhook, WebhookEvent } from '../store/schema.js';
import type { Delivery } from './delivery.js';
import type { DeliveryLog } from './delivery-log.js';
import { attemptDelivery } from './send.js';

export const INBOX_PATH = '/__emulator/inboxes';

export interface ReplayEdits {
  /** A new body: a JSON value (sent as JSON) or a string (sent as it is). */
  body?: unknown;
  /** Replaces the headers of the original request. */
  headers?: Record<string, string>;
  /** Another URL, or `inbox:<name>`. */
  target?: string;
}

export interface DeliveryFilter {
  organization?: string | undefined;
  event?: string | undefined;
  webhook?: string | undefined;
  state?: Delivery['state'] | 'finished' | undefined;
  target?: string | undefined;
  /** Only deliveries created at or after this ISO time. */
  since?: string | undefined;
}

export function matchesFilter(d: Delivery, f: DeliveryFilter): boolean {
  if (f.organization !== undefined && d.organization !== f.organization) return false;
  if (f.event !== undefined && d.event !== f.event) return false;
  if (f.webhook !== undefined && d.webhook_id !== f.webhook) return false;
  if (f.target !== undefined && !d.target.includes(f.target)) return false;
  // Instants, not strings: `…52Z`, `…52.000Z` and `…54+02:00` may all be the same time.
  if (f.since !== undefined && Date.parse(d.created) < Date.parse(f.since)) return false;
  if (f.state === 'finished') return d.state === 'succeeded' || d.state === 'failed';
  if (f.state !== undefined && d.state !== f.state) return false;
  return true;
}

/** Waits `ms`, or less if `signal` aborts first. */
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

export class WebhookDispatcher {
  private readonly lanes = new Map<string, Promise<void>>();
  private inFlight = 0;
  private idleWaiters: (() => void)[] = [];
  /** Aborted by close(): attempts in flight end, and nothing more is sent. */
  private readonly stopping = new AbortController();

  constructor(
    private readonly ctx: EmulatorContext,
    readonly log: DeliveryLog,
    /** Root URL of the running server (for inbox targets); null before start. */
    private readonly serverUrl: () => string | null,
  ) {}

  /** Subscribes to the bus; returns the unsubscribe function. */
  attach(): () => void {
    return this.ctx.bus.subscribe((event) => this.onEvent(event));
  }

  private onEvent(event: EmulatorEvent): void {
    const notification = this.describe(event);
    if (!notification) return;
    const org = this.ctx.store.organization(notification.organization);
    if (!org) return;
    for (const webhook of org.webhooks) {
      if (!webhook.enabled) continue;
      for (const kind of notification.kinds) {
        if (webhook.events.includes(kind)) this.send(this.create(org, webhook, kind, notification.data, notification.cause));
      }
    }
  }

  /** Which kinds a domain event fires, and the `data` they carry (docs/webhooks.md). */
  private describe(event: EmulatorEvent): { organization: string; kinds: WebhookEvent[]; data: unknown; cause: Cause } | null {
    const e = event as DomainEvent;
    const org = 'organization' in e ? this.ctx.store.organization(e.organization) : undefined;
    if (!org) return null;
    const now = this.ctx.clock.now();
    const basePath = this.ctx.config.basePath;
    switch (e.type) {
      case 'post.created':
        return { organization: e.organization, kinds: postKinds(null, e.post), data: postPayload(e.post), cause: e.cause };
      case 'post.updated':
        return { organization: e.organization, kinds: postKinds(e.before, e.post), data: postPayload(e.post), cause: e.cause };
      case 'post.deleted':
        return { organization: e.organization, kinds: postKinds(e.post, null), data: postPayload(e.post), cause: e.cause };
      case 'page.created':
      case 'page.updated': {
        const before = e.type === 'page.updated' ? e.before : null;
        const data = pagePayload(e.page, pageWebhookStatus(e.page), e.locale, org, now);
        return { organization: e.organization, kinds: pageKinds(before, e.page), data, cause: e.cause };
      }
      case 'item.created':
      case 'item.updated':
      case 'item.deleted': {
        const before = e.type === 'item.updated' ? e.before : null;
        const data = itemPayload(org, e.collection, e.item, basePath, now);
        return { organization: e.organization, kinds: itemKinds(before, e.item), data, cause: e.cause };
      }
      case 'media.created': {
        if (!e.media.content_type.startsWith('video/')) return null;
        const cdn = `${this.serverUrl() ?? ''}/cdn`;
        return { organization: e.organization, kinds: ['media.videouploaded'], data: mediaPayload(e.media, cdn), cause: e.cause };
      }
      default:
        return null;
    }
  }

  /** `inbox:<name>` is a built-in receiver on the emulator's own port. */
  resolveTarget(url: string): string {
    if (!url.startsWith('inbox:')) return url;
    return `${this.serverUrl() ?? 'http://emulator-not-listening.invalid'}${INBOX_PATH}/${url.slice('inbox:'.length)}`;
  }

  private create(org: Organization, webhook: Webhook, kind: WebhookEvent, data: unknown, cause: Cause): Delivery {
    const target = this.resolveTarget(webhook.url);
    return this.record({
      organization: org.slug,
      webhook_id: webhook.id,
      event: kind,
      target,
      headers: { 'content-type': 'application/json', 'user-agent': 'cms-emulator-webhooks/1', ...webhook.headers },
      body: JSON.stringify({ data, webhook: { event: kind, target } }),
      retryDelays: webhook.retry_delays_ms,
      timeoutMs: webhook.timeout_ms,
      cause,
      replayOf: null,
    });
  }

  private record(spec: {
    organization: string;
    webhook_id: string | null;
    event: string;
    target: string;
    headers: Record<string, string>;
    body: string;
    retryDelays: number[];
    timeoutMs: number;
    cause: Cause;
    replayOf: string | null;
  }): Delivery {
    const delivery: Delivery = {
      id: randomUUID(),
      organization: spec.organization,
      webhook_id: spec.webhook_id,
      event: spec.event,
      target: spec.target,
      request: { method: 'POST', url: spec.target, headers: spec.headers, body: spec.body },
      state: 'pending',
      attempts: [],
      max_attempts: 1 + spec.retryDelays.length,
      retry_delays_ms: spec.retryDelays,
      timeout_ms: spec.timeoutMs,
      cause: spec.cause,
      replay_of: spec.replayOf,
      created: this.ctx.clock.now().toISOString(),
      finished: null,
    };
    this.log.add(delivery);
    this.ctx.bus.emit({ type: 'delivery.created', delivery });
    return delivery;
  }

  /** Replays a delivery exactly as sent, or edited; the original stays unchanged. */
  replay(original: Delivery, edits: ReplayEdits = {}): Delivery {
    const target = edits.target !== undefined ? this.resolveTarget(edits.target) : original.target;
    const body =
      edits.body === undefined ? original.request.body : typeof edits.body === 'string' ? edits.body : JSON.stringify(edits.body);
    const delivery = this.record({
      organization: original.organization,
      webhook_id: target === original.target ? original.webhook_id : null,
      event: original.event,
      target,
      headers: edits.headers ?? original.request.headers,
      body,
      retryDelays: [],
      timeoutMs: original.timeout_ms,
      cause: { kind: 'control', action: `replay of ${original.id}` },
      replayOf: original.id,
    });
    this.send(delivery);
    return delivery;
  }

  private send(delivery: Delivery): void {
    this.inFlight += 1;
    const lane = (this.lanes.get(delivery.target) ?? Promise.resolve()).then(() => this.run(delivery));
    const settled = lane.finally(() => {
      if (this.lanes.get(delivery.target) === settled) this.lanes.delete(delivery.target);
      this.inFlight -= 1;
      if (this.inFlight === 0) for (const wake of this.idleWaiters.splice(0)) wake();
    });
    this.lanes.set(delivery.target, settled);
  }

  private async run(delivery: Delivery): Promise<void> {
    for (let i = 0; i < delivery.max_attempts; i += 1) {
      if (i > 0) {
        this.update(delivery, 'retrying');
        await sleep(delivery.retry_delays_ms[i - 1] ?? 0, this.stopping.signal);
      }
      if (this.stopping.signal.aborted) break;
      this.update(delivery, 'sending');
      const attempt = await attemptDelivery(delivery, this.ctx.clock, this.stopping.signal);
      delivery.attempts.push(attempt);
      if (attempt.error === null) {
        delivery.finished = this.ctx.clock.now().toISOString();
        this.update(delivery, 'succeeded');
        return;
      }
    }
    if (this.stopping.signal.aborted && delivery.attempts.length < delivery.max_attempts) {
      delivery.attempts.push({
        at: this.ctx.clock.now().toISOString(),
        duration_ms: 0,
        status: null,
        response_headers: {},
        response_body: '',
        response_truncated: false,
        error: 'the emulator stopped before this delivery was sent',
      });
    }
    delivery.finished = this.ctx.clock.now().toISOString();
    this.update(delivery, 'failed');
  }

  private update(delivery: Delivery, state: Delivery['state']): void {
    delivery.state = state;
    this.log.changed();
    this.ctx.bus.emit({ type: 'delivery.updated', delivery });
  }

  /** The first delivery (oldest first) matching `filter`, waiting up to `timeoutMs` for one. */
  waitFor(filter: DeliveryFilter, timeoutMs: number): Promise<Delivery | null> {
    const existing = this.log
      .list()
      .reverse()
      .find((d) => matchesFilter(d, filter));
    if (existing) return Promise.resolve(existing);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        unsubscribe();
        resolve(null);
      }, timeoutMs);
      const unsubscribe = this.ctx.bus.subscribe((event) => {
        if ((event.type === 'delivery.created' || event.type === 'delivery.updated') && matchesFilter(event.delivery, filter)) {
          clearTimeout(timer);
          unsubscribe();
          resolve(event.delivery);
        }
      });
    });
  }

  /**
   * Stops sending (on emulator stop): attempts in flight are aborted and deliveries not yet sent
   * are recorded as failed with that reason, so nothing keeps the process alive.
   */
  async close(): Promise<void> {
    this.stopping.abort();
    await this.idle();
  }

  /** Resolves when no delivery is pending, sending or waiting for a retry. */
  idle(): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }
}
