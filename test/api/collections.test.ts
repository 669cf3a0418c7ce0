/**
 * Collections over real HTTP (spec: Collection item, States and transitions, POST /content/, PUT
 * and PATCH /content/{collection_key}/{item_id}/, DELETE, Errors; real-service notes: collection
 * reads, `keys`, `levels`, body field `key`). Writes answer 202 after request-shape checks only;
 * field values are validated by the background job, whose failure is read from the job list.
 *
 * Fixture test/fixtures/collections: org `acme` (locales en/es, default en) with `brands` (ids
 * 1-4: 3 is a draft, 4 deleted) and `products` (ids 11-15: 13 a draft, 15 deleted, the highest
 * id), page type `guide` whose pages reference products; org `other` (no locales) with its own
 * `brands` (21 published, 22 draft). Read tests use an emulator nobody writes to; write tests
 * create their own items; destructive tests get a fresh emulator.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../server/domain/messages.js';
import type { CollectionItem, Organization, Page, StoreData } from '../../server/store/schema.js';
import { startTestEmulator, type ApiResponse, type RequestOptions, type TestEmulator } from '../helpers/emulator.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/collections', import.meta.url));

type ItemJson = { meta: { id: number } } & Record<string, unknown>;

interface ListJson {
  meta: {
    count: number;
    next_page?: number | null;
    previous_page?: number | null;
    next_offset?: number | null;
    previous_offset?: number | null;
  };
  data: Record<string, ItemJson[]>;
}

interface SeveralJson {
  data: Record<string, ItemJson[]>;
}

interface SingleJson {
  data: ItemJson;
}

interface DetailJson {
  detail: string;
}

type Query = Record<string, string | number>;

const LOCALES = 'en, es';
const ORDERABLE = 'published, updated, name, price, in_stock';

// ---------------------------------------------------------------------------------------------
// Helpers

function tokensOf(api: TestEmulator, org: string): { read: string; write: string } {
  const tokens = api.tokens[org];
  if (!tokens) throw new Error(`the collections fixture has no organization "${org}"`);
  return tokens;
}

const itemPath = (key: string, id: number | string): string => `/content/${key}/${id}/`;

interface SendOptions {
  body?: unknown;
  /** Write token by default: acme's. */
  token?: string;
  query?: Query;
}

function send<T = unknown>(api: TestEmulator, method: string, path: string, options: SendOptions = {}): Promise<ApiResponse<T>> {
  const request: RequestOptions = { headerToken: options.token ?? tokensOf(api, 'acme').write };
  if (options.body !== undefined) request.body = options.body;
  if (options.query !== undefined) request.query = options.query;
  return api.request<T>(method, path, request);
}

function read<T = unknown>(
  api: TestEmulator,
  path: string,
  query: Query = {},
  token = tokensOf(api, 'acme').read,
): Promise<ApiResponse<T>> {
  return api.get<T>(path, { token, query });
}

function orgIn(data: StoreData, slug: string): Organization {
  const found = data.organizations.find((o) => o.slug === slug);
  if (!found) throw new Error(`no organization "${slug}" in the data file`);
  return found;
}

async function dataOrg(api: TestEmulator, slug = 'acme'): Promise<Organization> {
  return orgIn(await api.readDataFile(), slug);
}

function itemIn(org: Organization, id: number): (CollectionItem & { collection: string }) | undefined {
  for (const collection of org.collections) {
    const item = collection.items.find((i) => i.id === id);
    if (item) return { ...item, collection: collection.key };
  }
  return undefined;
}

async function dataItem(api: TestEmulator, id: number, org = 'acme'): Promise<CollectionItem & { collection: string }> {
  const item = itemIn(await dataOrg(api, org), id);
  if (!item) throw new Error(`no item ${id} in the data file of ${org}`);
  return item;
}

function pageIn(org: Organization, slug: string): Page {
  const page = org.pages.find((p) => p.slug === slug);
  if (!page) throw new Error(`no page "${slug}"`);
  return page;
}

const maxItemId = (org: Organization): number => Math.max(0, ...org.collections.flatMap((c) => c.items.map((i) => i.id)));

/** Jobs queued since `from`, leaving out media downloads (media is covered by test/api/media.test.ts). */
function jobsSince(api: TestEmulator, from: number) {
  return api.emulator.jobs
    .list()
    .slice(from)
    .filter((j) => j.kind !== 'media.import');
}

function expectPending(res: ApiResponse): void {
  expect(res.status).toBe(202);
  expect(res.body).toEqual({ status: 'pending' });
}

/** POST, expect 202, wait for the job; returns the new item's id (max id of the org + 1). */
async function createItem(api: TestEmulator, body: Record<string, unknown>, options: Omit<SendOptions, 'body'> = {}, org = 'acme') {
  const expectedId = maxItemId(await dataOrg(api, org)) + 1;
  const from = api.emulator.jobs.list().length;
  expectPending(await send(api, 'POST', '/content/', { ...options, body }));
  await api.idle();
  expect(jobsSince(api, from).map((j) => [j.kind, j.status, j.error])).toEqual([['item.create', 'succeeded', null]]);
  const item = await dataItem(api, expectedId, org);
  expect(item.collection).toBe(body['key']);
  return expectedId;
}

async function readItem(api: TestEmulator, key: string, id: number, query: Query = {}): Promise<ItemJson> {
  const res = await read<SingleJson>(api, itemPath(key, id), { preview: 1, ...query });
  expect(res.status).toBe(200);
  return res.body.data;
}

/** A write that passes the request checks (202) but whose job fails, leaving the store as it was. */
async function expectFailsInBackground(
  api: TestEmulator,
  method: string,
  path: string,
  body: unknown,
  problems: string[],
  options: Omit<SendOptions, 'body'> = {},
): Promise<void> {
  const before = await api.readDataFile();
  const from = api.emulator.jobs.list().length;
  expectPending(await send(api, method, path, { ...options, body }));
  await api.idle();
  const jobs = jobsSince(api, from);
  expect(jobs).toHaveLength(1);
  expect(jobs[0]).toMatchObject({ kind: method === 'POST' ? 'item.create' : 'item.update', status: 'failed' });
  expect(jobs[0]?.error).toBe(messages.itemValidationFailed(problems.join('; ')));
  expect(await api.readDataFile()).toEqual(before);
}

/** A request refused before any job is queued. */
async function expectRefused<T>(api: TestEmulator, method: string, path: string, options: SendOptions, status: number, body: T) {
  const before = await api.readDataFile();
  const from = api.emulator.jobs.list().length;
  const res = await send<T>(api, method, path, options);
  expect(res.status).toBe(status);
  expect(res.body).toEqual(body);
  await api.idle();
  expect(jobsSince(api, from)).toEqual([]);
  expect(await api.readDataFile()).toEqual(before);
}

/** Resolves once the wall clock is past `iso`, so two timestamps the test compares can differ. */
async function clockPast(iso: string): Promise<void> {
  while (Date.now() <= Date.parse(iso)) await new Promise((resolve) => setTimeout(resolve, 2));
}

const ids = (items: ItemJson[] | undefined): number[] => (items ?? []).map((i) => i.meta.id);
const uri = (key: string, id: number): string => `/v2/content/?keys=${key}[_id=${id}]`;

// Fixture records as reads show them (default locale en, levels 1: references as URIs).
const brand1 = { meta: { id: 1 }, name: 'Acme Gear', logo: 'https://cdn.example.com/acme.png', country: 'US' };
const brand2 = { meta: { id: 2 }, name: 'Bergwerk', logo: '', country: 'DE' };
const brand3 = { meta: { id: 3 }, name: 'Kumo', logo: '', country: 'JP' };

// ---------------------------------------------------------------------------------------------
// Writes: one emulator, every test writes its own items (fixture items are only read).

let api: TestEmulator;

beforeAll(async () => {
  api = await startTestEmulator(FIXTURE);
});

afterAll(async () => {
  await api?.close();
});

