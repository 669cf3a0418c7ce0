/**
 * What the control API sends, as the server declares it. The renderer imports only types from
 * server/ (ARCHITECTURE, convention 2): the wire shapes cannot drift from the code that makes them.
 */
export type { LoggedRequest, LoggedBody } from '../../../server/http/request-log.js';
export type { Delivery, DeliveryAttempt } from '../../../server/webhooks/delivery.js';
export type { JobRecord, JobStatus } from '../../../server/jobs/queue.js';
export type { ClockState } from '../../../server/clock.js';
export type { InboxRequest } from '../../../server/webhooks/inboxes.js';
export type { RequestSummary, DeliverySummary, EventsSnapshot } from '../../../server/control/events.js';
export type { OrganizationSummary, ContentSection } from '../../../server/control/content.js';
export type {
  Author,
  Collection,
  CollectionItem,
  FieldDef,
  InboxConfig,
  MediaRecord,
  Page,
  PageType,
  PageVersion,
  Post,
  Term,
  Webhook,
} from '../../../server/store/schema.js';

/** A page of records from /organizations/{org}/content/{section}. */
export interface RecordPage<T> {
  data: T[];
  total: number;
}

/** GET /__emulator/info */
export interface EmulatorInfo {
  version: string;
  data_dir: string;
  data_file: string;
  base_path: string;
  cdn_path: string;
  strict: boolean;
  control_token_required: boolean;
}

/** GET /__emulator/store */
export interface StoreStatus {
  file: string;
  error: { message: string; at: string } | null;
  broken_copy: string | null;
  writes: number;
  edits_fire_webhooks: boolean;
}

/** GET /__emulator/inboxes */
export type InboxSummary = import('../../../server/store/schema.js').InboxConfig & { received: number };
