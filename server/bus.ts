/**
 * The in-process event bus: domain events and the emulator's own events (jobs). One typed
 * EventEmitter; subscribers never throw back into the emitter.
 */
import { EventEmitter } from 'node:events';
import type { DomainEvent } from './domain/events.js';
import type { JobRecord } from './jobs/queue.js';
import type { Delivery } from './webhooks/delivery.js';
import type { LoggedRequest } from './http/request-log.js';

export type JobEvent = { type: 'job.queued' | 'job.started' | 'job.succeeded' | 'job.failed'; job: JobRecord };

export type DeliveryEvent = { type: 'delivery.created' | 'delivery.updated'; delivery: Delivery };

/** `sequence`: the entry's number in the request log (RequestLog.at). */
export type RequestEvent = { type: 'request.logged'; request: LoggedRequest; sequence: number };

/** The emulator's own state changed: a reset, an import, a snapshot restored, the clock moved. */
export type StateEvent =
  | { type: 'store.replaced'; reason: string }
  | { type: 'store.error'; message: string; file: string }
  | { type: 'store.recovered' }
  | { type: 'clock.changed'; now: string }
  /** The request log or the delivery log was emptied through the control API. */
  | { type: 'log.cleared'; log: 'requests' | 'deliveries' };

export type EmulatorEvent = DomainEvent | JobEvent | DeliveryEvent | RequestEvent | StateEvent;

type Listener = (event: EmulatorEvent) => void;

export class EventBus {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(100);
  }

  emit(event: EmulatorEvent): void {
    this.emitter.emit('event', event);
  }

  /** Subscribes to every event; returns the unsubscribe function. */
  subscribe(listener: Listener): () => void {
    const safe: Listener = (event) => {
      try {
        listener(event);
      } catch (err) {
        console.error('cms-emulator: an event subscriber failed:', err);
      }
    };
    this.emitter.on('event', safe);
    return () => this.emitter.off('event', safe);
  }
}
