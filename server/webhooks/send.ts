/**
 * One delivery attempt: an HTTP POST of JSON with a timeout (spec: Events; real service: one
 * attempt, about 5 s, any 2xx is success, no signature). node:http rather than fetch, because
 * fetch adds headers of its own (User-Agent, Content-Type) and a delivery must go out exactly as
 * recorded: only the transport's Host, Content-Length and Connection are added. The receiver's
 * answer is kept, its body capped, so QA can see exactly what came back.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Clock } from '../clock.js';
import { RESPONSE_BODY_CAP, type Delivery, type DeliveryAttempt } from './delivery.js';

/** The first RESPONSE_BODY_CAP bytes, cut at a character boundary, as text. */
function capText(chunks: Buffer[], truncated: boolean): string {
  let bytes = Buffer.concat(chunks);
  if (truncated && bytes.length > RESPONSE_BODY_CAP) {
    let end = RESPONSE_BODY_CAP;
    // Back up over UTF-8 continuation bytes so no character is cut in half.
    while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end -= 1;
    bytes = bytes.subarray(0, end);
  }
  return bytes.toString('utf8');
}

function headersOf(response: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function post(
  delivery: Delivery,
  signal: AbortSignal,
): Promise<{ status: number; headers: Record<string, string>; body: string; truncated: boolean }> {
  return new Promise((resolve, reject) => {
    const url = new URL(delivery.request.url);
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const body = Buffer.from(delivery.request.body, 'utf8');
    const req = send(
      url,
      { method: 'POST', headers: { ...delivery.request.headers, 'content-length': String(body.length) }, signal },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        let truncated = false;
        res.on('data', (chunk: Buffer) => {
          if (truncated) return;
          chunks.push(chunk);
          size += chunk.length;
          if (size > RESPONSE_BODY_CAP) {
            truncated = true;
            res.destroy();
            resolve({ status: res.statusCode ?? 0, headers: headersOf(res), body: capText(chunks, true), truncated: true });
          }
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: headersOf(res), body: capText(chunks, false), truncated: false }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export async function attemptDelivery(delivery: Delivery, clock: Clock, stop?: AbortSignal): Promise<DeliveryAttempt> {
  const at = clock.now().toISOString();
  const started = performance.now();
  const timeout = AbortSignal.timeout(delivery.timeout_ms);
  const signal = stop ? AbortSignal.any([timeout, stop]) : timeout;
  const duration = () => Math.round(performance.now() - started);
  try {
    const answer = await post(delivery, signal);
    const ok = answer.status >= 200 && answer.status < 300;
    return {
      at,
      duration_ms: duration(),
      status: answer.status,
      response_headers: answer.headers,
      response_body: answer.body,
      response_truncated: answer.truncated,
      error: ok ? null : `the receiver answered ${answer.status}`,
    };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const reason = stop?.aborted
      ? 'the emulator stopped during this attempt'
      : timeout.aborted
        ? `no answer within ${delivery.timeout_ms} ms`
        : (code ?? (err as Error).message);
    return { at, duration_ms: duration(), status: null, response_headers: {}, response_body: '', response_truncated: false, error: reason };
  }
}
