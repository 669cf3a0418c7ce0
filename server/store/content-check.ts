/**
 * Checks of structured content that the zod schema cannot express: page types and collections
 * that references name, locales, versions, and every stored field value against its definition.
 * Values are also brought to their stored form, so a hand-written fixture may write a media
 * field as a plain URL string. Each problem names the path of the bad value.
 */
import { checkFieldValues, isPlainObject } from '../domain/content/field-values.js';
import type { FieldErrors } from '../domain/errors.js';
import type { FieldDef, FieldValues, Organization, StoreData } from './schema.js';

type Problems = string[];

function checkDefinitions(org: Organization, defs: readonly FieldDef[], at: string, problems: Problems): void {
  const seen = new Set<string>();
  defs.forEach((def, i) => {
    if (seen.has(def.key)) problems.push(`${at}[${i}].key: duplicate field key "${def.key}"`);
    seen.add(def.key);
    if (def.type === 'reference') {
      if ('page_type' in def.to && !org.page_types.some((t) => t.key === (def.to as { page_type: string }).page_type)) {
        problems.push(`${at}[${i}].to.page_type: no page type "${def.to.page_type}"`);
      }
      if ('collection' in def.to && !org.collections.some((c) => c.key === (def.to as { collection: string }).collection)) {
        problems.push(`${at}[${i}].to.collection: no collection "${def.to.collection}"`);
      }
    }
    if (def.type === 'component' || def.type === 'repeater') checkDefinitions(org, def.fields, `${at}[${i}].fields`, problems);
  });
}

/**
 * Checks one stored content object (flat or by locale); returns it in stored form: the object
 * itself when it already is (a file the emulator wrote), so loading copies nothing.
 */
function checkContent(
  org: Organization,
  defs: readonly FieldDef[],
  content: FieldValues,
  at: string,
  problems: Problems,
  definedKeys: Map<readonly FieldDef[], ReadonlySet<string>>,
): FieldValues {
  const errors: FieldErrors = {};
  const check = { mode: 'partial' as const, references: null, errors, keepStoredForm: true, definedKeys };
  let out: FieldValues;
  if (org.locales.length === 0) {
    out = checkFieldValues(defs, content, at, check);
  } else {
    out = {};
    let same = true;
    for (const [locale, values] of Object.entries(content)) {
      if (!org.locales.some((l) => l.slug === locale)) problems.push(`${at}.${locale}: "${locale}" is not a configured locale`);
      else if (!isPlainObject(values)) problems.push(`${at}.${locale}: expected an object of field values`);
      else out[locale] = checkFieldValues(defs, values, `${at}.${locale}`, check);
      same &&= out[locale] === values;
    }
    if (same) out = content;
  }
  for (const [path, list] of Object.entries(errors)) problems.push(`${path}: ${list.join(' ')}`);
  return out;
}

function checkOrganization(org: Organization, at: string, problems: Problems): void {
  // Field keys of each definition list, shared by every value checked below.
  const definedKeys = new Map<readonly FieldDef[], ReadonlySet<string>>();
  if (org.locales.length > 0 && !org.locales.some((l) => l.slug === org.default_locale)) {
    problems.push(`${at}.default_locale: must name one of the locales (${org.locales.map((l) => l.slug).join(', ')})`);
  }
  if (org.locales.length === 0 && org.default_locale !== null) problems.push(`${at}.default_locale: there are no locales`);

  const typeKeys = new Set<string>();
  org.page_types.forEach((type, i) => {
    if (typeKeys.has(type.key)) problems.push(`${at}.page_types[${i}].key: duplicate page type "${type.key}"`);
    typeKeys.add(type.key);
    checkDefinitions(org, type.fields, `${at}.page_types[${i}].fields`, problems);
  });

  const pageIds = new Set<number>();
  const liveSlugs = new Set<string>();
  org.pages.forEach((page, i) => {
    const pageAt = `${at}.pages[${i}]`;
    if (pageIds.has(page.id)) problems.push(`${pageAt}.id: duplicate page id ${page.id}`);
    pageIds.add(page.id);
    if (page.deleted === null) {
      if (liveSlugs.has(page.slug)) problems.push(`${pageAt}.slug: duplicate page slug "${page.slug}"`);
      liveSlugs.add(page.slug);
    }
    let defs: readonly FieldDef[];
    if (page.page_type === null) {
      defs = page.definition ?? [];
      checkDefinitions(org, defs, `${pageAt}.definition`, problems);
    } else {
      const type = org.page_types.find((t) => t.key === page.page_type);
      if (!type) problems.push(`${pageAt}.page_type: no page type "${page.page_type}"`);
      if (page.definition) problems.push(`${pageAt}.definition: only Single Pages (page_type null) carry a definition`);
      defs = type?.fields ?? [];
    }
    if (!page.published_version && !page.draft_version) problems.push(`${pageAt}: a page needs a published_version or a draft_version`);
    if (page.published_version && page.published === null)
      problems.push(`${pageAt}.published: a published page needs its first publication time`);
    if (page.scheduled !== null && !page.draft_version)
      problems.push(`${pageAt}.scheduled: a schedule publishes the draft_version, which is missing`);
    if (page.published_version)
      page.published_version.fields = checkContent(
        org,
        defs,
        page.published_version.fields,
        `${pageAt}.published_version.fields`,
        problems,
        definedKeys,
      );
    if (page.draft_version)
      page.draft_version.fields = checkContent(
        org,
        defs,
        page.draft_version.fields,
        `${pageAt}.draft_version.fields`,
        problems,
        definedKeys,
      );
  });

  const collectionKeys = new Set<string>();
  const itemIds = new Set<number>();
  org.collections.forEach((collection, c) => {
    const colAt = `${at}.collections[${c}]`;
    if (collectionKeys.has(collection.key)) problems.push(`${colAt}.key: duplicate collection "${collection.key}"`);
    collectionKeys.add(collection.key);
    checkDefinitions(org, collection.fields, `${colAt}.fields`, problems);
    collection.items.forEach((item, i) => {
      if (itemIds.has(item.id)) problems.push(`${colAt}.items[${i}].id: duplicate item id ${item.id} (ids are unique across collections)`);
      itemIds.add(item.id);
      item.fields = checkContent(org, collection.fields, item.fields, `${colAt}.items[${i}].fields`, problems, definedKeys);
    });
  });
}

/** Problems found (empty when the content is sound); normalizes stored values in place. */
export function checkStoreContent(data: StoreData): Problems {
  const problems: Problems = [];
  data.organizations.forEach((org, o) => checkOrganization(org, `organizations[${o}]`, problems));
  return problems;
}
