/** Background completion of accepted post writes (spec: POST /posts/, PATCH /posts/{slug}/). */
import { isoNow } from '../clock.js';
import type { EmulatorContext } from '../context.js';
import { applyPostCreate, applyPostPatch } from '../domain/posts/apply.js';
import type { Cause } from '../domain/events.js';
import { remoteImagesInBody } from '../domain/media/library.js';
import { findLivePostById } from '../domain/posts/queries.js';
import type { Organization, Post } from '../store/schema.js';
import type { Touch } from '../store/store.js';
import { organizationOf } from './organization.js';
import { postSlugs } from '../domain/posts/slug-index.js';

/**
 * Spec: a featured image is "always uploaded to the media library"; body images are when the
 * write sets upload_images_to_media_library.
 */
function enqueuePostMedia(ctx: EmulatorContext, organization: string, post: Post, featured: boolean, body: boolean, cause: Cause): void {
  const meta = { organization, cause };
  if (featured && post.featured_image && /^https?:\/\//i.test(post.featured_image)) {
    const alt = post.featured_image_alt || null;
    ctx.jobs.enqueue(
      'media.import',
      { organization, url: post.featured_image, alt, target: { kind: 'post-featured-image', postId: post.id } },
      meta,
    );
  }
  if (body) {
    for (const url of remoteImagesInBody(post.body)) {
      ctx.jobs.enqueue('media.import', { organization, url, alt: null, target: { kind: 'post-body', postId: post.id } }, meta);
    }
  }
}

/** What a post create or patch touches (Store.mutate): the post, and the terms it may have added. */
function postTouches(org: Organization, post: Post | undefined): Touch[] {
  return [...(post ? [{ array: org.posts, items: [post] }] : []), { array: org.categories }, { array: org.tags }];
}

export function registerPostJobs(ctx: EmulatorContext): void {
  ctx.jobs.register('post.create', ({ organization, input }, job) => {
    const org = organizationOf(ctx, organization);
    const post = ctx.store.mutate(
      () => applyPostCreate(org, input, isoNow(ctx.clock)),
      (created) => postTouches(org, created),
    );
    ctx.bus.emit({ type: 'post.created', organization, post: structuredClone(post), cause: job.cause });
    enqueuePostMedia(ctx, organization, post, true, input.upload_images_to_media_library, job.cause);
  });

  ctx.jobs.register('post.update', ({ organization, postId, slug, input }, job) => {
    const org = organizationOf(ctx, organization);
    const { before, after } = ctx.store.mutate(
      () => applyPostPatch(org, postId, slug, input, isoNow(ctx.clock)),
      () => postTouches(org, findLivePostById(org, postId)),
    );
    if (input.slug !== undefined && input.slug !== before.slug) {
      const renamed = findLivePostById(org, postId);
      if (renamed) postSlugs(org).renamed(renamed);
    }
    ctx.bus.emit({ type: 'post.updated', organization, post: after, before, cause: job.cause });
    enqueuePostMedia(
      ctx,
      organization,
      after,
      input.featured_image !== undefined,
      input.upload_images_to_media_library === true,
      job.cause,
    );
  });
}
