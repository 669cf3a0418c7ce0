/**
 * The control API as an OpenAPI 3.1 document (GET /__emulator/openapi.json), written from the
 * same routes as docs/control-api.md; test/api/control-openapi.test.ts checks that every path
 * it lists answers.
 */
type Json = Record<string, unknown>;

const ok = (description: string, schema: Json = { type: 'object' }): Json => ({
  description,
  content: { 'application/json': { schema } },
});
const problem: Json = {
  description: 'Error',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Problem' } } },
};
const query = (name: string, description: string, schema: Json = { type: 'string' }): Json => ({ in: 'query', name, description, schema });
const path = (name: string, description: string): Json => ({ in: 'path', name, required: true, description, schema: { type: 'string' } });
const body = (schema: Json): Json => ({ required: true, content: { 'application/json': { schema } } });
const op = (summary: string, extra: Json = {}, responses: Json = { '200': ok('OK') }): Json => ({
  summary,
  ...extra,
  responses: { ...responses, '4XX': problem },
});
const dataOf = (schema: Json): Json => ({ type: 'object', properties: { data: schema } });
const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

const deliveryFilters = [
  query('organization', 'Organization slug'),
  query('event', 'Event kind, e.g. page.published'),
  query('webhook', 'Webhook id'),
  query('target', 'Substring of the target URL'),
  query('state', 'pending, sending, retrying, succeeded, failed, or finished', {
    enum: ['pending', 'sending', 'retrying', 'succeeded', 'failed', 'finished'],
  }),
  query('since', 'Only deliveries created at or after this time', { type: 'string', format: 'date-time' }),
];
const requestFilters = [
  query('method', 'HTTP method'),
  query('status', 'A status (404) or a class (4xx)'),
  query('path', 'Substring of the path'),
  query('organization', 'Organization slug'),
  query('surface', 'api or cdn', { enum: ['api', 'cdn'] }),
  query('since', 'From this time', { type: 'string', format: 'date-time' }),
  query('until', 'Until this time', { type: 'string', format: 'date-time' }),
  query('limit', '1 to 10000, default 100', { type: 'integer', minimum: 1, maximum: 10000 }),
];

