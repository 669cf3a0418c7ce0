/**
 * The request log (issue 6): every request to the emulated API and the CDN, with its response,
 * token values redacted and bodies capped, in a ring so memory stays bounded. What records a
 * request into it is request-logger.ts.
 *
 * Recording is on the path of every request, reading is rare. So the log keeps an entry as
 * numbers in typed arrays and one text record (id, method, URL, organization, the two header
 * sets) in a reused byte arena (record-arena.ts), with its bodies copied into the log's slabs
 * (body-slabs.ts) and referred to by slab and offset: nothing it keeps is a JavaScript object of
 * the request's own, so nothing outlives the request in V8's heap (docs/performance.md, session
 * 11). An entry is made again from those when read (logged-entry.ts), and the work of presenting
 * it (decoding, redaction, the query) is done then. Bodies count against a byte budget besides
 * the cap on entries: when it is exceeded, the oldest entries lose their bodies.
 */
import { logSlabs } from './body-slabs.js';
import {
  StoredBody,
  StoredRequest,
  StoredRequestPart,
  StoredResponsePart,
  type LoggedRequest,
  type QueryParser,
  type RawHeaders,
} from './logged-entry.js';
import { RecordArena } from './record-arena.js';

export { BODY_CAP, plainRequest, redactUrl } from './logged-entry.js';
export type { LoggedBody, LoggedRequest, QueryParser, RawHeaders } from './logged-entry.js';

export const DEFAULT_LOG_SIZE = 5000;
/**
 * Bytes of bodies held. When the log kept the sent Buffers themselves, in malloc's main heap, a
 * larger budget pinned more of the memory between them that short-lived responses used: on the
 * large store, 30,000 mixed reads left 135 MB of that heap resident with 32 MiB and 65 MB with
 * 8 MiB, the process 404 against 316 MiB (bench/memory-breakdown.ts --writes 0). Copies into slabs
 * (body-slabs.ts, since session 8) pin none of it. 8 MiB holds the bodies of the last few hundred
 * to few thousand requests, what one looks at.
 */
export const DEFAULT_BODY_BUDGET = 8 * 1024 * 1024;
/** The records' arena starts small and doubles while the newest `size` entries do not fit, up to this. */
const ARENA_START_BYTES = 512 * 1024;
export const ARENA_MAX_BYTES = 32 * 1024 * 1024;

export interface RequestLogOptions {
  /** Entries kept (the newest). */
  size?: number;
  /** Bytes of captured bodies held across all entries; a buffer shared by entries counts once. */
  bodyBudget?: number;
  /** Largest size of the arena that holds the entries' records (ARENA_MAX_BYTES): past it, the oldest entries go. */
  recordBytes?: number;
}

/**
 * An entry's record: its text fields and header pairs joined by NUL, which neither Node's HTTP
 * parser (URLs, request headers) nor setHeader (response headers) lets through, so no escaping is
 * needed; JSON.stringify of the same cost twice as much on a path every request takes. The
 * request's header count comes after the fixed fields, then the request's pairs, then the response's.
 */
const SEP = '\u0000';
const FIXED_FIELDS = 6;

function headerPairs(headers: RawHeaders): { text: string; count: number } {
  let text = '';
  let count = 0;
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined) continue;
    text += SEP + name + SEP + (Array.isArray(value) ? value.join(', ') : String(value));
    count += 1;
  }
  return { text, count };
}

function encodeRecord(entry: StoredRequest, withHeaders: boolean): string {
  const none = { text: '', count: 0 };
  const request = withHeaders ? headerPairs(entry.request.rawHeaders) : none;
  const response = withHeaders ? headerPairs(entry.response.rawHeaders) : none;
  return (
    entry.id +
    SEP +
    entry.method +
    SEP +
    entry.rawUrl +
    SEP +
    (entry.organization ?? '') +
    SEP +
    (entry.response.body.note ?? '') +
    SEP +
    request.count +
    request.text +
    response.text
  );
}

interface DecodedRecord {
  id: string;
  method: string;
  rawUrl: string;
  organization: string | null;
  note: string | null;
  requestHeaders: Record<string, string>;
  responseHeaders: Record<string, string>;
}

