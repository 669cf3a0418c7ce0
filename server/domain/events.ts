/**
 * Domain events: what happened to content, emitted after the store changed. Side effects
 * (webhooks, request log links, the live stream) subscribe to these instead of being called
 * from routes (ARCHITECTURE: convention 8).
 */
import type { Post } from '../store/schema.js';

/** What caused a change: an API request (by its log id) or an action of the emulator's own. */
export type Cause = { kind: 'api'; requestId: string | null } | { kind: 'control'; action: string };

export type DomainEvent =
  | { type: 'post.created'; organization: string; post: Post; cause: Cause }
  | { type: 'post.updated'; organization: string; post: Post; before: Post; cause: Cause }
  | { type: 'post.deleted'; organization: string; post: Post; cause: Cause };