describe('POST /content/', () => {
  it('answers 202 pending, then creates a draft (default) whose id is the highest item id of all collections + 1', async () => {
    const fresh = await startTestEmulator(FIXTURE);
    try {
      // brands' own highest id is 4; the org's highest is the deleted product 15.
      const res = await send(fresh, 'POST', '/content/', { body: { key: 'brands', fields: { name: 'Nordlicht', country: 'DE' } } });
      expectPending(res);
      await fresh.idle();
      const item = await dataItem(fresh, 16);
      expect(item).toMatchObject({ collection: 'brands', id: 16, status: 'draft', deleted: null });
      expect(item.fields).toEqual({ en: { name: 'Nordlicht', country: 'DE' } });
      expect(item.created).toBe(item.updated);
      expect(Number.isNaN(Date.parse(item.created))).toBe(false);
      // A draft: not listed, not readable without preview.
      expect(ids((await read<ListJson>(fresh, '/content/brands/')).body.data['brands'])).toEqual([1, 2]);
      expect((await read(fresh, itemPath('brands', 16), { preview: 0 })).status).toBe(404);
      expect(await readItem(fresh, 'brands', 16)).toEqual({ meta: { id: 16 }, name: 'Nordlicht', logo: '', country: 'DE' });
      // The next one, in another collection, continues the same sequence.
      expectPending(await send(fresh, 'POST', '/content/', { body: { key: 'products', fields: { name: 'Bivy' } } }));
      await fresh.idle();
      expect(await dataItem(fresh, 17)).toMatchObject({ collection: 'products', status: 'draft' });
    } finally {
      await fresh.close();
    }
  });

  it('status "published" is listed at once', async () => {
    const id = await createItem(api, { key: 'brands', status: 'published', fields: { name: 'Sunpeak', country: 'US' } });
    expect((await dataItem(api, id)).status).toBe('published');
    const list = await read<ListJson>(api, '/content/brands/');
    expect(list.body.data['brands']?.find((i) => i.meta.id === id)).toEqual({ meta: { id }, name: 'Sunpeak', logo: '', country: 'US' });
    expect((await read<SingleJson>(api, itemPath('brands', id))).status).toBe(200);
  });

  it('status "draft" given explicitly gives a draft', async () => {
    const id = await createItem(api, { key: 'brands', status: 'draft', fields: { name: 'Draftwood' } });
    expect((await dataItem(api, id)).status).toBe('draft');
  });

  it('several quick POSTs get distinct consecutive ids', async () => {
    const start = maxItemId(await dataOrg(api)) + 1;
    const results = await Promise.all(
      ['Alpha', 'Beta', 'Gamma'].map((name) => send(api, 'POST', '/content/', { body: { key: 'brands', fields: { name } } })),
    );
    for (const res of results) expectPending(res);
    await api.idle();
    const org = await dataOrg(api);
    const made = [start, start + 1, start + 2].map((id) => itemIn(org, id));
    expect(made.map((i) => i?.collection)).toEqual(['brands', 'brands', 'brands']);
    expect(made.map((i) => (i?.fields['en'] as Record<string, unknown>)['name']).sort()).toEqual(['Alpha', 'Beta', 'Gamma']);
    expect(maxItemId(org)).toBe(start + 2);
  });

  it("another organization's ids follow its own items only", async () => {
    const id = await createItem(api, { key: 'brands', fields: { name: 'Other New' } }, { token: tokensOf(api, 'other').write }, 'other');
    // other's highest id is 22, whatever acme holds.
    expect(id).toBe(23);
    expect((await dataItem(api, id, 'other')).fields).toEqual({ name: 'Other New' });
  });

  it('writes every field type: number, boolean, references (by id, numeric string, page slug) and reads them back', async () => {
    const id = await createItem(api, {
      key: 'products',
      status: 'published',
      fields: { name: 'Headlamp', price: 24.5, in_stock: true, brand: '2', related: [11, 12], guide: 'winter-guide' },
    });
    const stored = await dataItem(api, id);
    expect(stored.fields).toEqual({
      en: { name: 'Headlamp', price: 24.5, in_stock: true, brand: 2, related: [11, 12], guide: 'winter-guide' },
    });
    const item = await readItem(api, 'products', id, { levels: 1 });
    expect(item).toEqual({
      meta: { id },
      name: 'Headlamp',
      price: 24.5,
      in_stock: true,
      brand: uri('brands', 2),
      related: [uri('products', 11), uri('products', 12)],
      guide: '/v2/pages/guide/winter-guide/',
    });
  });

  it('a number written as a numeric string is stored as a number', async () => {
    const id = await createItem(api, { key: 'products', fields: { name: 'Mug', price: '12.50' } });
    expect((await dataItem(api, id)).fields).toEqual({ en: { name: 'Mug', price: 12.5 } });
    expect((await readItem(api, 'products', id))['price']).toBe(12.5);
  });

  it('a single value for a multiple reference is taken as a list of one', async () => {
    const id = await createItem(api, { key: 'products', fields: { name: 'Spork', related: 12 } });
    expect((await dataItem(api, id)).fields).toEqual({ en: { name: 'Spork', related: [12] } });
  });

  it('may reference a draft item (only deleted items are missing)', async () => {
    const id = await createItem(api, { key: 'products', fields: { name: 'Kumo Vest', brand: 3, related: [13] } });
    expect((await dataItem(api, id)).fields).toEqual({ en: { name: 'Kumo Vest', brand: 3, related: [13] } });
    // Reads without preview hide the draft targets; preview shows them.
    const item = await readItem(api, 'products', id);
    expect(item['brand']).toMatchObject({ meta: { id: 3 }, name: 'Kumo' });
    expect(ids(item['related'] as ItemJson[])).toEqual([13]);
  });

  it('omitted optional fields read as empty values of their type', async () => {
    const id = await createItem(api, { key: 'products', fields: { name: 'Bare' } });
    expect(await readItem(api, 'products', id)).toEqual({
      meta: { id },
      name: 'Bare',
      price: null,
      in_stock: null,
      brand: null,
      related: [],
      guide: null,
    });
  });

  it('media: a URL string, or {url, alt}; alt_media_text=1 shows alt', async () => {
    const plain = await createItem(api, { key: 'brands', fields: { name: 'Plain Logo', logo: 'https://cdn.example.com/plain.png' } });
    const withAlt = await createItem(api, {
      key: 'brands',
      fields: { name: 'Alt Logo', logo: { url: 'https://cdn.example.com/alt.png', alt: 'A mountain' } },
    });
    expect((await dataItem(api, plain)).fields).toEqual({
      en: { name: 'Plain Logo', logo: { url: 'https://cdn.example.com/plain.png', alt: null } },
    });
    expect((await readItem(api, 'brands', plain))['logo']).toBe('https://cdn.example.com/plain.png');
    expect((await readItem(api, 'brands', plain, { alt_media_text: 1 }))['logo']).toEqual({ url: 'https://cdn.example.com/plain.png' });
    expect((await readItem(api, 'brands', withAlt))['logo']).toBe('https://cdn.example.com/alt.png');
    expect((await readItem(api, 'brands', withAlt, { alt_media_text: 1 }))['logo']).toEqual({
      url: 'https://cdn.example.com/alt.png',
      alt: 'A mountain',
    });
  });

  describe('locales', () => {
    it('a flat body goes to the default locale (en); es stays empty', async () => {
      const id = await createItem(api, { key: 'brands', fields: { name: 'Flat Default', country: 'JP' } });
      expect((await dataItem(api, id)).fields).toEqual({ en: { name: 'Flat Default', country: 'JP' } });
      expect(await readItem(api, 'brands', id, { locale: 'es' })).toEqual({ meta: { id }, name: '', logo: '', country: '' });
    });

    it('a flat body with ?locale=es goes to es', async () => {
      const id = await createItem(api, { key: 'brands', fields: { name: 'Solo Español' } }, { query: { locale: 'es' } });
      expect((await dataItem(api, id)).fields).toEqual({ es: { name: 'Solo Español' } });
      expect((await readItem(api, 'brands', id, { locale: 'es' }))['name']).toBe('Solo Español');
      expect((await readItem(api, 'brands', id))['name']).toBe('');
    });

    it('a body nested by locale writes each locale; reads with locale=es show the es values', async () => {
      const id = await createItem(api, {
        key: 'products',
        status: 'published',
        fields: { en: { name: 'Trekking Pole', brand: 1 }, es: { name: 'Bastón de trekking', brand: 2 } },
      });
      expect((await dataItem(api, id)).fields).toEqual({
        en: { name: 'Trekking Pole', brand: 1 },
        es: { name: 'Bastón de trekking', brand: 2 },
      });
      const es = await readItem(api, 'products', id, { locale: 'es', levels: 1 });
      expect(es).toMatchObject({ name: 'Bastón de trekking', brand: uri('brands', 2) });
      const en = await readItem(api, 'products', id, { levels: 1 });
      expect(en).toMatchObject({ name: 'Trekking Pole', brand: uri('brands', 1) });
    });

    it('nested keys naming no configured locale → 400 {fields: [noConfiguredLocale]}', async () => {
      await expectRefused(api, 'POST', '/content/', { body: { key: 'brands', fields: { fr: { name: 'Marque' } } } }, 400, {
        fields: [messages.noConfiguredLocale(['fr'], LOCALES)],
      });
    });

    it('nested keys mixing a configured and an unknown locale → 400 {fields: [unknownLocaleKeys]}', async () => {
      await expectRefused(
        api,
        'POST',
        '/content/',
        { body: { key: 'brands', fields: { en: { name: 'Brand' }, fr: { name: 'Marque' } } } },
        400,
        { fields: [messages.unknownLocaleKeys(['fr'], LOCALES)] },
      );
    });

    it('?locale= naming an unconfigured locale → 400 {locale: [unknownLocale]}', async () => {
      await expectRefused(api, 'POST', '/content/', { body: { key: 'brands', fields: { name: 'Marque' } }, query: { locale: 'fr' } }, 400, {
        locale: [messages.unknownLocale('fr', LOCALES)],
      });
    });

    it('an organization without locales: flat content; nested → 400 {fields}; ?locale= → 400 {locale: [noLocales]}', async () => {
      const token = tokensOf(api, 'other').write;
      await expectRefused(api, 'POST', '/content/', { token, body: { key: 'brands', fields: { en: { name: 'Nested' } } } }, 400, {
        fields: [messages.noConfiguredLocale(['en'], '(none)')],
      });
      await expectRefused(
        api,
        'POST',
        '/content/',
        { token, body: { key: 'brands', fields: { name: 'Flat' } }, query: { locale: 'en' } },
        400,
        { locale: [messages.noLocales] },
      );
      const id = await createItem(api, { key: 'brands', fields: { name: 'Flat Other', founded: 2001 } }, { token }, 'other');
      expect((await dataItem(api, id, 'other')).fields).toEqual({ name: 'Flat Other', founded: 2001 });
    });
  });

  describe('request checks (400/404 at once, nothing queued)', () => {
    it.each([
      ['missing', {}],
      ['empty', { key: '' }],
      ['null', { key: null }],
    ])('body field `key` %s → 400 {key: [required]}', async (_label, extra) => {
      await expectRefused(api, 'POST', '/content/', { body: { fields: { name: 'No key' }, ...extra } }, 400, { key: [messages.required] });
    });

    it('`key` not a string → 400 {key: [notString]}', async () => {
      await expectRefused(api, 'POST', '/content/', { body: { key: 7, fields: { name: 'x' } } }, 400, { key: [messages.notString] });
    });

    it('unknown collection → 404 {detail: collectionNotFound}', async () => {
      await expectRefused(api, 'POST', '/content/', { body: { key: 'lanterns', fields: { name: 'x' } } }, 404, {
        detail: messages.collectionNotFound('lanterns'),
      });
    });

    it.each([['scheduled'], ['archived'], [''], [true]])('status %j → 400 {status: [itemStatusChoice]}', async (status) => {
      await expectRefused(api, 'POST', '/content/', { body: { key: 'brands', status, fields: { name: 'x' } } }, 400, {
        status: [messages.itemStatusChoice(String(status))],
      });
    });

    it('`fields` missing → 400 {fields: [required]}; null → [notNull]', async () => {
      await expectRefused(api, 'POST', '/content/', { body: { key: 'brands' } }, 400, { fields: [messages.required] });
      await expectRefused(api, 'POST', '/content/', { body: { key: 'brands', fields: null } }, 400, { fields: [messages.notNull] });
    });

    it('`fields` a list → 400 {fields: [notObject("list")]}', async () => {
      await expectRefused(api, 'POST', '/content/', { body: { key: 'brands', fields: [{ name: 'x' }] } }, 400, {
        fields: [messages.notObject('list')],
      });
    });

    it('`fields` a string → 400 {fields: [notObject("str")]} (the DRF type name, as in field errors)', async () => {
      await expectRefused(api, 'POST', '/content/', { body: { key: 'brands', fields: 'name=x' } }, 400, {
        fields: [messages.notObject('str')],
      });
    });

    it('reports status and fields problems together', async () => {
      await expectRefused(api, 'POST', '/content/', { body: { key: 'brands', status: 'live' } }, 400, {
        status: [messages.itemStatusChoice('live')],
        fields: [messages.required],
      });
    });

    it('an unknown collection is reported before body problems', async () => {
      await expectRefused(api, 'POST', '/content/', { body: { key: 'lanterns', status: 'live' } }, 404, {
        detail: messages.collectionNotFound('lanterns'),
      });
    });

    it('a JSON array body → 400 {detail: notAnObject("list")}; malformed JSON → 400 JSON parse error', async () => {
      await expectRefused(api, 'POST', '/content/', { body: [{ key: 'brands' }] }, 400, { detail: messages.notAnObject('list') });
      const res = await send<DetailJson>(api, 'POST', '/content/', { body: '{"key": "brands", "fields": {' });
      expect(res.status).toBe(400);
      expect(res.body.detail).toMatch(/^JSON parse error - /);
    });
  });

  describe('field values are validated in the background (202, then the job fails, nothing stored)', () => {
    const post = (fields: unknown, key = 'products') => ({ key, fields });

    it('required field missing', async () => {
      await expectFailsInBackground(api, 'POST', '/content/', post({ price: 5 }), [`fields.en.name: ${messages.required}`]);
    });

    it.each([[''], [null]])('required field %j → blank', async (name) => {
      await expectFailsInBackground(api, 'POST', '/content/', post({ name }), [`fields.en.name: ${messages.blank}`]);
    });

    it('text not a string', async () => {
      await expectFailsInBackground(api, 'POST', '/content/', post({ name: 42 }), [`fields.en.name: ${messages.notString}`]);
    });

    it('number not a number', async () => {
      await expectFailsInBackground(api, 'POST', '/content/', post({ name: 'x', price: 'cheap' }), [
        `fields.en.price: ${messages.notNumber}`,
      ]);
    });

    it('boolean not a boolean', async () => {
      await expectFailsInBackground(api, 'POST', '/content/', post({ name: 'x', in_stock: 'yes' }), [
        `fields.en.in_stock: ${messages.notBoolean}`,
      ]);
    });

    it('dropdown value not an option', async () => {
      await expectFailsInBackground(api, 'POST', '/content/', post({ name: 'x', country: 'FR' }, 'brands'), [
        `fields.en.country: ${messages.invalidChoice('FR')}`,
      ]);
    });

    it('media not a URL', async () => {
      await expectFailsInBackground(api, 'POST', '/content/', post({ name: 'x', logo: 'not a url' }, 'brands'), [
        `fields.en.logo: ${messages.invalidUrl}`,
      ]);
    });

    it('media alt longer than 255 characters', async () => {
      await expectFailsInBackground(
        api,
        'POST',
        '/content/',
        post({ name: 'x', logo: { url: 'https://cdn.example.com/a.png', alt: 'a'.repeat(256) } }, 'brands'),
        [`fields.en.logo.alt: ${messages.maxLength(255)}`],
      );
    });

    it('a field the schema does not define', async () => {
      await expectFailsInBackground(api, 'POST', '/content/', post({ name: 'x', color: 'red' }), [
        `fields.en.color: ${messages.unknownField}`,
      ]);
    });

    it.each([
      ['an unknown id', 999],
      ['a deleted item', 4],
      ['an item of another collection', 11],
      ["another organization's item", 21],
    ])('a collection reference to %s', async (_label, brand) => {
      await expectFailsInBackground(api, 'POST', '/content/', post({ name: 'x', brand }), [
        `fields.en.brand: ${messages.itemReferenceMissing('brands', brand)}`,
      ]);
    });

    it('one missing id in a multiple reference names its index', async () => {
      await expectFailsInBackground(api, 'POST', '/content/', post({ name: 'x', related: [12, 999] }), [
        `fields.en.related[1]: ${messages.itemReferenceMissing('products', 999)}`,
      ]);
    });

    it.each([['abc'], [0], [-3], [1.5], [{ id: 1 }]])('a collection reference that is not an item id (%j)', async (brand) => {
      await expectFailsInBackground(api, 'POST', '/content/', post({ name: 'x', brand }), [
        `fields.en.brand: ${messages.itemReferenceType}`,
      ]);
    });

    it('a list for a single reference', async () => {
      await expectFailsInBackground(api, 'POST', '/content/', post({ name: 'x', brand: [1] }), [
        `fields.en.brand: ${messages.singleReference}`,
      ]);
    });

    it('a page reference to a missing or deleted page, and one that is not a slug', async () => {
      await expectFailsInBackground(api, 'POST', '/content/', post({ name: 'x', guide: 'no-such-guide' }), [
        `fields.en.guide: ${messages.pageReferenceMissing('guide', 'no-such-guide')}`,
      ]);
      await expectFailsInBackground(api, 'POST', '/content/', post({ name: 'x', guide: 'old-guide' }), [
        `fields.en.guide: ${messages.pageReferenceMissing('guide', 'old-guide')}`,
      ]);
      await expectFailsInBackground(api, 'POST', '/content/', post({ name: 'x', guide: 5 }), [
        `fields.en.guide: ${messages.pageReferenceType}`,
      ]);
    });

    it('the path names the locale of a nested body', async () => {
      await expectFailsInBackground(api, 'POST', '/content/', post({ en: { name: 'Fine' }, es: { name: '', price: 'caro' } }), [
        `fields.es.name: ${messages.blank}`,
        `fields.es.price: ${messages.notNumber}`,
      ]);
    });

    it('every problem is listed in the one failure', async () => {
      await expectFailsInBackground(api, 'POST', '/content/', post({ color: 'red', price: 'cheap', brand: 999 }), [
        `fields.en.color: ${messages.unknownField}`,
        `fields.en.name: ${messages.required}`,
        `fields.en.price: ${messages.notNumber}`,
        `fields.en.brand: ${messages.itemReferenceMissing('brands', 999)}`,
      ]);
    });

    it('an organization without locales names `fields.<key>`', async () => {
      await expectFailsInBackground(
        api,
        'POST',
        '/content/',
        { key: 'brands', fields: { founded: 'long ago' } },
        [`fields.name: ${messages.required}`, `fields.founded: ${messages.notNumber}`],
        { token: tokensOf(api, 'other').write },
      );
    });
  });

  describe('authentication and isolation', () => {
    const body = { key: 'brands', fields: { name: 'Unauthorized' } };

    it('no token → 401 noCredentials (before any body check)', async () => {
      const res = await api.request<DetailJson>('POST', '/content/', { body: {} });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ detail: messages.noCredentials });
    });

    it('the write token as auth_token in the query → 401 writeTokenHeaderOnly', async () => {
      const res = await api.request<DetailJson>('POST', '/content/', { token: tokensOf(api, 'acme').write, body });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ detail: messages.writeTokenHeaderOnly });
    });

    it('the read token in the header → 401 readTokenCannotWrite', async () => {
      await expectRefused(api, 'POST', '/content/', { body, token: tokensOf(api, 'acme').read }, 401, {
        detail: messages.readTokenCannotWrite,
      });
    });

    it('an unknown token → 401 invalidToken', async () => {
      await expectRefused(api, 'POST', '/content/', { body, token: 'not-a-real-token' }, 401, { detail: messages.invalidToken });
    });

    it("another organization's write token cannot create in a collection only acme has → 404", async () => {
      await expectRefused(
        api,
        'POST',
        '/content/',
        { body: { key: 'products', fields: { name: 'x' } }, token: tokensOf(api, 'other').write },
        404,
        {
          detail: messages.collectionNotFound('products'),
        },
      );
    });
  });
});

