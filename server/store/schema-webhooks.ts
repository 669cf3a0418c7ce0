/**
 * Webhook settings (spec: Events: "configured in the account settings … per content type") and
 * the emulator's built-in receivers (inboxes). Both live in the data file so a fixture can ship
 * a working webhook set-up.
 */
import { z } from 'zod';

export const WEBHOOK_EVENTS = [
  'page.all',
  'page.published',
  'page.draft',
  'page.delete',
  'page.unpublished',
  'post.all',
  'post.published',
  'post.draft',
  'post.delete',
  'collectionitem.all',
  'collectionitem.published',
  'collectionitem.draft',
  'collectionitem.delete',
  'collectionitem.unpublished',
  'media.videouploaded',
] as const;

export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const webhookSchema = z.object({
  /** Names the webhook in deliveries and the emulator's views. Unique within the organization. */
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'a webhook id is letters, digits, "_" or "-"'),
  /** Where deliveries go: an http(s) URL, or `inbox:<name>` for a built-in receiver. */
  url: z.string().regex(/^(https?:\/\/\S+|inbox:[A-Za-z0-9_-]{1,64})$/, 'an http(s) URL or inbox:<name>'),
  /** Event kinds this webhook receives; `<group>.all` receives every event of its group. */
  events: z.array(z.enum(WEBHOOK_EVENTS)).min(1),
  /** Sent with every delivery, e.g. a shared secret the receiver checks. */
  headers: z.record(z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, 'a header name'), z.string()).default({}),
  enabled: z.boolean().default(true),
  /** A delivery attempt gives up after this long (the real service: about 5 s). */
  timeout_ms: z.int().min(1).max(60_000).default(5000),
  /** Delays before each retry of a failed delivery; empty (the default) means one attempt. */
  retry_delays_ms: z.array(z.int().min(0).max(3_600_000)).max(10).default([]),
});

export const inboxSchema = z.object({
  name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
  /** Status code answered to deliveries. */
  status: z.int().min(100).max(599).default(200),
  /** Wait this long before answering (to play a slow receiver). */
  delay_ms: z.int().min(0).max(120_000).default(0),
  /** Answer 500 to this many deliveries first, then `status` (to play a flaky receiver). */
  fail_first: z.int().min(0).default(0),
});

export type Webhook = z.output<typeof webhookSchema>;
export type InboxConfig = z.output<typeof inboxSchema>;
