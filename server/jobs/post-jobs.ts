/** Background completion of accepted post writes (spec: POST /posts/, PATCH /posts/{slug}/). */
import { isoNow } from '../clock.js';
import type { EmulatorContext } from '../context.js';
import { applyPostCreate, applyPostPatch } from '../domain/posts/apply.js';
import { organizationOf } from './organization.js';

export function registerPostJobs(ctx: EmulatorContext): void {
  ctx.jobs.register('post.create', ({ organization, input }, job) => {
    const org = organizationOf(ctx, organization);
    const post = ctx.store.mutate(() => applyPostCreate(org, input, isoNow(ctx.clock)));
    ctx.bus.emit({ type: 'post.created', organization, post: structuredClone(post), cause: job.cause });
  });

  ctx.jobs.register('post.update', ({ organization, postId, slug, input }, job) => {
    const org = organizationOf(ctx, organization);
    const { before, after } = ctx.store.mutate(() => applyPostPatch(org, postId, slug, input, isoNow(ctx.clock)));
    ctx.bus.emit({ type: 'post.updated', organization, post: after, before, cause: job.cause });
  });
}
