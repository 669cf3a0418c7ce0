/**
 * A value derived from an organization's data (an index, a table by slug), built once per store
 * revision and kept until the revision moves: every change to the data moves it. Kept in a
 * WeakMap, so an organization replaced by a reload or reset takes its values with it.
 */
import type { Organization } from '../store/schema.js';

export function perRevision<T>(build: (org: Organization) => T): (org: Organization, revision: number) => T {
  const cache = new WeakMap<Organization, { revision: number; value: T }>();
  return (org, revision) => {
    const cached = cache.get(org);
    if (cached && cached.revision === revision) return cached.value;
    const value = build(org);
    cache.set(org, { revision, value });
    return value;
  };
}
