/**
 * The one live channel (ARCHITECTURE convention 9): Server-Sent Events with a snapshot first, then
 * deltas. Every message has an increasing id; a client that reconnects with Last-Event-ID gets
 * what it missed from a ring buffer (or a fresh snapshot when that is gone). Messages to a client
 * are batched into one write per BATCH_MS, heartbeats keep proxies from closing the stream, and a
 * client that stops reading is dropped instead of growing memory.
 *
 * The most frequent message, one per request, can be kept in the ring as a number (`publishRef`)
 * that `resolve` turns into the message when a client resumes: the request log's sequence number,
 * whose entry the log holds longer than the ring. A message object per request, kept for the next
 * thousand events, lived long enough to be promoted to V8's old generation and die there
 * (docs/performance.md, session 11).
 */
import type { Request, Response } from 'express';

/** A message as published: its event name and data. */
export interface SseBody {
  event: string;
  data: unknown;
}

/** A message as sent: with its id. */
export interface SseMessage extends SseBody {
  id: number;
}

export interface EventStreamOptions {
  bufferSize?: number;
  /** Makes the message kept as `ref` (publishRef), or null when what it stood for is gone. */
  resolve?: (ref: number) => SseBody | null;
  batchMs?: number;
  heartbeatMs?: number;
  /** A client whose unsent data passes this many bytes is disconnected. */
  maxBacklogBytes?: number;
}

interface Client {
  res: Response;
  pending: string[];
  timer: NodeJS.Timeout | null;
}

const format = (m: SseMessage): string => `id: ${m.id}\nevent: ${m.event}\ndata: ${JSON.stringify(m.data)}\n\n`;

export class EventStream {
  private seq = 0;
  /** The newest `bufferSize` messages, message n in slot n % bufferSize; a number is a ref (publishRef). */
  private readonly ring: (SseMessage | number | undefined)[];
  private readonly resolve: (ref: number) => SseBody | null;
  private readonly clients = new Set<Client>();
  private readonly bufferSize: number;
  private readonly batchMs: number;
  private readonly heartbeatMs: number;
  private readonly maxBacklogBytes: number;
  private heartbeat: NodeJS.Timeout | null = null;

  constructor(
    private readonly snapshot: () => unknown,
    options: EventStreamOptions = {},
  ) {
    this.bufferSize = Math.max(1, options.bufferSize ?? 1000);
    this.ring = new Array<SseMessage | number | undefined>(this.bufferSize);
    this.resolve = options.resolve ?? (() => null);
    this.batchMs = options.batchMs ?? 50;
    this.heartbeatMs = options.heartbeatMs ?? 15_000;
    this.maxBacklogBytes = options.maxBacklogBytes ?? 4 * 1024 * 1024;
  }

  get lastId(): number {
    return this.seq;
  }

  publish(event: string, data: unknown): void {
    const message: SseMessage = { id: ++this.seq, event, data };
    this.ring[message.id % this.bufferSize] = message;
    if (this.clients.size === 0) return; // kept for a resume; encoded only when someone listens
    const text = format(message);
    for (const client of this.clients) this.queue(client, text);
  }

  /** Publishes the message `make` gives, kept in the ring as `ref` (resolved again on a resume). */
  publishRef(ref: number, make: () => SseBody): void {
    const id = ++this.seq;
    this.ring[id % this.bufferSize] = ref;
    if (this.clients.size === 0) return;
    const text = format({ id, ...make() });
    for (const client of this.clients) this.queue(client, text);
  }

  /** What was published after `lastSeen`, oldest first; null when part of it is gone (a snapshot then). */
  private since(lastSeen: number): string[] | null {
    const oldest = Math.max(1, this.seq - this.bufferSize + 1);
    if (lastSeen < oldest - 1 || lastSeen > this.seq) return null;
    const texts: string[] = [];
    for (let id = lastSeen + 1; id <= this.seq; id += 1) {
      const kept = this.ring[id % this.bufferSize];
      if (typeof kept !== 'number') {
        if (kept) texts.push(format(kept));
        continue;
      }
      const body = this.resolve(kept);
      if (!body) return null;
      texts.push(format({ id, ...body }));
    }
    return texts;
  }

  private queue(client: Client, text: string): void {
    client.pending.push(text);
    client.timer ??= setTimeout(() => this.flush(client), this.batchMs);
  }

  private flush(client: Client): void {
    client.timer = null;
    if (client.pending.length === 0) return;
    const chunk = client.pending.join('');
    client.pending = [];
    client.res.write(chunk);
    if (client.res.writableLength > this.maxBacklogBytes) client.res.destroy();
  }

  /** GET handler: `Last-Event-ID` (or `?last_event_id=`) resumes; otherwise a snapshot first. */
  handle(req: Request, res: Response): void {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    res.write('retry: 2000\n\n');
    const client: Client = { res, pending: [], timer: null };
    const header = req.headers['last-event-id'];
    const query = (req.query as Record<string, unknown>)['last_event_id'];
    const raw = typeof header === 'string' ? header : typeof query === 'string' ? query : undefined;
    const lastSeen = raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : null;
    const missed = lastSeen === null ? null : this.since(lastSeen);
    if (missed) client.pending.push(...missed);
    else client.pending.push(format({ id: this.seq, event: 'snapshot', data: this.snapshot() }));
    this.flush(client);
    this.clients.add(client);
    this.heartbeat ??= setInterval(() => {
      for (const c of this.clients) c.res.write(': heartbeat\n\n');
    }, this.heartbeatMs).unref();

    const drop = () => {
      if (client.timer) clearTimeout(client.timer);
      this.clients.delete(client);
      if (this.clients.size === 0 && this.heartbeat) {
        clearInterval(this.heartbeat);
        this.heartbeat = null;
      }
    };
    res.on('close', drop);
  }

  /** Ends every stream (on stop). */
  close(): void {
    for (const client of this.clients) client.res.end();
    this.clients.clear();
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }
}
