/**
 * The request log's bookkeeping under random traffic (server/http/request-log.ts): entries go in
 * as the logger makes them (bodies copied into the shared slabs, a cached answer's copy shared
 * within a slab), with random sizes, sharing, budgets and clears, and after every step what the log
 * gives back is checked against what was sent: each body as it was or marked dropped (the dropped
 * ones the oldest), the byte count equal to the distinct copies the entries hold, the headers and
 * URL as they were. Entry records of very different sizes make its arena grow and wrap.
 */
import { describe, expect, it } from 'vitest';
import { logSlabs } from '../../server/http/body-slabs.js';
import { StoredBody, StoredRequest, StoredRequestPart, StoredResponsePart } from '../../server/http/logged-entry.js';
import { RequestLog, type LoggedRequest } from '../../server/http/request-log.js';

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Sent {
  url: string;
  /** undefined: too long for the log's arena, so the entry is kept without headers. */
  header: string | undefined;
  request: string;
  response: string;
}

function check(log: RequestLog, sent: Map<string, Sent>, expectedLength: number): void {
  const entries: LoggedRequest[] = log.list();
  expect(entries).toHaveLength(expectedLength);
  const regions = new Map<ArrayBufferLike, Map<number, number>>();
  let droppedSeen = false;
  for (const entry of entries) {
    const original = sent.get(entry.id)!;
    expect(entry.url).toBe(original.url);
    expect(entry.request.headers['x-random']).toBe(original.header);
    const bodies: [StoredBody, string][] = [
      [entry.request.body as StoredBody, original.request],
      [entry.response.body as StoredBody, original.response],
    ];
    const dropped = bodies.some(([body]) => body.dropped);
    // Newest first: once an entry has lost its bodies, every older one has too.
    if (droppedSeen) expect(bodies.every(([body, text]) => body.dropped || text === '')).toBe(true);
    droppedSeen ||= dropped;
    for (const [body, text] of bodies) {
      expect(body.size).toBe(Buffer.byteLength(text));
      if (body.dropped) expect(body.text).toBe('');
      else expect(body.text).toBe(text);
      for (const bytes of body.bytes ?? []) {
        const inSlab = regions.get(bytes.buffer) ?? new Map<number, number>();
        inSlab.set(bytes.byteOffset, bytes.length);
        regions.set(bytes.buffer, inSlab);
      }
    }
  }
  let held = 0;
  for (const inSlab of regions.values()) for (const length of inSlab.values()) held += length;
  expect(log.bodyBytes).toBe(held);
  expect(log.bodyBytes).toBeLessThanOrEqual(log.bodyBudget);
}

describe('the request log under random traffic', () => {
  it.each([1, 2, 3, 4, 5, 6])(
    'keeps every entry and body right (seed %i)',
    (seed) => {
      const next = random(seed);
      const size = 5 + Math.floor(next() * 100);
      // Odd seeds: an arena too small for the newest entries (the oldest go); even: one that grows.
      const recordBytes = seed % 2 === 1 ? 16 * 1024 + Math.floor(next() * 64 * 1024) : 8 * 1024 * 1024;
      const log = new RequestLog({ size, bodyBudget: Math.floor(next() * 200_000), recordBytes });
      const sent = new Map<string, Sent>();
      // Answers sent again and again, as a cache sends the same Buffer.
      const cached = [1, 2, 3].map((n) => Buffer.from(`"${String(n).repeat(1000 * n * n)}"`));
      let since = 0;
      for (let step = 0; step < 600; step += 1) {
        if (next() < 0.01) {
          log.clear();
          since = 0;
          check(log, sent, 0);
          continue;
        }
        const id = `${seed}-${step}`;
        // Now and then a header longer than a small arena: that entry is kept without its headers.
        const huge = seed % 2 === 1 && next() < 0.03;
        const header = huge
          ? 'h'.repeat(100_000)
          : 'h'.repeat(Math.floor(next() * (next() < 0.1 ? (seed % 2 === 1 ? 6000 : 200_000) : 200)));
        const url = `/v2/posts/?auth_token=secret&step=${step}`;
        const request = next() < 0.3 ? JSON.stringify({ step, pad: 'q'.repeat(Math.floor(next() * 3000)) }) : '';
        const shared = next() < 0.4 ? cached[Math.floor(next() * cached.length)]! : null;
        const response = shared ? shared.toString() : JSON.stringify({ step, pad: 'r'.repeat(Math.floor(next() * 20_000)) });
        const responseBytes = shared ? [logSlabs.copy(shared)] : [logSlabs.copyText(response, Buffer.byteLength(response))];
        const requestBytes = request === '' ? null : [logSlabs.copyText(request, Buffer.byteLength(request))];
        sent.set(id, { url: url.replace('secret', '[redacted]'), header: huge ? undefined : header, request, response });
        log.add(
          new StoredRequest({
            id,
            time: new Date(Date.UTC(2026, 0, 1, 0, 0, step)).toISOString(),
            duration_ms: step / 10,
            surface: 'api',
            method: request ? 'POST' : 'GET',
            rawUrl: url,
            parseQuery: undefined,
            organization: 'acme',
            token: 'read',
            request: new StoredRequestPart({ 'x-random': header }, new StoredBody(Buffer.byteLength(request), requestBytes, null)),
            response: new StoredResponsePart(
              200,
              { 'content-type': 'application/json' },
              new StoredBody(Buffer.byteLength(response), responseBytes, null),
            ),
          }),
        );
        since += 1;
        // The arena may let the oldest go when records are large: never more than the size, never none.
        const length = log.length;
        expect(length).toBeLessThanOrEqual(Math.min(size, since));
        expect(length).toBeGreaterThan(0);
        check(log, sent, length);
        expect(log.get(id)?.duration_ms).toBe(step / 10);
      }
    },
    30_000,
  );
});
