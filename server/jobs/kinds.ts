/** Every kind of background job and its plain-data payload (journal-friendly: no closures). */
import type { PostCreateInput, PostPatchInput } from '../domain/posts/input.js';

export interface JobPayloads {
  'post.create': { organization: string; input: PostCreateInput };
  'post.update': { organization: string; postId: number; slug: string; input: PostPatchInput };
}
