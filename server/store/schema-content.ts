/**
 * Pages and collection items as the data file keeps them. A page has an explicit version
 * model (spec: GET /pages/, `preview`): the published version is what reads return, and a
 * newer draft version (possibly scheduled for publication) is what `preview=1` returns.
 */
import { z } from 'zod';
import { contentSchema, fieldDefSchema, fieldKey } from './schema-fields.js';

export const timestamp = z.iso.datetime({ offset: true });
export const slugSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[^\s/?#]+$/u, 'a slug has no spaces, slashes, "?" or "#"');

export const pageVersionSchema = z.object({
  /** Flat field values, or values nested by locale slug when the organization has locales. */
  fields: contentSchema,
  /** When this version was saved. */
  saved: timestamp,
  /** Full name of who saved it (the `editor` of page webhooks). */
  editor: z.string().default(''),
});

/**
 * The hot record arrays of a large file (10,000 items, 2,000 pages, 10,000 posts) are parsed by
 * zod's compiled fast path (zod.dev/compile: identical results and errors; a record that fails
 * falls back to the runtime parser, which words the issues). Page versions are compiled alone:
 * a page's Single-Page `definition` is recursive, and z.compile refuses a reference cycle.
 */
const compiledVersion = z.compile(pageVersionSchema);

export const pageSchema = z.object({
  /** Numeric page id: `service_id` of page webhooks. Unique within the organization. */
  id: z.int().positive(),
  slug: slugSchema,
  name: z.string().min(1),
  /** Key of the page type; null for a Single Page. */
  page_type: fieldKey.nullable(),
  /** A Single Page has no page type, so it carries its own field definitions. */
  definition: z.array(fieldDefSchema).optional(),
  created: timestamp,
  /** First publication; null while unpublished. */
  published: timestamp.nullable().default(null),
  /** Most recent publication. */
  updated: timestamp.nullable().default(null),
  /** When `draft_version` will be published; null if nothing is scheduled. */
  scheduled: timestamp.nullable().default(null),
  /** The live version: what reads without `preview` return. Null while unpublished. */
  published_version: compiledVersion.nullable().default(null),
  /** A newer, unpublished version: what `preview=1` returns. Null when the live version is the latest. */
  draft_version: compiledVersion.nullable().default(null),
  deleted: timestamp.nullable().default(null),
});

export const collectionItemSchema = z.object({
  /** The item ID of `meta.id`. Unique across all collections of the organization. */
  id: z.int().positive(),
  status: z.enum(['published', 'draft']),
  /** Flat field values, or values nested by locale slug when the organization has locales. */
  fields: contentSchema,
  created: timestamp,
  updated: timestamp,
  deleted: timestamp.nullable().default(null),
});

export const collectionSchema = z.object({
  key: fieldKey,
  name: z.string().min(1),
  fields: z.array(fieldDefSchema).min(1),
  items: z.compile(z.array(collectionItemSchema)).default([]),
});

export type Page = z.output<typeof pageSchema>;
export type PageVersion = z.output<typeof pageVersionSchema>;
export type CollectionItem = z.output<typeof collectionItemSchema>;
export type Collection = z.output<typeof collectionSchema>;
export type PageStatus = 'draft' | 'published' | 'scheduled';