describe('PUT /content/{collection_key}/{item_id}/', () => {
  async function fullProduct(status = 'published'): Promise<number> {
    return createItem(api, {
      key: 'products',
      status,
      fields: { name: 'Full', price: 10, in_stock: true, brand: 1, related: [11], guide: 'trail-guide' },
    });
  }

  it('replaces the fields entirely: omitted optional fields become empty; omitted status keeps the current one', async () => {
    const id = await fullProduct();
    const before = await dataItem(api, id);
    const res = await send(api, 'PUT', itemPath('products', id), { body: { fields: { name: 'Replaced', price: 11 } } });
    expectPending(res);
    await api.idle();
    const after = await dataItem(api, id);
    expect(after.fields).toEqual({ en: { name: 'Replaced', price: 11 } });
    expect(after.status).toBe('published');
    expect(after.created).toBe(before.created);
    expect(after.deleted).toBeNull();
    const item = await read<SingleJson>(api, itemPath('products', id));
    expect(item.status).toBe(200);
    expect(item.body.data).toEqual({ meta: { id }, name: 'Replaced', price: 11, in_stock: null, brand: null, related: [], guide: null });
  });

  it('changes the status: draft hides the item from listings', async () => {
    const id = await fullProduct();
    expectPending(await send(api, 'PUT', itemPath('products', id), { body: { status: 'draft', fields: { name: 'Now draft' } } }));
    await api.idle();
    expect((await dataItem(api, id)).status).toBe('draft');
    expect(ids((await read<ListJson>(api, '/content/products/', { page_size: 100 })).body.data['products'])).not.toContain(id);
    expect((await read(api, itemPath('products', id), { preview: 0 })).status).toBe(404);
  });

  it('publishes a draft', async () => {
    const id = await fullProduct('draft');
    expectPending(await send(api, 'PUT', itemPath('products', id), { body: { status: 'published', fields: { name: 'Live now' } } }));
    await api.idle();
    expect((await read<SingleJson>(api, itemPath('products', id))).body.data['name']).toBe('Live now');
  });

  it('a flat body with ?locale=es replaces es only; en keeps its values', async () => {
    const id = await createItem(api, {
      key: 'products',
      fields: { en: { name: 'Lantern', price: 20 }, es: { name: 'Linterna', price: 20, in_stock: true } },
    });
    expectPending(await send(api, 'PUT', itemPath('products', id), { body: { fields: { name: 'Farol' } }, query: { locale: 'es' } }));
    await api.idle();
    expect((await dataItem(api, id)).fields).toEqual({ en: { name: 'Lantern', price: 20 }, es: { name: 'Farol' } });
  });

  it('references are replaced by the new values, and set by page slug and item ids', async () => {
    const id = await fullProduct();
    expectPending(
      await send(api, 'PUT', itemPath('products', id), {
        body: { fields: { name: 'Rewired', brand: 2, related: [12, 14], guide: 'winter-guide' } },
      }),
    );
    await api.idle();
    expect((await dataItem(api, id)).fields).toEqual({ en: { name: 'Rewired', brand: 2, related: [12, 14], guide: 'winter-guide' } });
  });

  it('an omitted required field → 202, the job fails, the item is unchanged', async () => {
    const id = await fullProduct();
    await expectFailsInBackground(api, 'PUT', itemPath('products', id), { fields: { price: 12 } }, [
      `fields.en.name: ${messages.required}`,
    ]);
  });

  it('an invalid value → 202, the job fails, the item is unchanged', async () => {
    const id = await fullProduct();
    await expectFailsInBackground(api, 'PUT', itemPath('products', id), { fields: { name: 'x', related: [999] } }, [
      `fields.en.related[0]: ${messages.itemReferenceMissing('products', 999)}`,
    ]);
  });

  it('`fields` missing → 400 {fields: [required]}; null → [notNull]; a list → [notObject]', async () => {
    const id = await fullProduct();
    await expectRefused(api, 'PUT', itemPath('products', id), { body: { status: 'draft' } }, 400, { fields: [messages.required] });
    await expectRefused(api, 'PUT', itemPath('products', id), { body: { fields: null } }, 400, { fields: [messages.notNull] });
    await expectRefused(api, 'PUT', itemPath('products', id), { body: { fields: [] } }, 400, { fields: [messages.notObject('list')] });
  });

  it('status not published/draft → 400 {status: [...]}', async () => {
    const id = await fullProduct();
    await expectRefused(api, 'PUT', itemPath('products', id), { body: { status: 'scheduled', fields: { name: 'x' } } }, 400, {
      status: [messages.itemStatusChoice('scheduled')],
    });
  });

  it('nested keys naming no configured locale → 400 {fields: [...]}', async () => {
    const id = await fullProduct();
    await expectRefused(api, 'PUT', itemPath('products', id), { body: { fields: { de: { name: 'x' } } } }, 400, {
      fields: [messages.noConfiguredLocale(['de'], LOCALES)],
    });
  });

  it.each([
    ['an unknown item', 'products', '999'],
    ['a deleted item', 'products', '15'],
    ['a non-numeric id', 'products', 'abc'],
    ['an item of another collection', 'brands', '11'],
  ])('%s → 404 Not found (checked before the body)', async (_label, key, id) => {
    await expectRefused(api, 'PUT', itemPath(key, id), { body: { fields: { name: 'x' } } }, 404, { detail: messages.itemNotFound });
    await expectRefused(api, 'PUT', itemPath(key, id), { body: { status: 'bad' } }, 404, { detail: messages.itemNotFound });
  });

  it('an unknown collection → 404 {detail: collectionNotFound}', async () => {
    await expectRefused(api, 'PUT', itemPath('lanterns', 11), { body: { fields: { name: 'x' } } }, 404, {
      detail: messages.collectionNotFound('lanterns'),
    });
  });

  it('auth: no token, read token, unknown token → 401', async () => {
    const path = itemPath('products', 11);
    const none = await api.request<DetailJson>('PUT', path, { body: { fields: { name: 'x' } } });
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ detail: messages.noCredentials });
    await expectRefused(api, 'PUT', path, { body: { fields: { name: 'x' } }, token: tokensOf(api, 'acme').read }, 401, {
      detail: messages.readTokenCannotWrite,
    });
    await expectRefused(api, 'PUT', path, { body: { fields: { name: 'x' } }, token: 'nope-nope-nope' }, 401, {
      detail: messages.invalidToken,
    });
  });

  it("another organization's write token → 404 on acme's items", async () => {
    const token = tokensOf(api, 'other').write;
    await expectRefused(api, 'PUT', itemPath('brands', 1), { body: { fields: { name: 'Hijack' } }, token }, 404, {
      detail: messages.itemNotFound,
    });
    await expectRefused(api, 'PUT', itemPath('products', 11), { body: { fields: { name: 'Hijack' } }, token }, 404, {
      detail: messages.collectionNotFound('products'),
    });
  });
});