function decodeRecord(record: string): DecodedRecord {
  const parts = record.split(SEP);
  const requestCount = Number(parts[5]);
  const requestHeaders: Record<string, string> = {};
  const responseHeaders: Record<string, string> = {};
  for (let i = FIXED_FIELDS; i + 1 < parts.length; i += 2) {
    (i < FIXED_FIELDS + 2 * requestCount ? requestHeaders : responseHeaders)[parts[i]!] = parts[i + 1]!;
  }
  return {
    id: parts[0]!,
    method: parts[1]!,
    rawUrl: parts[2]!,
    organization: parts[3] || null,
    note: parts[4] || null,
    requestHeaders,
    responseHeaders,
  };
}

const SURFACES: readonly LoggedRequest['surface'][] = ['api', 'cdn'];
const TOKENS: readonly LoggedRequest['token'][] = [null, 'read', 'write'];
const NO_SLAB = -1;
/** Region keys: a slab's number times this, plus the offset in it (offsets are below it). */
const SLAB_KEY = 2 ** 32;

/**
 * The newest `size` entries in a ring (sequence numbers: entry n sits in slot n % size), and the
 * bytes of body copies they keep alive, counted once per copy however many entries share it (a
 * cached answer sent again shares its copy within a slab). Each entry has two bodies, numbered
 * 2 × slot (the request's) and 2 × slot + 1 (the response's).
 */
export class RequestLog {
  readonly size: number;
  readonly bodyBudget: number;
  /** Sequence number of the next entry, of the oldest entry kept, and of the oldest that may still hold bodies. */
  #next = 0;
  #first = 0;
  #bodiesFrom = 0;
  #bodyBytes = 0;
  readonly #arena: RecordArena;
  // Per slot.
  readonly #recordStart: Float64Array;
  readonly #recordLength: Uint32Array;
  readonly #time: Float64Array;
  readonly #duration: Float64Array;
  readonly #status: Uint16Array;
  readonly #surface: Uint8Array;
  readonly #token: Uint8Array;
  readonly #parser: Uint16Array;
  // Per body.
  readonly #bodySize: Float64Array;
  readonly #bodySlab: Int32Array;
  readonly #bodyOffset: Uint32Array;
  readonly #bodyLength: Uint32Array;
  readonly #bodyDropped: Uint8Array;
  /** The query parsers entries were logged with (one per app, so a handful). */
  readonly #parsers: (QueryParser | undefined)[] = [];
  /** The slabs bodies are in: numbered, with how many kept copies each holds; a slab no copy is in is let go. */
  readonly #slabNumbers = new Map<ArrayBufferLike, number>();
  readonly #slabs: (Buffer | undefined)[] = [];
  readonly #copiesInSlab: number[] = [];
  readonly #freeNumbers: number[] = [];
  /** How many bodies refer to each kept copy, by region key. */
  readonly #references = new Map<number, number>();

  constructor(options: RequestLogOptions = {}) {
    this.size = Math.max(1, Math.floor(options.size ?? DEFAULT_LOG_SIZE));
    this.bodyBudget = Math.max(0, options.bodyBudget ?? DEFAULT_BODY_BUDGET);
    const recordBytes = Math.max(1024, options.recordBytes ?? ARENA_MAX_BYTES);
    this.#arena = new RecordArena(Math.min(ARENA_START_BYTES, recordBytes), recordBytes);
    const slots = this.size;
    this.#recordStart = new Float64Array(slots);
    this.#recordLength = new Uint32Array(slots);
    this.#time = new Float64Array(slots);
    this.#duration = new Float64Array(slots);
    this.#status = new Uint16Array(slots);
    this.#surface = new Uint8Array(slots);
    this.#token = new Uint8Array(slots);
    this.#parser = new Uint16Array(slots);
    this.#bodySize = new Float64Array(slots * 2);
    this.#bodySlab = new Int32Array(slots * 2).fill(NO_SLAB);
    this.#bodyOffset = new Uint32Array(slots * 2);
    this.#bodyLength = new Uint32Array(slots * 2);
    this.#bodyDropped = new Uint8Array(slots * 2);
  }

  /** Bytes of body copies held now. */
  get bodyBytes(): number {
    return this.#bodyBytes;
  }

