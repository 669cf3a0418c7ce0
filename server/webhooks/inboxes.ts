/**
 * Built-in webhook receivers (issue 5): `POST /__emulator/inboxes/<name>` records what arrives
 * and answers as configured in the data file (`inboxes`): a status, a delay, failing the first N
 * deliveries. So a fresh install shows deliveries with no other server running, and QA can play
 * a slow or flaky receiver.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { InboxConfig } from '../store/schema.js';
import type { Store } from '../store/store.js';

export interface InboxRequest {
  id: string;
  at: string;
  method: string;
  headers: Record<string, string>;
  body: string;
  /** The body parsed as JSON, or null when it is not JSON. */
  json: unknown;
}

/** Requests kept per inbox; older ones are dropped. */
const KEEP = 500;

export class InboxHub {
  private readonly state = new Map<string, { count: number; requests: InboxRequest[] }>();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  config(name: string): InboxConfig {
    return this.store.data.inboxes.find((i) => i.name === name) ?? { name, status: 200, delay_ms: 0, fail_first: 0 };
  }

  /** Saves an inbox's answer in the data file; its fail_first count starts again. */
  configure(name: string, changes: Partial<Omit<InboxConfig, 'name'>>): InboxConfig {
    const config = { ...this.config(name), ...changes, name };
    this.store.mutate((data) => {
      const i = data.inboxes.findIndex((x) => x.name === name);
      if (i === -1) data.inboxes.push(config);
      else data.inboxes[i] = config;
    });
    const entry = this.state.get(name);
    if (entry) entry.count = 0;
    return config;
  }

  private entry(name: string) {
    let entry = this.state.get(name);
    if (!entry) {
      entry = { count: 0, requests: [] };
      this.state.set(name, entry);
    }
    return entry;
  }

  async receive(
    name: string,
    request: { method: string; headers: Record<string, string>; body: string },
  ): Promise<{ status: number; body: unknown }> {
    const entry = this.entry(name);
    const config = this.config(name);
    const recorded: InboxRequest = { id: randomUUID(), at: this.clock.now().toISOString(), ...request, json: parseJson(request.body) };
    entry.requests.push(recorded);
    if (entry.requests.length > KEEP) entry.requests.splice(0, entry.requests.length - KEEP);
    entry.count += 1;
    const failing = entry.count <= config.fail_first;
    if (config.delay_ms > 0) await new Promise((resolve) => setTimeout(resolve, config.delay_ms));
    if (failing)
      return { status: 500, body: { error: `inbox "${name}" fails its first ${config.fail_first} deliveries`, request_id: recorded.id } };
    return { status: config.status, body: { received: true, inbox: name, request_id: recorded.id } };
  }

  list(): (InboxConfig & { received: number })[] {
    const names = new Set([...this.store.data.inboxes.map((i) => i.name), ...this.state.keys()]);
    return [...names].map((name) => ({ ...this.config(name), received: this.state.get(name)?.requests.length ?? 0 }));
  }

  /** Newest first. */
  requests(name: string): InboxRequest[] {
    return [...(this.state.get(name)?.requests ?? [])].reverse();
  }

  /** Forgets what it received; how many it has answered (for fail_first) is kept. */
  clear(name: string): void {
    const entry = this.state.get(name);
    if (entry) entry.requests = [];
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
