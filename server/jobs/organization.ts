import type { EmulatorContext } from '../context.js';
import { WriteFailure } from '../domain/errors.js';
import type { Organization } from '../store/schema.js';

/** The organization a job was accepted for; it may have vanished (a reset) before the job ran. */
export function organizationOf(ctx: EmulatorContext, slug: string): Organization {
  const org = ctx.store.organization(slug);
  if (!org) throw new WriteFailure(`Organization "${slug}" no longer exists.`);
  return org;
}