describe('PATCH /content/{collection_key}/{item_id}/', () => {
  async function product(status = 'published'): Promise<number> {
    return createItem(api, {
      key: 'products',
      status,
      fields: {
        en: { name: 'Patchable', price: 30, in_stock: true, brand: 1, related: [11, 12], guide: 'trail-guide' },
        es: { name: 'Parcheable', price: 30, brand: 2 },
      },
    });
  }

  it('changes only the listed fields; references and status not listed stay', async () => {
    const id = await product();
    const before = await dataItem(api, id);
    await clockPast(before.updated);
    expectPending(await send(api, 'PATCH', itemPath('products', id), { body: { fields: { price: 31, in_stock: false } } }));
    await api.idle();
    const after = await dataItem(api, id);
    expect(Date.parse(after.updated)).toBeGreaterThan(Date.parse(before.updated));
    expect(after.fields).toEqual({
      en: { name: 'Patchable', price: 31, in_stock: false, brand: 1, related: [11, 12], guide: 'trail-guide' },
      es: { name: 'Parcheable', price: 30, brand: 2 },
    });
    expect(after.status).toBe('published');
    expect(after.created).toBe(before.created);
  });

  it('status alone changes the status and nothing else', async () => {
    const id = await product();
    const before = await dataItem(api, id);
    expectPending(await send(api, 'PATCH', itemPath('products', id), { body: { status: 'draft' } }));
    await api.idle();
    const after = await dataItem(api, id);
    expect(after.status).toBe('draft');
    expect(after.fields).toEqual(before.fields);
    expect((await read(api, itemPath('products', id))).status).toBe(404);
    expect((await read(api, itemPath('products', id), { preview: 1 })).status).toBe(200);
  });

  it('publishing a draft lists it', async () => {
    const id = await product('draft');
    expect(ids((await read<ListJson>(api, '/content/products/', { page_size: 100 })).body.data['products'])).not.toContain(id);
    expectPending(await send(api, 'PATCH', itemPath('products', id), { body: { status: 'published' } }));
    await api.idle();
    expect(ids((await read<ListJson>(api, '/content/products/', { page_size: 100 })).body.data['products'])).toContain(id);
  });

  it('a nested body changes only the locales it names', async () => {
    const id = await product();
    expectPending(await send(api, 'PATCH', itemPath('products', id), { body: { fields: { es: { name: 'Cambiado' } } } }));
    await api.idle();
    const fields = (await dataItem(api, id)).fields;
    expect(fields['es']).toEqual({ name: 'Cambiado', price: 30, brand: 2 });
    expect(fields['en']).toMatchObject({ name: 'Patchable', price: 30 });
  });

  it('a flat body with ?locale=es changes es only', async () => {
    const id = await product();
    expectPending(await send(api, 'PATCH', itemPath('products', id), { body: { fields: { price: 29 } }, query: { locale: 'es' } }));
    await api.idle();
    const fields = (await dataItem(api, id)).fields;
    expect(fields['es']).toEqual({ name: 'Parcheable', price: 29, brand: 2 });
    expect(fields['en']).toMatchObject({ price: 30 });
  });

  it.each([
    ['brand', ''],
    ['brand', null],
    ['guide', ''],
    ['guide', null],
  ])('clears the single reference %s with %j → null', async (field, value) => {
    const id = await product();
    expectPending(await send(api, 'PATCH', itemPath('products', id), { body: { fields: { [field]: value } } }));
    await api.idle();
    expect(((await dataItem(api, id)).fields['en'] as Record<string, unknown>)[field]).toBeNull();
    expect((await readItem(api, 'products', id))[field]).toBeNull();
  });

  it.each([[[]], [null], ['']])('clears the multiple reference with %j → []', async (value) => {
    const id = await product();
    expectPending(await send(api, 'PATCH', itemPath('products', id), { body: { fields: { related: value } } }));
    await api.idle();
    expect(((await dataItem(api, id)).fields['en'] as Record<string, unknown>)['related']).toEqual([]);
    expect((await readItem(api, 'products', id))['related']).toEqual([]);
  });

  it('sets references: a single one by id, a multiple one by ids, a page one by slug', async () => {
    const id = await createItem(api, { key: 'products', fields: { name: 'Unlinked' } });
    expectPending(
      await send(api, 'PATCH', itemPath('products', id), { body: { fields: { brand: 2, related: [14, 11], guide: 'winter-guide' } } }),
    );
    await api.idle();
    expect((await dataItem(api, id)).fields).toEqual({ en: { name: 'Unlinked', brand: 2, related: [14, 11], guide: 'winter-guide' } });
    const item = await readItem(api, 'products', id);
    expect((item['brand'] as ItemJson).meta.id).toBe(2);
    expect(ids(item['related'] as ItemJson[])).toEqual([14, 11]);
    expect(item['guide']).toMatchObject({ slug: 'winter-guide', page_type: 'guide', name: 'Winter guide' });
  });

  it('quick successive PATCHes apply in the order they were accepted', async () => {
    const id = await product();
    expectPending(await send(api, 'PATCH', itemPath('products', id), { body: { fields: { price: 1 } } }));
    expectPending(await send(api, 'PATCH', itemPath('products', id), { body: { fields: { price: 2, brand: 2 } } }));
    expectPending(await send(api, 'PATCH', itemPath('products', id), { body: { fields: { brand: '' } } }));
    await api.idle();
    expect((await dataItem(api, id)).fields['en']).toMatchObject({ price: 2, brand: null });
  });

  it('no `fields` at all is accepted (fields are optional on PATCH)', async () => {
    const id = await product();
    const before = await dataItem(api, id);
    expectPending(await send(api, 'PATCH', itemPath('products', id), { body: {} }));
    await api.idle();
    expect((await dataItem(api, id)).fields).toEqual(before.fields);
  });

  it('an invalid value → 202, the job fails, nothing changes', async () => {
    const id = await product();
    await expectFailsInBackground(api, 'PATCH', itemPath('products', id), { fields: { price: 'free', brand: 4 } }, [
      `fields.en.price: ${messages.notNumber}`,
      `fields.en.brand: ${messages.itemReferenceMissing('brands', 4)}`,
    ]);
  });

  it('blanking a required field → 202, the job fails', async () => {
    const id = await product();
    await expectFailsInBackground(api, 'PATCH', itemPath('products', id), { fields: { name: '' } }, [`fields.en.name: ${messages.blank}`]);
  });

  it('an unknown field → 202, the job fails', async () => {
    const id = await product();
    await expectFailsInBackground(api, 'PATCH', itemPath('products', id), { fields: { weight: 3 } }, [
      `fields.en.weight: ${messages.unknownField}`,
    ]);
  });

  it('status not published/draft → 400; fields not an object → 400', async () => {
    const id = await product();
    await expectRefused(api, 'PATCH', itemPath('products', id), { body: { status: 'deleted' } }, 400, {
      status: [messages.itemStatusChoice('deleted')],
    });
    await expectRefused(api, 'PATCH', itemPath('products', id), { body: { fields: ['name'] } }, 400, {
      fields: [messages.notObject('list')],
    });
  });

  it('nested keys naming no configured locale → 400', async () => {
    const id = await product();
    await expectRefused(api, 'PATCH', itemPath('products', id), { body: { fields: { pt: { name: 'x' } } } }, 400, {
      fields: [messages.noConfiguredLocale(['pt'], LOCALES)],
    });
  });

  it.each([
    ['an unknown item', 'products', '999'],
    ['a deleted item', 'products', '15'],
    ['a non-numeric id', 'products', '11a'],
    ['an item of another collection', 'products', '1'],
  ])('%s → 404 Not found', async (_label, key, id) => {
    await expectRefused(api, 'PATCH', itemPath(key, id), { body: { status: 'draft' } }, 404, { detail: messages.itemNotFound });
  });

  it('an unknown collection → 404 collectionNotFound', async () => {
    await expectRefused(api, 'PATCH', itemPath('lanterns', 11), { body: { status: 'draft' } }, 404, {
      detail: messages.collectionNotFound('lanterns'),
    });
  });

  it('auth: the read token and no token → 401', async () => {
    const path = itemPath('products', 11);
    await expectRefused(api, 'PATCH', path, { body: { status: 'draft' }, token: tokensOf(api, 'acme').read }, 401, {
      detail: messages.readTokenCannotWrite,
    });
    const none = await api.request<DetailJson>('PATCH', path, { body: { status: 'draft' } });
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ detail: messages.noCredentials });
  });

  it("another organization's write token → 404; acme cannot patch other's items either", async () => {
    await expectRefused(api, 'PATCH', itemPath('brands', 2), { body: { status: 'draft' }, token: tokensOf(api, 'other').write }, 404, {
      detail: messages.itemNotFound,
    });
    await expectRefused(api, 'PATCH', itemPath('brands', 21), { body: { status: 'draft' } }, 404, { detail: messages.itemNotFound });
  });

  it('the other organization patches its own flat item', async () => {
    const token = tokensOf(api, 'other').write;
    expectPending(await send(api, 'PATCH', itemPath('brands', 22), { token, body: { status: 'published', fields: { founded: 2020 } } }));
    await api.idle();
    expect(await dataItem(api, 22, 'other')).toMatchObject({ status: 'published', fields: { name: 'Other Draft', founded: 2020 } });
  });
});

