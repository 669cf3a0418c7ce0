/**
 * Every message the emulated API sends, in one table so tests assert them and nobody invents a
 * second wording. Messages the spec or the real service fixes are quoted exactly (see
 * ../shared/spec); the rest follow the real service's framework wording (Django REST framework),
 * which clients of the service already know. Choices are recorded in docs/spec-gaps.md.
 */
export const messages = {
  // Authentication (spec: Authentication; real service: DRF token auth)
  noCredentials: 'Authentication credentials were not provided.',
  invalidToken: 'Invalid token.',
  readTokenCannotWrite: 'Invalid token. The read token cannot write: send the write token as "Authorization: Token <token>".',
  writeTokenHeaderOnly:
    'Authentication credentials were not provided. Write endpoints accept the token only in the "Authorization: Token <token>" header.',

  // Routing
  notFound: 'Not found.',
  notFoundTrailingSlash: (path: string) => `Not found. Paths of this API end with a trailing slash: try ${path}/`,
  malformedPath: 'Malformed percent-encoding in the path.',
  methodNotAllowed: (method: string) => `Method "${method}" not allowed.`,

  // Bodies
  jsonParse: (reason: string) => `JSON parse error - ${reason}`,
  unsupportedMediaType: (type: string) => `Unsupported media type "${type}" in request.`,
  notAnObject: (got: string) => `Invalid data. Expected a dictionary, but got ${got}.`,
  bodyTooLarge: (limit: string) => `Request body is larger than the ${limit} limit.`,

  // Query parameters
  repeatedParam: (name: string) => `${name} must be given only once.`,
  intParam: (name: string, min: number, max?: number) =>
    max === undefined ? `${name} must be an integer of at least ${min}.` : `${name} must be an integer from ${min} to ${max}.`,
  flagParam: (name: string) => `${name} must be 0 or 1.`,
  boolParam: (name: string) => `${name} must be true or false.`,
  paginationConflict: 'page/page_size and limit/offset are mutually exclusive: use one pair.',
  invalidPage: 'Invalid page.',
  includeParam: 'include accepts only "recent_posts".',
  queryTooLong: 'query must be at most 100 characters.',
  pathSlugTooLong: 'slug must be at most 100 characters.',

  // Field validation (DRF wording)
  required: 'This field is required.',
  blank: 'This field may not be blank.',
  notNull: 'This field may not be null.',
  notString: 'Not a valid string.',
  notBoolean: 'Must be a valid boolean.',
  notList: (got: string) => `Expected a list of items but got type "${got}".`,
  notObject: (got: string) => `Expected a dictionary of items but got type "${got}".`,
  maxLength: (max: number) => `Ensure this field has no more than ${max} characters.`,
  invalidUrl: 'Enter a valid URL.',
  invalidChoice: (value: string) => `"${value}" is not a valid choice.`,
  invalid: 'Invalid value.',
  notNumber: 'A valid number is required.',
  notDate: 'Date has wrong format. Use an ISO 8601 date such as 2026-05-01 or 2026-05-01T09:00:00Z.',
  unknownField: 'This field is not defined by the schema.',
  singleReference: 'This reference takes a single value, not a list.',
  pageReferenceType: 'A page reference is the slug of a page (a string).',
  pageReferenceMissing: (pageType: string, slug: string) => `No page "${slug}" of page type "${pageType}".`,
  itemReferenceType: 'A collection reference is an item ID (a positive integer).',
  itemReferenceMissing: (collection: string, id: number) => `No item ${id} in collection "${collection}".`,

  // Locales (spec: Page, rules for `fields`; POST /pages/ `locale`)
  noLocales: 'This organization has no locales configured; send fields flat, without a locale.',
  noLocalesRead: 'This organization has no locales configured; read without the locale parameter.',
  unknownLocale: (locale: string, configured: string) => `Locale "${locale}" is not configured. Configured locales: ${configured}.`,
  localeNeeded: 'The single-locale form needs the locale: give the locale query parameter, or nest fields by locale.',
  noConfiguredLocale: (keys: string[], configured: string) =>
    `No configured locale among the locale keys (${keys.join(', ')}). Configured locales: ${configured}.`,
  unknownLocaleKeys: (keys: string[], configured: string) => `Unknown locale keys: ${keys.join(', ')}. Configured locales: ${configured}.`,

  // Posts (spec: POST /posts/, PATCH /posts/{slug}/)
  postStatusChoice: (value: string) =>
    `"${value}" is not a valid choice. A new post is "draft" or "published"; scheduling is not supported through the API.`,
  postSchedulingOnCreate: 'Scheduling is not supported when creating a post.',
  postSlugTaken: 'A post with this slug already exists.',
  postSlugReserved: (slug: string) => `"${slug}" is reserved by the API (it names an endpoint).`,
  postSlugEmpty: 'This slug has no letters or digits left once slugified.',
  authorShape: 'Give the author as {"email": …} or {"slug": …}.',
  scheduledStatusIgnored: 'Status "scheduled" is not supported through the API; the status was left unchanged.',
  scheduledFieldIgnored: 'The "scheduled" field is not supported through the API and was ignored.',

  // Pages (spec: POST /pages/ 400 table; GET /pages/{page_type}/ 404; PATCH rules)
  pageTypeNotFound: 'Page type not found.',
  pageNotFound: 'Page not found.',
  singlePagesRefused: 'The write API cannot create Single Pages.',
  pageTypeUnknown: (key: string) => `Page type "${key}" does not exist.`,
  pageSlugFormat: 'Enter a valid slug: letters, numbers, underscores or hyphens.',
  pageSlugTaken: 'A page with this slug already exists.',
  pageStatusChoice: (value: string) => `"${value}" is not a valid choice. Status allows only "draft" and "published".`,
  pageSchedulingOnCreate: 'Scheduling is not supported when creating a page.',
  pageTitleImmutable: 'The title of a page cannot be changed.',
  pageSlugImmutable: 'The slug of a page cannot be changed.',
  pageLimitReached: (limit: number) => `Page limit reached: your plan allows ${limit} pages. Delete a page or upgrade your plan.`,
  mediaNotFound: (url: string) => `The media URL answered 404: ${url}`,
  singlePageFilters: 'Filtering and ordering are not available for Single Pages (page type "*").',
  levelsParam: 'levels query parameter should be an integer between 1 and 5 (inclusive)',
  orderParam: (allowed: string) => `order accepts published, updated or a field key (with "-" for descending): ${allowed}.`,
  unknownFilter: (param: string, owner: string) => `Unknown field in filter ${param} for ${owner}.`,

  // Collections (spec: POST/PUT/PATCH/DELETE /content/; real service: content key reads)
  collectionNotFound: (key: string) => `Content key ${key} not found`,
  itemNotFound: 'Not found.',
  itemStatusChoice: (value: string) => `"${value}" is not a valid choice. Status is "published" or "draft".`,
  keysParam: (part: string) => `keys takes collection keys separated by commas, each optionally followed by [field=value]: "${part}".`,
  severalKeysOptions: 'Pagination needs /content/<key>/, and fields.* filters and order apply to a single collection key.',
  itemValidationFailed: (details: string) => `The item was not saved: ${details}`,

  // Media library and CDN (issue 4)
  mediaFileMissing: (file: string) => `Not found. The media record exists but its file ${file} is missing from the data folder.`,
  mediaMissing: (id: string) => `No file "${id}" in this organization's media library.`,
  notTransformable: (type: string) => `Only images can be transformed; this file is ${type}.`,

  // Background job failures (never sent by the API: recorded on the job, shown by the emulator)
  jobAuthorNotFound: (by: string, value: string) => `No author with ${by} "${value}" in this organization.`,
  jobPostGone: (slug: string) => `The post "${slug}" was deleted before the update ran.`,
  jobPageSlugTaken: (slug: string) => `A page with slug "${slug}" was created before this write ran.`,
  jobPageGone: 'The page was deleted before the update ran.',
  jobItemGone: 'The item was deleted before the update ran.',
  jobItemExists: (id: number) => `Item ${id} exists already: this create was applied before (a replay after a restart).`,
  jobSlugTaken: (slug: string) => `A post with slug "${slug}" was created before this write ran.`,
} as const;
