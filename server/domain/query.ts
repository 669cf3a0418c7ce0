/**
 * Query parameters shared by the read endpoints, as zod schemas whose every failure carries the
 * exact `detail` message to send (spec: Limits; GET /posts/). Parameters arrive as strings.
 */
import { z } from 'zod';
import { messages } from './messages.js';

export function intParam(name: string, min: number, max?: number) {
  const error = messages.intParam(name, min, max);
  return z
    .string({ error })
    .regex(/^\s*[+-]?\d{1,15}\s*$/, { error })
    .transform(Number)
    .pipe(
      z
        .int({ error })
        .min(min, { error })
        .max(max ?? Number.MAX_SAFE_INTEGER, { error }),
    );
}

/** `0`/`1` flags such as `preview`. One official SDK sends `preview=true`, so words are accepted too. */
export function flagParam(name: string) {
  const error = messages.flagParam(name);
  return z
    .string({ error })
    .transform((v) => v.trim().toLowerCase())
    .pipe(z.enum(['0', '1', 'true', 'false'], { error }))
    .transform((v) => v === '1' || v === 'true');
}

/** Booleans such as `exclude_body` (spec: "boolean, default false"). */
export function boolParam(name: string) {
  const error = messages.boolParam(name);
  return z
    .string({ error })
    .transform((v) => v.trim().toLowerCase())
    .pipe(z.enum(['true', 'false', '1', '0'], { error }))
    .transform((v) => v === 'true' || v === '1');
}

export const paginationParams = {
  page: intParam('page', 1).optional(),
  page_size: intParam('page_size', 1, 100).optional(),
  limit: intParam('limit', 1, 100).optional(),
  offset: intParam('offset', 0).optional(),
};

export const includeParam = z.literal('recent_posts', { error: messages.includeParam }).optional();

/** An optional filter value; an empty value (`?tag_slug=`) means no filter. */
export const filterParam = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v === '' ? undefined : v));
