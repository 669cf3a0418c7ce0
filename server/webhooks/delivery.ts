/**
 * A webhook delivery as the emulator records it (issue 5): what was sent, every attempt with
 * the receiver's answer, and what caused it. A replay is a new delivery pointing at its original.
 */
import { z } from 'zod';

const causeSchema = z.union([
  z.object({ kind: z.literal('api'), requestId: z.string().nullable() }),
  z.object({ kind: z.literal('control'), action: z.string() }),
]);

export const attemptSchema = z.object({
  at: z.string(),
  duration_ms: z.number(),
  /** The receiver's status code; null when no answer came (timeout, refused connection…). */
  status: z.int().nullable(),
  response_headers: z.record(z.string(), z.string()),
  /** The receiver's body, cut at RESPONSE_BODY_CAP characters. */
  response_body: z.string(),
  response_truncated: z.boolean(),
  /** Why the attempt failed without an answer, or which status made it fail. */
  error: z.string().nullable(),
});

export const deliverySchema = z.object({
  id: z.string(),
  organization: z.string(),
  /** The webhook setting that produced it; null for an edited replay sent elsewhere. */
  webhook_id: z.string().nullable(),
  event: z.string(),
  /** The URL posted to (also `webhook.target` in the payload). */
  target: z.string(),
  request: z.object({
    method: z.literal('POST'),
    url: z.string(),
    headers: z.record(z.string(), z.string()),
    body: z.string(),
  }),
  state: z.enum(['pending', 'sending', 'retrying', 'succeeded', 'failed']),
  attempts: z.array(attemptSchema),
  /** 1 plus the retries configured on the webhook. */
  max_attempts: z.int().positive(),
  retry_delays_ms: z.array(z.int()),
  timeout_ms: z.int().positive(),
  cause: causeSchema,
  replay_of: z.string().nullable(),
  created: z.string(),
  finished: z.string().nullable(),
});

export type Delivery = z.output<typeof deliverySchema>;
export type DeliveryAttempt = z.output<typeof attemptSchema>;

export const RESPONSE_BODY_CAP = 64 * 1024;
