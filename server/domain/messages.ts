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

  // Background job failures (never sent by the API: recorded on the job, shown by the emulator)
  jobAuthorNotFound: (by: string, value: string) => `No author with ${by} "${value}" in this organization.`,
  jobPostGone: (slug: string) => `The post "${slug}" was deleted before the update ran.`,
  jobSlugTaken: (slug: string) => `A post with slug "${slug}" was created before this write ran.`,
} as const;
