/**
 * Domain events: what happened to content, emitted after the store changed. Side effects
 * (webhooks, request log links, the live stream) subscribe to these instead of being called
 * from routes (ARCHITECTURE: convention 8).
 */
import type { CollectionItem, MediaRecord, Page, Post } from '../store/schema.js';

/** What caused a change: an API request (by its log id) or an action of the emulator's own. */
export type Cause = { kind: 'api'; requestId: string | null } | { kind: 'control'; action: string };

export type DomainEvent =
  | { type: 'post.created'; organization: string; post: Post; cause: Cause }
  | { type: 'post.updated'; organization: string; post: Post; before: Post; cause: Cause }
  | { type: 'post.deleted'; organization: string; post: Post; cause: Cause }
  /** `locale`: the locale the write named (null for the default locale or for nested writes). */
  | { type: 'page.created'; organization: string; page: Page; locale: string | null; cause: Cause }
  | { type: 'page.updated'; organization: string; page: Page; before: Page; locale: string | null; cause: Cause }
  | { type: 'item.created'; organization: string; collection: string; item: CollectionItem; cause: Cause }
  | { type: 'item.updated'; organization: string; collection: string; item: CollectionItem; before: CollectionItem; cause: Cause }
  | { type: 'item.deleted'; organization: string; collection: string; item: CollectionItem; cause: Cause }
  | { type: 'media.created'; organization: string; media: MediaRecord; cause: Cause };