describe('DELETE /content/{collection_key}/{item_id}/', () => {
  it('answers 204 with an empty body; the record stays in the data file with `deleted` set', async () => {
    const id = await createItem(api, { key: 'brands', status: 'published', fields: { name: 'Doomed' } });
    const res = await send(api, 'DELETE', itemPath('brands', id));
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const item = await dataItem(api, id);
    expect(item.deleted).not.toBeNull();
    expect(Number.isNaN(Date.parse(item.deleted ?? ''))).toBe(false);
    expect(item.fields).toEqual({ en: { name: 'Doomed' } });
  });

  it('a deleted item leaves listings (even with preview), single reads and key selectors', async () => {
    const id = await createItem(api, { key: 'brands', status: 'published', fields: { name: 'Vanishing' } });
    expect(ids((await read<ListJson>(api, '/content/brands/', { page_size: 100 })).body.data['brands'])).toContain(id);
    expect((await send(api, 'DELETE', itemPath('brands', id))).status).toBe(204);
    for (const preview of [0, 1]) {
      expect(ids((await read<ListJson>(api, '/content/brands/', { page_size: 100, preview })).body.data['brands'])).not.toContain(id);
      expect((await read(api, itemPath('brands', id), { preview })).status).toBe(404);
      const selected = await read<SeveralJson>(api, '/content/', { keys: `brands[_id=${id}]`, preview });
      expect(selected.body.data['brands']).toEqual([]);
    }
  });

  it('a draft can be deleted', async () => {
    const id = await createItem(api, { key: 'brands', fields: { name: 'Draft to delete' } });
    expect((await send(api, 'DELETE', itemPath('brands', id))).status).toBe(204);
    expect((await dataItem(api, id)).deleted).not.toBeNull();
  });

  it('after a delete: DELETE, PUT and PATCH of the item → 404', async () => {
    const id = await createItem(api, { key: 'brands', fields: { name: 'Once' } });
    expect((await send(api, 'DELETE', itemPath('brands', id))).status).toBe(204);
    await api.idle();
    await expectRefused(api, 'DELETE', itemPath('brands', id), {}, 404, { detail: messages.itemNotFound });
    await expectRefused(api, 'PUT', itemPath('brands', id), { body: { fields: { name: 'Back' } } }, 404, { detail: messages.itemNotFound });
    await expectRefused(api, 'PATCH', itemPath('brands', id), { body: { status: 'published' } }, 404, { detail: messages.itemNotFound });
  });

  it('the id of a deleted item is not reused', async () => {
    const id = await createItem(api, { key: 'brands', fields: { name: 'Last one' } });
    expect((await send(api, 'DELETE', itemPath('brands', id))).status).toBe(204);
    await api.idle();
    const next = await createItem(api, { key: 'brands', fields: { name: 'After last' } });
    expect(next).toBe(id + 1);
  });

  it.each([
    ['an unknown item', 'products', '999'],
    ['a fixture-deleted item', 'brands', '4'],
    ['a non-numeric id', 'products', 'eleven'],
    ['an item of another collection', 'brands', '12'],
  ])('%s → 404 Not found', async (_label, key, id) => {
    await expectRefused(api, 'DELETE', itemPath(key, id), {}, 404, { detail: messages.itemNotFound });
  });

  it('an unknown collection → 404 collectionNotFound', async () => {
    await expectRefused(api, 'DELETE', itemPath('lanterns', 11), {}, 404, { detail: messages.collectionNotFound('lanterns') });
  });

  it('auth: read token, query token, no token → 401; nothing deleted', async () => {
    const path = itemPath('products', 11);
    await expectRefused(api, 'DELETE', path, { token: tokensOf(api, 'acme').read }, 401, { detail: messages.readTokenCannotWrite });
    const query = await api.request<DetailJson>('DELETE', path, { token: tokensOf(api, 'acme').write });
    expect(query.status).toBe(401);
    expect(query.body).toEqual({ detail: messages.writeTokenHeaderOnly });
    const none = await api.request<DetailJson>('DELETE', path);
    expect(none.status).toBe(401);
    expect((await dataItem(api, 11)).deleted).toBeNull();
  });

  it("another organization's write token → 404, and the item stays", async () => {
    await expectRefused(api, 'DELETE', itemPath('brands', 1), { token: tokensOf(api, 'other').write }, 404, {
      detail: messages.itemNotFound,
    });
    await expectRefused(api, 'DELETE', itemPath('products', 11), { token: tokensOf(api, 'other').write }, 404, {
      detail: messages.collectionNotFound('products'),
    });
    expect((await dataItem(api, 1)).deleted).toBeNull();
  });

  describe('reference cleanup in the background (fresh emulator each)', () => {
    let fresh: TestEmulator | undefined;

    async function deleteOnFresh(key: string, id: number): Promise<Organization> {
      fresh = await startTestEmulator(FIXTURE);
      const from = fresh.emulator.jobs.list().length;
      const res = await send(fresh, 'DELETE', itemPath(key, id));
      expect(res.status).toBe(204);
      await fresh.idle();
      expect(jobsSince(fresh, from).map((j) => [j.kind, j.status])).toEqual([['references.cleanup', 'succeeded']]);
      return dataOrg(fresh);
    }

    afterEach(async () => {});

    it('deleting a product removes it from other products (multiple → filtered) in every locale', async () => {
      const org = await deleteOnFresh('products', 11);
      expect(itemIn(org, 11)?.deleted).not.toBeNull();
      expect(itemIn(org, 12)?.fields).toEqual({
        en: { name: 'Camp Stove', price: 49, in_stock: false, brand: 2, related: [13], guide: null },
        es: { name: 'Hornillo', price: 49, in_stock: false, brand: 2, related: [13], guide: null },
      });
      expect((itemIn(org, 14)?.fields['en'] as Record<string, unknown>)['related']).toEqual([]);
    });

    it('deleting a product clears it from pages: single → null, multiple → filtered, published and draft versions', async () => {
      const org = await deleteOnFresh('products', 11);
      const page = pageIn(org, 'trail-guide');
      expect(page.published_version?.fields).toEqual({
        en: { title: 'Trail guide', hero_product: null, picks: [12] },
        es: { title: 'Guía de sendero', hero_product: null, picks: [12] },
      });
      expect(page.draft_version?.fields).toEqual({ en: { title: 'Trail guide (revised)', hero_product: null, picks: [] } });
      // A page that never referenced it is untouched.
      expect(pageIn(org, 'winter-guide').published_version?.fields).toEqual({ en: { title: 'Winter guide', hero_product: 12, picks: [] } });
    });

    it('deleting a brand sets the single reference of its products to null; others keep theirs', async () => {
      const org = await deleteOnFresh('brands', 1);
      const brandOf = (id: number, locale: string) => ((itemIn(org, id)?.fields[locale] ?? {}) as Record<string, unknown>)['brand'];
      expect(brandOf(11, 'en')).toBeNull();
      expect(brandOf(11, 'es')).toBeNull();
      expect(brandOf(14, 'en')).toBeNull();
      expect(brandOf(12, 'en')).toBe(2);
      // Reads show the cleared reference.
      const read11 = await read<SingleJson>(fresh!, itemPath('products', 11));
      expect(read11.body.data['brand']).toBeNull();
    });

    it('deleting a draft item cleans up references to it too', async () => {
      const org = await deleteOnFresh('products', 13);
      expect((itemIn(org, 12)?.fields['en'] as Record<string, unknown>)['related']).toEqual([11]);
      expect((itemIn(org, 12)?.fields['es'] as Record<string, unknown>)['related']).toEqual([11]);
    });
  });
});