export function controlOpenApi(version: string): Json {
  return {
    openapi: '3.1.0',
    info: {
      title: 'CMS Emulator control API',
      version,
      description:
        'The emulator’s own surface: request log, webhook deliveries and inboxes, jobs, clock, state and snapshots, dashboard actions, live events. Loopback only unless a control token is configured (X-Control-Token).',
    },
    servers: [{ url: '/__emulator' }],
    components: {
      securitySchemes: { controlToken: { type: 'apiKey', in: 'header', name: 'X-Control-Token' } },
      schemas: {
        Problem: { type: 'object', required: ['detail'], properties: { detail: { type: 'string' } } },
        LoggedRequest: { type: 'object', description: 'docs/control-api.md, Request log' },
        Delivery: { type: 'object', description: 'docs/control-api.md, Webhook deliveries' },
        Job: { type: 'object', description: 'docs/control-api.md, Jobs' },
        Inbox: {
          type: 'object',
          properties: {
            name: { type: 'string' },
            status: { type: 'integer' },
            delay_ms: { type: 'integer' },
            fail_first: { type: 'integer' },
          },
        },
        Clock: {
          type: 'object',
          properties: {
            now: { type: 'string', format: 'date-time' },
            mode: { enum: ['real', 'offset', 'frozen'] },
            offset_ms: { type: 'number' },
          },
        },
      },
    },
    paths: {
      '/requests': {
        get: op(
          'List logged requests, newest first',
          { parameters: requestFilters },
          { '200': ok('Requests', dataOf({ type: 'array', items: ref('LoggedRequest') })) },
        ),
        delete: op('Empty the request log', {}, { '204': { description: 'Emptied' } }),
      },
      '/requests/export.har': { get: op('The selected requests as HAR 1.2', { parameters: requestFilters }) },
      '/requests/export.ndjson': {
        get: op(
          'The selected requests as NDJSON',
          { parameters: requestFilters },
          { '200': { description: 'NDJSON', content: { 'application/x-ndjson': {} } } },
        ),
      },
      '/requests/{id}': { get: op('One request, with the jobs and deliveries it caused', { parameters: [path('id', 'Request id')] }) },
      '/deliveries': {
        get: op('List webhook deliveries, newest first', {
          parameters: [...deliveryFilters, query('limit', '1 to 2000, default 100', { type: 'integer' })],
        }),
        delete: op('Forget every delivery', {}, { '204': { description: 'Forgotten' } }),
      },
      '/deliveries/wait': {
        get: op(
          'Wait for a delivery matching the filters (default: finished)',
          { parameters: [...deliveryFilters, query('timeout_ms', 'Default 5000', { type: 'integer' })] },
          { '200': ok('The delivery', dataOf(ref('Delivery'))), '408': problem },
        ),
      },
      '/deliveries/{id}': { get: op('One delivery with every attempt', { parameters: [path('id', 'Delivery id')] }) },
      '/deliveries/{id}/replay': {
        post: op(
          'Send a delivery again, as sent or edited',
          {
            parameters: [path('id', 'Delivery id')],
            requestBody: {
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    properties: { body: {}, headers: { type: 'object' }, target: { type: 'string' } },
                    additionalProperties: false,
                  },
                },
              },
            },
          },
          { '201': ok('The new delivery', dataOf(ref('Delivery'))) },
        ),
      },
      '/inboxes': { get: op('Every inbox with its configuration') },
      '/inboxes/{name}': {
        get: op('An inbox and the requests it received', { parameters: [path('name', 'Inbox name')] }),
        post: op('The receiver: records the request and answers as configured', { parameters: [path('name', 'Inbox name')] }),
      },
      '/inboxes/{name}/config': {
        put: op('Configure how an inbox answers', {
          parameters: [path('name', 'Inbox name')],
          requestBody: body({
            type: 'object',
            properties: { status: { type: 'integer' }, delay_ms: { type: 'integer' }, fail_first: { type: 'integer' } },
          }),
        }),
      },
      '/inboxes/{name}/requests': {
        delete: op('Forget what an inbox received', { parameters: [path('name', 'Inbox name')] }, { '204': { description: 'Forgotten' } }),
      },
      '/jobs': {
        get: op('Background jobs, newest first', {
          parameters: [
            query('status', 'queued, running, succeeded or failed'),
            query('kind', 'Job kind'),
            query('organization', 'Organization slug'),
            query('limit', 'Default 100'),
          ],
        }),
      },
      '/jobs/idle': {
        get: op(
          'Wait until every accepted write has finished',
          {
            parameters: [
              query('timeout_ms', 'Default 10000', { type: 'integer' }),
              query('deliveries', '1: also wait for deliveries', { enum: ['0', '1'] }),
            ],
          },
          { '200': ok('Idle'), '408': problem },
        ),
      },
      '/clock': {
        get: op('The clock', {}, { '200': ok('Clock', dataOf(ref('Clock'))) }),
        put: op('Set the clock', {
          requestBody: body({
            type: 'object',
            required: ['now'],
            properties: { now: { type: 'string', format: 'date-time' }, freeze: { type: 'boolean' } },
          }),
        }),
        delete: op('Back to real time'),
      },
      '/clock/advance': {
        post: op('Move the clock forward', {
          requestBody: body({
            type: 'object',
            properties: {
              days: { type: 'number' },
              hours: { type: 'number' },
              minutes: { type: 'number' },
              seconds: { type: 'number' },
              ms: { type: 'integer' },
            },
          }),
        }),
      },
      '/reset': { post: op('Back to the fixture') },
      '/fixtures/load': {
        post: op('Load another fixture', {
          requestBody: body({ type: 'object', required: ['fixture'], properties: { fixture: { type: 'string' } } }),
        }),
      },
      '/state': {
        get: op('Export the whole data file'),
        put: op('Import a whole data file', { requestBody: body({ type: 'object' }) }, { '204': { description: 'Imported' } }),
      },
      '/snapshots': {
        get: op('Saved snapshots'),
        post: op(
          'Save a snapshot',
          { requestBody: body({ type: 'object', required: ['name'], properties: { name: { type: 'string' } } }) },
          { '201': ok('Saved') },
        ),
      },
      '/snapshots/{name}/restore': {
        post: op('Restore a snapshot', { parameters: [path('name', 'Snapshot name')] }, { '204': { description: 'Restored' } }),
      },
      '/snapshots/{name}': {
        delete: op('Delete a snapshot', { parameters: [path('name', 'Snapshot name')] }, { '204': { description: 'Deleted' } }),
      },
      '/organizations/{org}/posts/{slug}/{action}': {
        post: op('Dashboard action on a post: publish, unpublish, schedule ({at}), delete', {
          parameters: [
            path('org', 'Organization slug'),
            path('slug', 'Post slug'),
            path('action', 'publish, unpublish, schedule or delete'),
          ],
        }),
      },
      '/organizations/{org}/pages/{slug}/{action}': {
        post: op('Dashboard action on a page: publish, unpublish, schedule ({at}), delete', {
          parameters: [
            path('org', 'Organization slug'),
            path('slug', 'Page slug'),
            path('action', 'publish, unpublish, schedule or delete'),
          ],
        }),
      },
      '/organizations/{org}/collections/{key}/items/{id}/{action}': {
        post: op('Dashboard action on a collection item: publish, unpublish, delete', {
          parameters: [
            path('org', 'Organization slug'),
            path('key', 'Collection key'),
            path('id', 'Item id'),
            path('action', 'publish, unpublish or delete'),
          ],
        }),
      },
      '/events': {
        get: op(
          'Live events (Server-Sent Events): a snapshot, then deltas',
          {
            parameters: [query('last_event_id', 'Resume after this event id (or the Last-Event-ID header)')],
          },
          { '200': { description: 'An event stream', content: { 'text/event-stream': {} } } },
        ),
      },
      '/store': { get: op('The data file: its path, the problem with an edit of it (or null), where a broken edit was kept') },
      '/store/settings': {
        put: op('Whether hand edits of the data file fire the webhooks of what they changed (off by default)', {
          requestBody: body({
            type: 'object',
            required: ['edits_fire_webhooks'],
            properties: { edits_fire_webhooks: { type: 'boolean' } },
          }),
        }),
      },
      '/info': {
        get: op('The version, the data folder and file, the API and CDN paths, strict mode, whether a control token is required'),
      },
      '/organizations': { get: op('Every organization with its tokens, locales and record counts (what the UI lists)') },
      '/organizations/{org}/content/{section}': {
        get: op('The stored records of one section, raw (every version), paged', {
          parameters: [
            path('org', 'Organization slug'),
            path('section', 'posts, pages, page-types, collections, authors, categories, tags, media or webhooks'),
            query('q', 'Case-insensitive substring of the slug, title or name'),
            query('limit', '1 to 1000, default 200', { type: 'integer', minimum: 1, maximum: 1000 }),
            query('offset', 'Records to skip, default 0', { type: 'integer', minimum: 0 }),
            query('page_type', 'Pages only: the pages of this page type'),
            query('single', 'Pages only: 1 for the Single Pages', { enum: ['1', 'true'] }),
          ],
        }),
      },
      '/organizations/{org}/content/{section}/{id}': {
        get: op('One record: posts, pages, authors, categories, tags by slug; page types, collections by key; media, webhooks by id', {
          parameters: [path('org', 'Organization slug'), path('section', 'The section'), path('id', 'Slug, key or id')],
        }),
      },
      '/organizations/{org}/content/collections/{key}/items/{id}': {
        get: op('One item of a collection', {
          parameters: [path('org', 'Organization slug'), path('key', 'Collection key'), path('id', 'Item id')],
        }),
      },
      '/organizations/{org}/content/collections/{key}/items': {
        get: op('The stored items of one collection, paged (same q, limit, offset)', {
          parameters: [
            path('org', 'Organization slug'),
            path('key', 'Collection key'),
            query('q', 'Substring of the item'),
            query('limit', '1 to 1000'),
            query('offset', 'Records to skip'),
          ],
        }),
      },
      '/openapi.json': { get: op('This document') },
    },
  };
}
