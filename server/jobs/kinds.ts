/** Every kind of background job and its plain-data payload (journal-friendly: no closures). */
import type { ItemWriteInput } from '../domain/collections/input.js';
import type { Target } from '../domain/content/references.js';
import type { MediaTarget } from '../domain/media/imports.js';
import type { PageCreateInput, PagePatchInput } from '../domain/pages/input.js';
import type { PostCreateInput, PostPatchInput } from '../domain/posts/input.js';

export interface JobPayloads {
  'post.create': { organization: string; input: PostCreateInput };
  'post.update': { organization: string; postId: number; slug: string; input: PostPatchInput };
  'page.create': { organization: string; input: PageCreateInput; locale: string | null };
  'page.update': { organization: string; pageId: number; input: PagePatchInput; locale: string | null };
  /** `itemId` is reserved when the write is accepted, so a replayed job cannot create it twice. */
  'item.create': { organization: string; collection: string; itemId: number; input: ItemWriteInput };
  'item.update': { organization: string; collection: string; itemId: number; input: ItemWriteInput; replace: boolean };
  'references.cleanup': { organization: string; target: Target };
  'media.import': { organization: string; url: string; alt: string | null; target: MediaTarget };
}