  get length(): number {
    return this.#next - this.#first;
  }

  /** Stores `entry` (which the log does not keep: it copies what it needs); returns its sequence number. */
  add(entry: StoredRequest): number {
    if (this.#next - this.#first === this.size) this.#evictOldest();
    let record = encodeRecord(entry, true);
    let length = Buffer.byteLength(record, 'utf8');
    if (!this.#makeRoom(length)) {
      // Only headers beyond anything Node accepts could need it: the entry is kept without them.
      record = encodeRecord(entry, false);
      length = Buffer.byteLength(record, 'utf8');
      this.#makeRoom(length);
    }
    const slot = this.#next % this.size;
    this.#recordStart[slot] = this.#arena.write(record, length);
    this.#recordLength[slot] = length;
    this.#time[slot] = Date.parse(entry.time);
    this.#duration[slot] = entry.duration_ms;
    this.#status[slot] = entry.response.status;
    this.#surface[slot] = SURFACES.indexOf(entry.surface);
    this.#token[slot] = TOKENS.indexOf(entry.token);
    this.#parser[slot] = this.#parserNumber(entry.parseQuery);
    this.#keepBody(slot * 2, entry.request.body);
    this.#keepBody(slot * 2 + 1, entry.response.body);
    this.#next += 1;
    // Bodies go oldest first, so the entries still holding theirs are the newest ones.
    if (this.#bodiesFrom < this.#first) this.#bodiesFrom = this.#first;
    while (this.#bodyBytes > this.bodyBudget && this.#bodiesFrom < this.#next) {
      const victim = this.#bodiesFrom % this.size;
      this.#dropBody(victim * 2);
      this.#dropBody(victim * 2 + 1);
      this.#bodiesFrom += 1;
    }
    return this.#next - 1;
  }

  /** The entry with sequence number `sequence` (what add returned), if the log still holds it. */
  at(sequence: number): LoggedRequest | undefined {
    return sequence >= this.#first && sequence < this.#next ? this.#entry(sequence) : undefined;
  }

  /** Newest first, each entry made when the iteration reaches it (a filtered list may stop early). */
  *newest(): Generator<LoggedRequest> {
    for (let n = this.#next - 1; n >= this.#first; n -= 1) yield this.#entry(n);
  }

  /** Newest first. */
  list(): LoggedRequest[] {
    return [...this.newest()];
  }

  get(id: string): LoggedRequest | undefined {
    // A record starts with its id and a separator: compared there, the others are not decoded.
    if (id.includes(SEP)) return undefined;
    const head = id + SEP;
    const length = Buffer.byteLength(head, 'utf8');
    for (let n = this.#next - 1; n >= this.#first; n -= 1) {
      const slot = n % this.size;
      if (this.#recordLength[slot]! <= length) continue;
      if (this.#arena.read(this.#recordStart[slot]!, length) === head) return this.#entry(n);
    }
    return undefined;
  }

  clear(): void {
    this.#first = this.#next;
    this.#bodiesFrom = this.#next;
    this.#bodySlab.fill(NO_SLAB);
    this.#references.clear();
    this.#slabNumbers.clear();
    this.#slabs.length = 0;
    this.#copiesInSlab.length = 0;
    this.#freeNumbers.length = 0;
    this.#bodyBytes = 0;
    this.#arena.clear();
  }

  /** Makes room in the arena for a record of `length` bytes: grows it, or lets the oldest entries go. */
  #makeRoom(length: number): boolean {
    for (;;) {
      const oldest = this.#first < this.#next ? this.#recordStart[this.#first % this.size]! : Number.POSITIVE_INFINITY;
      if (this.#arena.fits(length, oldest)) return true;
      if (this.#arena.canGrow) this.#grow();
      else if (this.#first < this.#next) this.#evictOldest();
      else return false;
    }
  }

  #grow(): void {
    const records: { start: number; length: number }[] = [];
    for (let n = this.#first; n < this.#next; n += 1) {
      const slot = n % this.size;
      records.push({ start: this.#recordStart[slot]!, length: this.#recordLength[slot]! });
    }
    const starts = this.#arena.rebuilt(records);
    for (let n = this.#first; n < this.#next; n += 1) this.#recordStart[n % this.size] = starts[n - this.#first]!;
  }

  #evictOldest(): void {
    const slot = this.#first % this.size;
    this.#releaseBody(slot * 2);
    this.#releaseBody(slot * 2 + 1);
    this.#first += 1;
  }

  #parserNumber(parser: QueryParser | undefined): number {
    const known = this.#parsers.indexOf(parser);
    return known === -1 ? this.#parsers.push(parser) - 1 : known;
  }

  /**
   * Refers body `b` to the copy `body` kept. A body captured in several chunks is copied once
   * more into one piece, so that every body is one region of one slab.
   */
  #keepBody(b: number, body: StoredBody): void {
    this.#bodySize[b] = body.size;
    this.#bodyDropped[b] = 0;
    this.#bodySlab[b] = NO_SLAB;
    const chunks = body.bytes;
    if (!chunks || chunks.length === 0) return;
    const copy = chunks.length === 1 ? chunks[0]! : logSlabs.copy(Buffer.concat(chunks));
    let slab = this.#slabNumbers.get(copy.buffer);
    if (slab === undefined) {
      slab = this.#freeNumbers.pop() ?? this.#slabs.length;
      this.#slabNumbers.set(copy.buffer, slab);
      this.#slabs[slab] = Buffer.from(copy.buffer);
      this.#copiesInSlab[slab] = 0;
    }
    const key = slab * SLAB_KEY + copy.byteOffset;
    const references = this.#references.get(key) ?? 0;
    this.#references.set(key, references + 1);
    if (references === 0) {
      this.#bodyBytes += copy.length;
      this.#copiesInSlab[slab]! += 1;
    }
    this.#bodySlab[b] = slab;
    this.#bodyOffset[b] = copy.byteOffset;
    this.#bodyLength[b] = copy.length;
  }

  #releaseBody(b: number): void {
    const slab = this.#bodySlab[b]!;
    if (slab === NO_SLAB) return;
    this.#bodySlab[b] = NO_SLAB;
    const key = slab * SLAB_KEY + this.#bodyOffset[b]!;
    const references = this.#references.get(key) ?? 1;
    if (references > 1) {
      this.#references.set(key, references - 1);
      return;
    }
    this.#references.delete(key);
    this.#bodyBytes -= this.#bodyLength[b]!;
    this.#copiesInSlab[slab]! -= 1;
    if (this.#copiesInSlab[slab] === 0) {
      this.#slabNumbers.delete(this.#slabs[slab]!.buffer);
      this.#slabs[slab] = undefined;
      this.#freeNumbers.push(slab);
    }
  }

  /** Drops body `b`'s bytes for the budget; an entry keeps the mark (an empty body had none to drop). */
  #dropBody(b: number): void {
    if (this.#bodySlab[b] === NO_SLAB) return;
    this.#releaseBody(b);
    this.#bodyDropped[b] = 1;
  }

  #body(b: number, note: string | null): StoredBody {
    const slab = this.#bodySlab[b]!;
    const offset = this.#bodyOffset[b]!;
    // A view of the slab: its bytes are never written over, so the entry stays right after it leaves the log.
    const bytes = slab === NO_SLAB ? null : [this.#slabs[slab]!.subarray(offset, offset + this.#bodyLength[b]!)];
    return new StoredBody(this.#bodySize[b]!, bytes, note, this.#bodyDropped[b] === 1);
  }

  #entry(n: number): StoredRequest {
    const slot = n % this.size;
    const { id, method, rawUrl, organization, note, requestHeaders, responseHeaders } = decodeRecord(
      this.#arena.read(this.#recordStart[slot]!, this.#recordLength[slot]!),
    );
    return new StoredRequest({
      id,
      time: new Date(this.#time[slot]!).toISOString(),
      duration_ms: this.#duration[slot]!,
      surface: SURFACES[this.#surface[slot]!]!,
      method,
      rawUrl,
      parseQuery: this.#parsers[this.#parser[slot]!],
      organization,
      token: TOKENS[this.#token[slot]!]!,
      request: new StoredRequestPart(requestHeaders, this.#body(slot * 2, null)),
      response: new StoredResponsePart(this.#status[slot]!, responseHeaders, this.#body(slot * 2 + 1, note)),
    });
  }
}