describe('routing of /content/', () => {
  it('an item path without its trailing slash → 404 with the hint', async () => {
    const res = await send<DetailJson>(api, 'PATCH', '/content/products/11', { body: { status: 'draft' } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: messages.notFoundTrailingSlash('/v2/content/products/11') });
  });

  it('POST to a collection path → 405 (items are created with POST /content/ and body `key`)', async () => {
    const res = await send<DetailJson>(api, 'POST', '/content/products/', { body: { fields: { name: 'x' } } });
    expect(res.status).toBe(405);
    expect(res.body).toEqual({ detail: messages.methodNotAllowed('POST') });
  });

  it('POST to an item path → 405', async () => {
    const res = await send<DetailJson>(api, 'POST', itemPath('products', 11), { body: { fields: { name: 'x' } } });
    expect(res.status).toBe(405);
    expect(res.body).toEqual({ detail: messages.methodNotAllowed('POST') });
  });
});

// ---------------------------------------------------------------------------------------------
// Reads: an emulator no test writes to, so the fixture is exact.

describe('collection reads', () => {
  let ro: TestEmulator;
  const list = (path: string, query: Query = {}, token?: string) => read<ListJson>(ro, path, query, token);

  beforeAll(async () => {
    ro = await startTestEmulator(FIXTURE);
  });

  afterAll(async () => {
    await ro?.close();
  });

  describe('GET /content/{key}/', () => {
    it('answers {meta: {count, next_page, previous_page}, data: {key: [items]}}, published only, fields beside meta', async () => {
      const res = await list('/content/brands/');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ meta: { count: 2, next_page: null, previous_page: null }, data: { brands: [brand1, brand2] } });
    });

    it('products: drafts (13) and deleted items (15) are not listed', async () => {
      const res = await list('/content/products/');
      expect(res.body.meta).toEqual({ count: 3, next_page: null, previous_page: null });
      expect(ids(res.body.data['products'])).toEqual([11, 12, 14]);
    });

    it('preview=1 adds drafts, never deleted items', async () => {
      expect(ids((await list('/content/products/', { preview: 1 })).body.data['products'])).toEqual([11, 12, 13, 14]);
      expect((await list('/content/brands/', { preview: 1 })).body.data['brands']).toEqual([brand1, brand2, brand3]);
      expect(ids((await list('/content/products/', { preview: 'true' })).body.data['products'])).toEqual([11, 12, 13, 14]);
      expect(ids((await list('/content/products/', { preview: 0 })).body.data['products'])).toEqual([11, 12, 14]);
    });

    it('preview other than 0/1 → 400 flagParam', async () => {
      const res = await read<DetailJson>(ro, '/content/products/', { preview: 2 });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ detail: messages.flagParam('preview') });
    });

    it('levels 1: references are URIs (collection: ?keys=<key>[_id=<id>], page: /v2/pages/<type>/<slug>/)', async () => {
      const res = await list('/content/products/', { levels: 1 });
      expect(res.body.data['products']?.[0]).toEqual({
        meta: { id: 11 },
        name: 'Trail Tent',
        price: 199.5,
        in_stock: true,
        brand: uri('brands', 1),
        related: [uri('products', 12)],
        guide: '/v2/pages/guide/trail-guide/',
      });
    });

    it('levels default 2: references are expanded one level, then URIs', async () => {
      const res = await list('/content/products/');
      const tent = res.body.data['products']?.[0];
      expect(tent).toEqual({
        meta: { id: 11 },
        name: 'Trail Tent',
        price: 199.5,
        in_stock: true,
        brand: brand1,
        related: [
          {
            meta: { id: 12 },
            name: 'Camp Stove',
            price: 49,
            in_stock: false,
            brand: uri('brands', 2),
            // 13 is a draft: left out without preview, even as a URI.
            related: [uri('products', 11)],
            guide: null,
          },
        ],
        guide: {
          slug: 'trail-guide',
          name: 'Trail guide',
          published: '2026-01-05T10:00:00.000Z',
          updated: '2026-01-05T10:00:00.000Z',
          page_type: 'guide',
          fields: { title: 'Trail guide', hero_product: uri('products', 11), picks: [uri('products', 11), uri('products', 12)] },
          scheduled: null,
          status: 'published',
        },
      });
      expect((await list('/content/products/', { levels: 2 })).body).toEqual(res.body);
    });

    it('levels 3 expands one level deeper', async () => {
      const tent = (await list('/content/products/', { levels: 3 })).body.data['products']?.[0];
      const stove = (tent?.['related'] as ItemJson[])[0];
      expect(stove?.['brand']).toEqual(brand2);
      // The draft 13 is not visible without preview, so it drops out of the expanded list.
      expect(ids(stove?.['related'] as ItemJson[])).toEqual([11]);
      const guide = tent?.['guide'] as { fields: Record<string, unknown> };
      expect((guide.fields['hero_product'] as ItemJson).meta.id).toBe(11);
    });

    it('expanded references to drafts are hidden unless preview=1', async () => {
      const stove = (await list('/content/products/')).body.data['products']?.[1];
      expect(stove?.meta.id).toBe(12);
      expect(ids(stove?.['related'] as ItemJson[])).toEqual([11]);
      const previewStove = (await list('/content/products/', { preview: 1 })).body.data['products']?.[1];
      expect(ids(previewStove?.['related'] as ItemJson[])).toEqual([11, 13]);
    });

    it('level-1 URIs leave out drafts unless preview=1', async () => {
      const stove = await read<SingleJson>(ro, itemPath('products', 12), { levels: 1 });
      expect(stove.body.data['related']).toEqual([uri('products', 11)]);
      const preview = await read<SingleJson>(ro, itemPath('products', 12), { levels: 1, preview: 1 });
      expect(preview.body.data['related']).toEqual([uri('products', 11), uri('products', 13)]);
    });

    it.each([['0'], ['6'], ['two'], ['-1'], ['']])('levels=%j → 400 levelsParam', async (levels) => {
      const res = await read<DetailJson>(ro, '/content/products/', { levels });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ detail: messages.levelsParam });
    });

    it('levels=5 is accepted', async () => {
      expect((await list('/content/products/', { levels: 5 })).status).toBe(200);
    });

    describe('pagination', () => {
      it('page and page_size', async () => {
        const first = await list('/content/products/', { page_size: 2 });
        expect(first.body.meta).toEqual({ count: 3, next_page: 2, previous_page: null });
        expect(ids(first.body.data['products'])).toEqual([11, 12]);
        const second = await list('/content/products/', { page_size: 2, page: 2 });
        expect(second.body.meta).toEqual({ count: 3, next_page: null, previous_page: 1 });
        expect(ids(second.body.data['products'])).toEqual([14]);
      });

      it('a page past the last → 404 invalidPage', async () => {
        const res = await read<DetailJson>(ro, '/content/products/', { page_size: 2, page: 3 });
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ detail: messages.invalidPage });
      });

      it('limit and offset give offset-style meta', async () => {
        const res = await list('/content/products/', { limit: 1, offset: 1 });
        expect(res.body.meta).toEqual({ count: 3, next_offset: 2, previous_offset: 0 });
        expect(ids(res.body.data['products'])).toEqual([12]);
        const last = await list('/content/products/', { limit: 2, offset: 2 });
        expect(last.body.meta).toEqual({ count: 3, next_offset: null, previous_offset: 0 });
        expect(ids(last.body.data['products'])).toEqual([14]);
      });

      it('both styles together → 400 paginationConflict; out-of-range values → 400', async () => {
        const both = await read<DetailJson>(ro, '/content/products/', { page: 1, limit: 2 });
        expect(both.status).toBe(400);
        expect(both.body).toEqual({ detail: messages.paginationConflict });
        const size = await read<DetailJson>(ro, '/content/products/', { page_size: 0 });
        expect(size.body).toEqual({ detail: messages.intParam('page_size', 1, 100) });
        const limit = await read<DetailJson>(ro, '/content/products/', { limit: 101 });
        expect(limit.body).toEqual({ detail: messages.intParam('limit', 1, 100) });
      });

      it('pagination counts after filters', async () => {
        const res = await list('/content/products/', { 'fields.in_stock': 'true', page_size: 1 });
        expect(res.body.meta).toEqual({ count: 2, next_page: 2, previous_page: null });
        expect(ids(res.body.data['products'])).toEqual([11]);
      });
    });

    describe('locale', () => {
      it('locale=es shows es values, references expanded in es too', async () => {
        const res = await list('/content/products/', { locale: 'es' });
        const [tent, stove, filter] = res.body.data['products'] ?? [];
        expect(tent?.['name']).toBe('Tienda de sendero');
        expect(tent?.['brand']).toEqual({
          meta: { id: 1 },
          name: 'Acme Equipo',
          logo: 'https://cdn.example.com/acme-es.png',
          country: 'US',
        });
        expect(stove?.['name']).toBe('Hornillo');
        expect((tent?.['guide'] as { fields: Record<string, unknown> }).fields['title']).toBe('Guía de sendero');
        // 14 has no es content: every field is empty.
        expect(filter).toEqual({ meta: { id: 14 }, name: '', price: null, in_stock: null, brand: null, related: [], guide: null });
      });

      it('locale=en equals the default', async () => {
        expect((await list('/content/brands/', { locale: 'en' })).body).toEqual((await list('/content/brands/')).body);
      });

      it('an unconfigured locale → 400 unknownLocale', async () => {
        const res = await read<DetailJson>(ro, '/content/brands/', { locale: 'fr' });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ detail: messages.unknownLocale('fr', LOCALES) });
      });

      it('an organization without locales → 400 noLocales', async () => {
        const res = await read<DetailJson>(ro, '/content/brands/', { locale: 'en' }, tokensOf(ro, 'other').read);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ detail: messages.noLocalesRead });
      });
    });

    it('alt_media_text=1: media as {url, alt} ({url} without alt; null when empty)', async () => {
      const en = (await list('/content/brands/', { alt_media_text: 1 })).body.data['brands'];
      expect(en?.map((b) => b['logo'])).toEqual([{ url: 'https://cdn.example.com/acme.png', alt: 'Acme logo' }, null]);
      const es = (await list('/content/brands/', { alt_media_text: 1, locale: 'es' })).body.data['brands'];
      expect(es?.[0]?.['logo']).toEqual({ url: 'https://cdn.example.com/acme-es.png' });
    });

    describe('order', () => {
      it.each([
        ['name', [12, 11, 14]],
        ['-name', [14, 11, 12]],
        ['price', [14, 12, 11]],
        ['-price', [11, 12, 14]],
        ['in_stock', [12, 11, 14]],
        ['published', [11, 12, 14]],
        ['-published', [14, 12, 11]],
        ['-updated', [14, 12, 11]],
      ])('order=%s', async (order, expected) => {
        expect(ids((await list('/content/products/', { order })).body.data['products'])).toEqual(expected);
      });

      it('orders by the values of the read locale; empty values last', async () => {
        expect(ids((await list('/content/products/', { order: 'name', locale: 'es' })).body.data['products'])).toEqual([12, 11, 14]);
        expect(ids((await list('/content/products/', { order: '-name', locale: 'es' })).body.data['products'])).toEqual([11, 12, 14]);
      });

      it.each([['brand'], ['nope'], ['-related']])('order=%s → 400 orderParam', async (order) => {
        const res = await read<DetailJson>(ro, '/content/products/', { order });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ detail: messages.orderParam(ORDERABLE) });
      });
    });

    describe('fields.<path> filters', () => {
      it.each([
        ['fields.name', 'Camp Stove', [12]],
        ['fields.price', '49', [12]],
        ['fields.in_stock', 'true', [11, 14]],
        ['fields.in_stock', '0', [12]],
        ['fields.brand', '1', [11, 14]],
        ['fields.brand.name', 'Bergwerk', [12]],
        ['fields.brand.country', 'US', [11, 14]],
        ['fields.related', '12', [11]],
        ['fields.related.name', 'Trail Tent', [12, 14]],
        ['fields.guide', 'trail-guide', [11]],
        ['fields.guide.slug', 'winter-guide', [14]],
        ['fields.guide.title', 'Trail guide', [11]],
        ['fields.name', 'No such product', []],
      ])('%s=%s', async (param, value, expected) => {
        const res = await list('/content/products/', { [param]: value });
        expect(res.status).toBe(200);
        expect(ids(res.body.data['products'])).toEqual(expected);
        expect(res.body.meta.count).toBe(expected.length);
      });

      it('several filters combine', async () => {
        expect(
          ids((await list('/content/products/', { 'fields.in_stock': 'true', 'fields.brand.country': 'US' })).body.data['products']),
        ).toEqual([11, 14]);
        expect(
          ids(
            (await list('/content/products/', { 'fields.in_stock': 'true', 'fields.brand.country': 'US', 'fields.price': '35' })).body.data[
              'products'
            ],
          ),
        ).toEqual([14]);
      });

      it('filters use the read locale', async () => {
        expect(ids((await list('/content/products/', { 'fields.name': 'Hornillo', locale: 'es' })).body.data['products'])).toEqual([12]);
        expect(ids((await list('/content/products/', { 'fields.name': 'Hornillo' })).body.data['products'])).toEqual([]);
      });

      it('a filter through a reference to a draft matches only with preview=1', async () => {
        expect(ids((await list('/content/products/', { 'fields.brand.name': 'Kumo' })).body.data['products'])).toEqual([]);
        expect(ids((await list('/content/products/', { 'fields.brand.name': 'Kumo', preview: 1 })).body.data['products'])).toEqual([13]);
      });

      it.each([['fields.color'], ['fields.brand.color'], ['fields.guide.nope'], ['fields.name.first']])(
        '%s (no such field) → 400 unknownFilter',
        async (param) => {
          const res = await read<DetailJson>(ro, '/content/products/', { [param]: 'x' });
          expect(res.status).toBe(400);
          expect(res.body).toEqual({ detail: messages.unknownFilter(param, 'collection "products"') });
        },
      );
    });

    it('an unknown key → 404 "Content key X not found"', async () => {
      const res = await read<DetailJson>(ro, '/content/lanterns/');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: messages.collectionNotFound('lanterns') });
    });

    it('auth: no token → 401; unknown token → 401; header form and the write token also read', async () => {
      const none = await ro.get<DetailJson>('/content/brands/');
      expect(none.status).toBe(401);
      expect(none.body).toEqual({ detail: messages.noCredentials });
      const bad = await ro.get<DetailJson>('/content/brands/', { token: 'wrong-token-123' });
      expect(bad.status).toBe(401);
      expect(bad.body).toEqual({ detail: messages.invalidToken });
      const header = await ro.get<ListJson>('/content/brands/', { headerToken: tokensOf(ro, 'acme').read });
      expect(header.body.data['brands']).toEqual([brand1, brand2]);
      const write = await ro.get<ListJson>('/content/brands/', { token: tokensOf(ro, 'acme').write });
      expect(write.status).toBe(200);
    });

    it("isolation: another organization reads its own collection of the same key, and not acme's others", async () => {
      const token = tokensOf(ro, 'other').read;
      const brands = await list('/content/brands/', {}, token);
      expect(brands.body).toEqual({
        meta: { count: 1, next_page: null, previous_page: null },
        data: { brands: [{ meta: { id: 21 }, name: 'Other Brand', founded: 1999 }] },
      });
      const products = await read<DetailJson>(ro, '/content/products/', {}, token);
      expect(products.status).toBe(404);
      expect(products.body).toEqual({ detail: messages.collectionNotFound('products') });
    });
  });

  describe('several keys', () => {
    it('/content/a,b/ → {data: {a: [...], b: [...]}} without meta', async () => {
      const res = await read<SeveralJson>(ro, '/content/brands,products/', { levels: 1 });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['data']);
      expect(res.body.data['brands']).toEqual([brand1, brand2]);
      expect(ids(res.body.data['products'])).toEqual([11, 12, 14]);
    });

    it('preview and locale apply to every key', async () => {
      const res = await read<SeveralJson>(ro, '/content/brands,products/', { preview: 1, locale: 'es' });
      expect(ids(res.body.data['brands'])).toEqual([1, 2, 3]);
      expect(ids(res.body.data['products'])).toEqual([11, 12, 13, 14]);
      expect(res.body.data['brands']?.[0]?.['name']).toBe('Acme Equipo');
    });

    it.each([[{ 'fields.name': 'Kumo' }], [{ order: 'name' }], [{ page: 1 }], [{ page_size: 5 }], [{ limit: 5 }], [{ offset: 0 }]])(
      'with %j → 400 severalKeysOptions',
      async (query) => {
        const res = await read<DetailJson>(ro, '/content/brands,products/', query);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ detail: messages.severalKeysOptions });
      },
    );

    it('an unknown key among them → 404', async () => {
      const res = await read<DetailJson>(ro, '/content/brands,lanterns/');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: messages.collectionNotFound('lanterns') });
    });
  });

  describe('GET /content/?keys=', () => {
    it('keys=a,b → {data: {a, b}}', async () => {
      const res = await read<SeveralJson>(ro, '/content/', { keys: 'brands,products' });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['data']);
      expect(res.body.data['brands']).toEqual([brand1, brand2]);
      expect(ids(res.body.data['products'])).toEqual([11, 12, 14]);
    });

    it('empty or absent keys → {}', async () => {
      for (const query of [{ keys: '' }, {}] as Query[]) {
        const res = await read(ro, '/content/', query);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({});
      }
    });

    it('keys=key[_id=N] selects one item', async () => {
      const res = await read<SeveralJson>(ro, '/content/', { keys: 'brands[_id=2]' });
      expect(res.body).toEqual({ data: { brands: [brand2] } });
    });

    it('keys=key[_id=N] of a draft is empty unless preview=1; of another collection is empty', async () => {
      expect((await read<SeveralJson>(ro, '/content/', { keys: 'products[_id=13]' })).body).toEqual({ data: { products: [] } });
      expect(ids((await read<SeveralJson>(ro, '/content/', { keys: 'products[_id=13]', preview: 1 })).body.data['products'])).toEqual([13]);
      expect((await read<SeveralJson>(ro, '/content/', { keys: 'brands[_id=11]' })).body).toEqual({ data: { brands: [] } });
    });

    it('keys=key[field=value] filters by a field', async () => {
      const res = await read<SeveralJson>(ro, '/content/', { keys: 'products[name=Camp Stove],brands[country=US]' });
      expect(ids(res.body.data['products'])).toEqual([12]);
      expect(res.body.data['brands']).toEqual([brand1]);
    });

    it('a selector naming no field → 400 unknownFilter', async () => {
      const res = await read<DetailJson>(ro, '/content/', { keys: 'products[nope=1]' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ detail: messages.unknownFilter('products[nope]', 'collection "products"') });
    });

    it('the selector also works in the path form /content/key[_id=N]/', async () => {
      const res = await read<ListJson>(ro, '/content/brands[_id=2]/');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ meta: { count: 1, next_page: null, previous_page: null }, data: { brands: [brand2] } });
    });

    it('a level-1 reference URI can be followed as it is', async () => {
      const tent = (await read<ListJson>(ro, '/content/products/', { levels: 1 })).body.data['products']?.[0];
      const link = String(tent?.['brand']);
      const followed = await read<SeveralJson>(ro, link.replace(/^\/v2/, ''));
      expect(followed.status).toBe(200);
      expect(followed.body).toEqual({ data: { brands: [brand1] } });
    });

    it('an unknown key → 404 "Content key X not found"', async () => {
      const res = await read<DetailJson>(ro, '/content/', { keys: 'brands,lanterns' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: 'Content key lanterns not found' });
    });

    it('a malformed key → 400 keysParam', async () => {
      const res = await read<DetailJson>(ro, '/content/', { keys: 'brands[' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ detail: messages.keysParam('brands[') });
    });

    it('needs a read token', async () => {
      expect((await ro.get('/content/', { query: { keys: 'brands' } })).status).toBe(401);
    });
  });

  describe('GET /content/{key}/{id}/', () => {
    it('answers {data: item}', async () => {
      const res = await read<SingleJson>(ro, itemPath('brands', 1));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: brand1 });
    });

    it('takes locale, levels and alt_media_text', async () => {
      const res = await read<SingleJson>(ro, itemPath('products', 11), { locale: 'es', levels: 1 });
      expect(res.body.data).toEqual({
        meta: { id: 11 },
        name: 'Tienda de sendero',
        price: 199.5,
        in_stock: true,
        brand: uri('brands', 1),
        related: [uri('products', 12)],
        guide: '/v2/pages/guide/trail-guide/',
      });
      const alt = await read<SingleJson>(ro, itemPath('brands', 1), { alt_media_text: 1 });
      expect(alt.body.data['logo']).toEqual({ url: 'https://cdn.example.com/acme.png', alt: 'Acme logo' });
    });

    it('a draft → 404 unless preview=1', async () => {
      const plain = await read<DetailJson>(ro, itemPath('brands', 3));
      expect(plain.status).toBe(404);
      expect(plain.body).toEqual({ detail: messages.itemNotFound });
      const preview = await read<SingleJson>(ro, itemPath('brands', 3), { preview: 1 });
      expect(preview.body).toEqual({ data: brand3 });
    });

    it.each([
      ['a deleted item', 'brands', '4'],
      ['an unknown id', 'brands', '999'],
      ['a non-numeric id', 'brands', 'one'],
      ['an item of another collection', 'brands', '11'],
    ])('%s → 404 Not found, even with preview', async (_label, key, id) => {
      const res = await read<DetailJson>(ro, itemPath(key, id), { preview: 1 });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: messages.itemNotFound });
    });

    it('an unknown collection → 404 collectionNotFound', async () => {
      const res = await read<DetailJson>(ro, itemPath('lanterns', 1));
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: messages.collectionNotFound('lanterns') });
    });

    it("another organization's read token → 404 on acme's items", async () => {
      const res = await read<DetailJson>(ro, itemPath('brands', 1), {}, tokensOf(ro, 'other').read);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: messages.itemNotFound });
    });

    it('needs a read token', async () => {
      const res = await ro.get<DetailJson>(itemPath('brands', 1));
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ detail: messages.noCredentials });
    });
  });
});

