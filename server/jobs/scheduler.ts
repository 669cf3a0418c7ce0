/**
 * Publishes scheduled posts and pages when the emulator's clock passes their time: checked every
 * second and at once whenever the clock is set or advanced. Fires the same domain events (and so
 * webhooks) as an API write, caused by the scheduler.
 */
import type { EmulatorClock } from '../clock.js';
import type { EmulatorContext } from '../context.js';
import type { Cause } from '../domain/events.js';
import { duePages, duePosts, publishScheduledPage, publishScheduledPost } from '../domain/schedule.js';

const CAUSE: Cause = { kind: 'control', action: 'scheduled publication' };

export function publishDue(ctx: EmulatorContext): number {
  const now = ctx.clock.now();
  let published = 0;
  for (const org of ctx.store.organizations()) {
    for (const post of duePosts(org, now)) {
      const { before, after } = ctx.store.mutate(
        () => publishScheduledPost(post),
        () => [{ array: org.posts, items: [post] }],
      );
      ctx.bus.emit({ type: 'post.updated', organization: org.slug, post: after, before, cause: CAUSE });
      published += 1;
    }
    for (const page of duePages(org, now)) {
      const { before, after } = ctx.store.mutate(
        () => publishScheduledPage(page),
        () => [{ array: org.pages, items: [page] }],
      );
      ctx.bus.emit({ type: 'page.updated', organization: org.slug, page: after, before, locale: null, cause: CAUSE });
      published += 1;
    }
  }
  return published;
}

/** Starts the scheduler; returns the function that stops it. */
export function startScheduler(ctx: EmulatorContext, clock: EmulatorClock): () => void {
  const timer = setInterval(() => publishDue(ctx), 1000);
  timer.unref();
  const off = clock.onChange(() => publishDue(ctx));
  return () => {
    clearInterval(timer);
    off();
  };
}
