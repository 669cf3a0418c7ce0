/**
 * Field definitions of page types, Single Pages and collections (configured outside the API,
 * spec: "What the service does"). The spec names media, repeater, reference and component
 * fields; the everyday types of a CMS complete the set (docs/spec-gaps.md, docs/data-file.md).
 */
import { z } from 'zod';

export const fieldKey = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_-]*$/, 'a field key is letters, digits, "_" or "-", not starting with a digit');

const base = {
  key: fieldKey,
  /** Display name; defaults to the key. */
  name: z.string().optional(),
  /** A required field may not be empty; every field must still be present on page creation. */
  required: z.boolean().default(false),
};

export const scalarFieldTypes = ['short_text', 'long_text', 'html', 'number', 'date', 'boolean'] as const;

export interface ComponentFieldDef {
  key: string;
  name?: string | undefined;
  required: boolean;
  type: 'component' | 'repeater';
  fields: FieldDef[];
}

const scalarField = z.object({ ...base, type: z.enum(scalarFieldTypes) });
const dropdownField = z.object({ ...base, type: z.literal('dropdown'), options: z.array(z.string()).min(1) });
const mediaField = z.object({ ...base, type: z.literal('media') });
const referenceField = z.object({
  ...base,
  type: z.literal('reference'),
  /** What it points to: pages of a page type (by slug) or items of a collection (by id). */
  to: z.object({ page_type: z.string().min(1) }).or(z.object({ collection: z.string().min(1) })),
  multiple: z.boolean().default(false),
});
const nestedField: z.ZodType<ComponentFieldDef, unknown> = z.lazy(() =>
  z.object({
    ...base,
    /** component: one group of fields; repeater: a list of such groups. */
    type: z.enum(['component', 'repeater']),
    fields: z.array(fieldDefSchema).min(1),
  }),
);

export const fieldDefSchema: z.ZodType<FieldDef, unknown> = z.lazy(() =>
  z.union([scalarField, dropdownField, mediaField, referenceField, nestedField]),
);

export type ScalarFieldDef = z.output<typeof scalarField>;
export type DropdownFieldDef = z.output<typeof dropdownField>;
export type MediaFieldDef = z.output<typeof mediaField>;
export type ReferenceFieldDef = z.output<typeof referenceField>;
export type FieldDef = ScalarFieldDef | DropdownFieldDef | MediaFieldDef | ReferenceFieldDef | ComponentFieldDef;
export type FieldType = FieldDef['type'];

/** Field values as stored: validated against their definitions by domain/fields, not here. */
export const fieldValuesSchema = z.record(z.string(), z.unknown());
export type FieldValues = Record<string, unknown>;

/** Flat values, or values nested by locale slug when the organization has locales. */
export const contentSchema = fieldValuesSchema;

export const localeSchema = z.object({
  slug: z.string().regex(/^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,8})*$/, 'a locale slug looks like "en" or "pt-br"'),
  name: z.string().min(1),
});

export const pageTypeSchema = z.object({
  key: fieldKey,
  name: z.string().min(1),
  fields: z.array(fieldDefSchema).min(1),
});

export type Locale = z.output<typeof localeSchema>;
export type PageType = z.output<typeof pageTypeSchema>;