describe('strict mode: collection reads are off, writes still work', () => {
  let strict: TestEmulator;

  beforeAll(async () => {
    strict = await startTestEmulator(FIXTURE, { strict: true });
  });

  afterAll(async () => {
    await strict?.close();
  });

  it.each([
    ['/content/brands/', {}],
    ['/content/brands,products/', {}],
    ['/content/', { keys: 'brands' }],
    ['/content/brands/1/', {}],
  ])('GET %s %j → 404', async (path, query) => {
    const res = await read<DetailJson>(strict, path, query);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: messages.notFound });
  });

  it('POST, PATCH, PUT and DELETE work', async () => {
    const id = await createItem(strict, { key: 'brands', fields: { name: 'Strict Brand' } });
    expect(id).toBe(16);
    expectPending(await send(strict, 'PATCH', itemPath('brands', id), { body: { status: 'published' } }));
    expectPending(await send(strict, 'PUT', itemPath('brands', id), { body: { fields: { name: 'Strict Brand 2', country: 'JP' } } }));
    await strict.idle();
    expect(await dataItem(strict, id)).toMatchObject({ status: 'published', fields: { en: { name: 'Strict Brand 2', country: 'JP' } } });
    expect((await send(strict, 'DELETE', itemPath('brands', id))).status).toBe(204);
    expect((await dataItem(strict, id)).deleted).not.toBeNull();
  });
});
