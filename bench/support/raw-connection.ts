/**
 * One keep-alive HTTP/1.1 connection that writes requests given as bytes and reads each answer's
 * framing only (http-framing.ts): one request at a time, later ones waiting in order, as Node's
 * http Agent with `maxSockets: 1` does, at a fraction of its cost (paced.ts says why that
 * matters). A connection the server closes, or that fails, is opened again for the next request.
 */
import { connect, type Socket } from 'node:net';
import { frameResponse, type Framing } from './http-framing.js';

/** The answer's status and size in bytes (head and body), or why there was none. */
export type RawOutcome = { status: number; bytes: number } | { error: Error };

export interface RawRequest {
  /** The whole request: request line, headers, empty line and body (sent as UTF-8). */
  bytes: string;
  done: (outcome: RawOutcome) => void;
}

const EMPTY = Buffer.alloc(0);

export class RawConnection {
  private socket: Socket | null = null;
  private received: Buffer = EMPTY;
  /** The current answer's body runs until the server closes the connection (no length given). */
  private untilClose: { status: number } | null = null;
  private current: RawRequest | null = null;
  private readonly waiting: RawRequest[] = [];

  constructor(
    private readonly host: string,
    private readonly port: number,
  ) {}

  send(request: RawRequest): void {
    if (this.current) this.waiting.push(request);
    else this.start(request);
  }

  /** Closes the connection; requests not answered yet fail. */
  close(): void {
    this.closeSocket();
    this.failAll(new Error('connection closed by the load generator'));
  }

  private start(request: RawRequest): void {
    this.current = request;
    this.received = EMPTY;
    this.untilClose = null;
    (this.socket ?? this.open()).write(request.bytes);
  }

  private open(): Socket {
    const socket = connect({ host: this.host, port: this.port, noDelay: true });
    socket.on('data', (chunk: Buffer) => {
      if (socket === this.socket) this.onData(chunk);
    });
    socket.on('error', (err) => {
      if (socket === this.socket) this.drop(err);
    });
    socket.on('close', () => {
      if (socket !== this.socket) return;
      if (this.untilClose) this.finish(this.untilClose.status, this.received.length, true);
      else this.drop(new Error('the server closed the connection before answering'));
    });
    this.socket = socket;
    return socket;
  }

  private onData(chunk: Buffer): void {
    this.received = this.received.length === 0 ? chunk : Buffer.concat([this.received, chunk]);
    if (!this.current) return this.drop(new Error('the server answered a request that was not sent'));
    let framing: Framing;
    try {
      framing = frameResponse(this.received);
    } catch (err) {
      return this.drop(err instanceof Error ? err : new Error(String(err)));
    }
    if (!framing.done) {
      this.untilClose = framing.untilClose ?? null;
      return;
    }
    if (framing.response.length < this.received.length) return this.drop(new Error('the server sent more than one answer'));
    this.finish(framing.response.status, framing.response.length, framing.response.close);
  }

  private finish(status: number, bytes: number, closing: boolean): void {
    const request = this.current!;
    this.current = null;
    if (closing) this.closeSocket();
    request.done({ status, bytes });
    const next = this.waiting.shift();
    if (next) this.start(next);
  }

  /** The connection is unusable: the current request fails and the next starts on a new one. */
  private drop(error: Error): void {
    this.closeSocket();
    const request = this.current;
    this.current = null;
    request?.done({ error });
    const next = this.waiting.shift();
    if (next) this.start(next);
  }

  /** Forgets the socket first, so that its own 'close' and 'error' events are ignored. */
  private closeSocket(): void {
    const socket = this.socket;
    this.socket = null;
    socket?.destroy();
  }

  private failAll(error: Error): void {
    const requests = [...(this.current ? [this.current] : []), ...this.waiting.splice(0)];
    this.current = null;
    for (const request of requests) request.done({ error });
  }
}
