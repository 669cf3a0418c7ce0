/**
 * One delivery attempt: an HTTP POST of JSON with a timeout (spec: Events; real service: one
 * attempt, about 5 s, any 2xx is success, no signature). The receiver's answer is kept, its body
 * capped, so QA can see exactly what came back.
 */
import type { Clock } from '../clock.js';
import { RESPONSE_BODY_CAP, type Delivery, type DeliveryAttempt } from './delivery.js';

async function readCapped(response: Response): Promise<{ body: string; truncated: boolean }> {
  const decoder = new TextDecoder();
  let body = '';
  let truncated = false;
  for await (const chunk of response.body ?? []) {
    body += decoder.decode(chunk, { stream: true });
    if (body.length > RESPONSE_BODY_CAP) {
      body = body.slice(0, RESPONSE_BODY_CAP);
      truncated = true;
      break;
    }
  }
  if (truncated) await response.body?.cancel().catch(() => undefined);
  return { body, truncated };
}

export async function attemptDelivery(delivery: Delivery, clock: Clock): Promise<DeliveryAttempt> {
  const at = clock.now().toISOString();
  const started = performance.now();
  const signal = AbortSignal.timeout(delivery.timeout_ms);
  try {
    const response = await fetch(delivery.request.url, {
      method: 'POST',
      headers: delivery.request.headers,
      body: delivery.request.body,
      redirect: 'manual',
      signal,
    });
    const { body, truncated } = await readCapped(response);
    const ok = response.status >= 200 && response.status < 300;
    return {
      at,
      duration_ms: Math.round(performance.now() - started),
      status: response.status,
      response_headers: Object.fromEntries(response.headers),
      response_body: body,
      response_truncated: truncated,
      error: ok ? null : `the receiver answered ${response.status}`,
    };
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    const reason = signal.aborted
      ? `no answer within ${delivery.timeout_ms} ms`
      : (cause?.code ?? cause?.message ?? (err as Error).message);
    return {
      at,
      duration_ms: Math.round(performance.now() - started),
      status: null,
      response_headers: {},
      response_body: '',
      response_truncated: false,
      error: reason,
    };
  }
}
