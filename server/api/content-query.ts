/** Query parameters shared by page and collection reads (spec: GET /pages/{page_type}/). */
import type { Request } from 'express';
import { z } from 'zod';
import { fieldFilters, type FieldFilter } from '../domain/content/list-options.js';
import { readLocale } from '../domain/content/locales.js';
import type { ReadOptions } from '../domain/content/reader.js';
import { messages } from '../domain/messages.js';
import { flagParam, paginationParams } from '../domain/query.js';
import { parseQuery } from '../http/validate.js';
import { cdnBase } from './route-helpers.js';
import type { Organization } from '../store/schema.js';

const levelsParam = z
  .string({ error: messages.levelsParam })
  .regex(/^\d+$/, { error: messages.levelsParam })
  .transform(Number)
  .pipe(z.int().min(1, { error: messages.levelsParam }).max(5, { error: messages.levelsParam }));

export const contentReadQuery = z.object({
  ...paginationParams,
  preview: flagParam('preview').optional(),
  locale: z.string().min(1, { error: 'locale may not be empty.' }).optional(),
  alt_media_text: flagParam('alt_media_text').optional(),
  order: z.string().optional(),
  /** Real service: default 2, from 1 to 5. */
  levels: levelsParam.optional(),
});

export type ContentReadQuery = z.output<typeof contentReadQuery>;

/** The `locale` query parameter of a write (the single-locale form), if given. */
export function queryLocale(req: Request): string | undefined {
  const locale = (req.query as Record<string, unknown>)['locale'];
  return typeof locale === 'string' && locale !== '' ? locale : undefined;
}

export interface ContentRead {
  query: ContentReadQuery;
  options: ReadOptions;
  filters: FieldFilter[];
}

export function parseContentRead(req: Request, org: Organization, basePath: string): ContentRead {
  const query = parseQuery(contentReadQuery, req);
  return {
    query,
    options: {
      preview: query.preview ?? false,
      locale: readLocale(org, query.locale),
      altMediaText: query.alt_media_text ?? false,
      levels: query.levels ?? 2,
      basePath,
      cdnUrl: cdnBase(req),
    },
    filters: fieldFilters(req.query as Record<string, unknown>),
  };
}
