/**
 * A large, realistic data file for benchmarks (issue 7 now, the load benchmark of issue 10 later).
 *
 * `generateLargeStore()` returns a StoreData with, by default:
 *   - organization `bench` (locales en/es): 500 authors, 500 categories, 500 tags, 10,000 posts
 *     (mostly published, some drafts, scheduled and soft-deleted; ~2 KB HTML bodies; 1–3
 *     categories and 0–4 tags each; dates spread over the 3 years before `end`), 2 page types
 *     (`article_page` with a component, a repeater and references; `landing_page`), 2,000 pages
 *     (published; some with a newer draft, some draft only; references to pages and items), and
 *     2 collections (`brands`, `products`) holding 10,000 items that reference each other;
 *   - organization `corner-cafe`: a small, flat (no locales) site.
 * Everything comes from a seeded PRNG and a fixed `end` date, so the same options give the same
 * file byte for byte and runs stay comparable. Scheduled posts lie years after `end`, so the
 * scheduler never publishes (and writes) anything when an emulator loads the file.
 *
 *   tsx bench/generate-store.ts <outDir> [--seed 1] [--posts 10000] [--pages 2000] [--items 10000]
 *
 * writes <outDir>/data.json (pretty-printed like the emulator's own writes) after checking it
 * with parseStoreText (server/store/load.ts).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { parseStoreText } from '../server/store/load.js';
import {
  FORMAT_VERSION,
  type Author,
  type Collection,
  type CollectionItem,
  type FieldValues,
  type Organization,
  type Page,
  type PageType,
  type PageVersion,
  type Post,
  type StoreData,
  type Term,
} from '../server/store/schema.js';

export interface LargeStoreOptions {
  /** PRNG seed; the same seed and options give the same file. Default 1. */
  seed?: number;
  authors?: number;
  categories?: number;
  tags?: number;
  posts?: number;
  pages?: number;
  /** Collection items in total: a fifth are brands, the rest products. */
  items?: number;
  /** Approximate length of a post body in characters. Default 2000. */
  bodyChars?: number;
  /** Dates are spread over the 3 years before this instant. Default 2026-06-01T00:00:00Z. */
  end?: string;
}

export const LARGE_STORE_DEFAULTS: Required<LargeStoreOptions> = {
  seed: 1,
  authors: 500,
  categories: 500,
  tags: 500,
  posts: 10_000,
  pages: 2_000,
  items: 10_000,
  bodyChars: 2_000,
  end: '2026-06-01T00:00:00.000Z',
};

/** The large organization and its tokens (bench clients need them). */
export const LARGE_ORG = { slug: 'bench', read: 'bench-read-5c1e9a7d3b', write: 'bench-write-8f2a6c4e0d' } as const;
/** The second, small organization. */
export const SMALL_ORG = { slug: 'corner-cafe', read: 'cafe-read-3e7b1d9f5a', write: 'cafe-write-6a0c8e2b4f' } as const;

// ------------------------------------------------------------------------------------ randomness

/** mulberry32: small, fast, and good enough to make benchmark data. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Random {
  readonly next: () => number;
  constructor(seed: number) {
    this.next = prng(seed);
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  /** `n` distinct elements of `list` (n ≤ list.length). */
  sample<T>(list: readonly T[], n: number): T[] {
    const chosen = new Set<number>();
    while (chosen.size < Math.min(n, list.length)) chosen.add(Math.floor(this.next() * list.length));
    return [...chosen].map((i) => list[i]!);
  }
  shuffle<T>(list: T[]): T[] {
    for (let i = list.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [list[i], list[j]] = [list[j]!, list[i]!];
    }
    return list;
  }
}

// ------------------------------------------------------------------------------------- vocabulary

const EN_WORDS = (
  'trail summit ridge valley river forest canyon meadow glacier alpine desert coast harbor island ' +
  'lake creek waterfall pass route map compass stove tent pack boots jacket layer fleece shell rope ' +
  'harness helmet lantern headlamp filter bottle ration shelter camp bivouac hike climb paddle ride ' +
  'ski snowshoe scramble traverse descent ascent weather storm wind rain snow sun dawn dusk night ' +
  'season spring summer autumn winter guide ranger permit season gear review test repair weight ' +
  'comfort warmth speed distance elevation grade slope switchback junction bridge cairn marker ' +
  'the a of and to in on with for from over under through across near beyond before after while ' +
  'quiet steady long short steep gentle rocky muddy dry wet cold warm bright early late simple ' +
  'careful light heavy durable packable waterproof breathable reliable local remote wild open ' +
  'we our you your every each most many few some first last next best good great small large'
).split(/\s+/);

const ES_WORDS = (
  'sendero cumbre cresta valle río bosque cañón pradera glaciar desierto costa puerto isla lago ' +
  'arroyo cascada paso ruta mapa brújula hornillo tienda mochila botas chaqueta capa forro cuerda ' +
  'arnés casco linterna filtro botella refugio campamento caminata escalada remo esquí raquetas ' +
  'travesía descenso ascenso tiempo tormenta viento lluvia nieve sol amanecer atardecer noche ' +
  'temporada primavera verano otoño invierno guía guarda permiso equipo prueba peso comodidad ' +
  'calor velocidad distancia altitud pendiente puente hito el la los las de y a en con para por ' +
  'sobre bajo entre cerca antes después mientras tranquilo largo corto suave rocoso seco húmedo ' +
  'frío cálido temprano tarde sencillo ligero pesado duradero impermeable fiable local remoto ' +
  'salvaje abierto nuestro cada muchos pocos primero último mejor bueno grande pequeño'
).split(/\s+/);

const TITLE_WORDS = (
  'trail summit ridge valley river forest canyon meadow glacier alpine desert coast island lake ' +
  'creek waterfall route stove tent pack boots jacket shell rope harness lantern filter shelter ' +
  'camp hike climb paddle ski snowshoe traverse weather storm winter summer autumn spring gear ' +
  'review repair guide checklist ultralight budget family solo overnight weekend dawn night'
).split(/\s+/);

const ADJECTIVES = (
  'alpine backcountry coastal desert winter summer ultralight budget family solo technical ' +
  'beginner advanced night urban remote wet dry cold high northern southern eastern western ' +
  'classic modern quick slow long short vertical hidden quiet wild'
).split(/\s+/);

const NOUNS = (
  'hiking climbing camping paddling skiing biking running navigation cooking photography ' +
  'first-aid shelters footwear layering packs stoves water weather maps permits wildlife ' +
  'trails routes gear repairs nutrition sleep safety lighting rope knots bouldering canyoneering ' +
  'fishing foraging birding mountaineering scrambling touring trekking'
).split(/\s+/);

const FIRST_NAMES = (
  'Maya Liam Sofia Noah Aiko Mateo Priya Jonas Lucia Omar Elena Kofi Ingrid Diego Hana Tomas ' +
  'Amara Felix Nadia Ravi Chloe Yusuf Marta Oskar Leila Bruno Ines Kenji Zara Pablo'
).split(/\s+/);

const LAST_NAMES = (
  'Okafor Lindqvist Garcia Tanaka Moreau Rossi Novak Haddad Fischer Silva Kowalski Nakamura ' +
  'Alvarez Brennan Costa Dubois Eriksen Ferreira Gupta Herrera Ivanova Jensen Khan Larsen Mendez ' +
  'Nilsen Ortega Petrov Quinn Romero'
).split(/\s+/);

const capitalize = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);

function sentence(r: Random, words: readonly string[], min = 8, max = 20): string {
  const n = r.int(min, max);
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(r.pick(words));
  return capitalize(out.join(' ')) + (r.chance(0.1) ? '?' : '.');
}

function paragraph(r: Random, words: readonly string[], sentences = r.int(3, 6)): string {
  const out: string[] = [];
  for (let i = 0; i < sentences; i++) out.push(sentence(r, words));
  return out.join(' ');
}

/** HTML with headings, paragraphs, links, emphasis and the odd list, about `chars` long. */
function htmlBody(r: Random, words: readonly string[], chars: number): string {
  const target = Math.round(chars * (0.7 + r.next() * 0.4)); // the last part overshoots by ~200
  const parts: string[] = [];
  let length = 0;
  const add = (html: string) => {
    parts.push(html);
    length += html.length;
  };
  add(`<p>${paragraph(r, words)}</p>`);
  while (length < target) {
    const roll = r.next();
    if (roll < 0.15) add(`<h2>${sentence(r, words, 3, 7).slice(0, -1)}</h2>`);
    else if (roll < 0.25) {
      const items = Array.from({ length: r.int(3, 5) }, () => `<li>${sentence(r, words, 4, 9)}</li>`);
      add(`<ul>${items.join('')}</ul>`);
    } else if (roll < 0.35) {
      const link = `<a href="https://example.com/${r.pick(words)}/${r.int(1, 9999)}">${r.pick(words)} ${r.pick(words)}</a>`;
      add(`<p>${sentence(r, words)} See ${link} and <strong>${r.pick(words)}</strong>. ${sentence(r, words)}</p>`);
    } else add(`<p>${paragraph(r, words)}</p>`);
  }
  return parts.join('');
}

function plain(r: Random, words: readonly string[], maxChars: number): string {
  let text = paragraph(r, words, r.int(1, 3));
  if (text.length > maxChars) text = text.slice(0, maxChars - 1).trimEnd() + '.';
  return text;
}

const image = (r: Random, kind: string) => `https://images.example.com/${kind}/${r.int(1, 99_999)}.jpg`;

/** Distinct display names from adjective–noun pairs, with a number when the pairs run out. */
function uniqueNames(r: Random, n: number, left: readonly string[], right: readonly string[]): string[] {
  const pairs = r.shuffle(left.flatMap((a) => right.map((b) => `${capitalize(a)} ${b}`)));
  return Array.from({ length: n }, (_, i) =>
    i < pairs.length ? pairs[i]! : `${pairs[i % pairs.length]!} ${Math.floor(i / pairs.length) + 1}`,
  );
}

const slugOf = (text: string) =>
  text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

// --------------------------------------------------------------------------------------- dates

const DAY = 86_400_000;
const YEAR = 365 * DAY;

// ---------------------------------------------------------------------------- the large org

function authorsOf(r: Random, n: number, domain: string): Author[] {
  return Array.from({ length: n }, (_, i) => {
    const first = r.pick(FIRST_NAMES);
    const last = r.pick(LAST_NAMES);
    const slug = `${slugOf(first)}-${slugOf(last)}-${i + 1}`;
    return {
      slug,
      first_name: first,
      last_name: last,
      email: `${slug}@${domain}`,
      bio: plain(r, EN_WORDS, 400),
      title: r.pick(['Staff writer', 'Field editor', 'Guide', 'Gear tester', 'Contributor', 'Photographer']),
      linkedin_url: r.chance(0.5) ? `https://www.linkedin.com/in/${slug}` : '',
      facebook_url: '',
      pinterest_url: '',
      instagram_url: r.chance(0.3) ? `https://www.instagram.com/${slug.replace(/-/g, '')}` : '',
      twitter_handle: r.chance(0.4) ? slug.replace(/-/g, '_').slice(0, 15) : '',
      profile_image: r.chance(0.7) ? image(r, 'authors') : '',
    };
  });
}

function termsOf(names: string[]): Term[] {
  return names.map((name) => ({ slug: slugOf(name), name }));
}

function postsOf(r: Random, o: Required<LargeStoreOptions>, authors: Author[], categories: Term[], tags: Term[]): Post[] {
  const end = Date.parse(o.end);
  const start = end - 3 * YEAR;
  const posts: Post[] = [];
  for (let i = 0; i < o.posts; i++) {
    const id = i + 1;
    const title = capitalize(Array.from({ length: r.int(4, 9) }, () => r.pick(TITLE_WORDS)).join(' '));
    const roll = r.next();
    const status: Post['status'] = roll < 0.8 ? 'published' : roll < 0.95 ? 'draft' : 'scheduled';
    // Created at least 2 days before `end`, so a publication shortly after it still lies before `end`.
    const created = start + Math.floor(r.next() * (end - start - 2 * DAY));
    const published = status === 'published' ? Math.min(end, created + Math.floor(r.next() * 2 * DAY)) : null;
    const updated = Math.min(end, (published ?? created) + (r.chance(0.3) ? Math.floor(r.next() * 60 * DAY) : 0));
    // Years after `end`: never due while the benchmarks run, so loading the file writes nothing.
    const scheduled = status === 'scheduled' ? end + 5 * YEAR + Math.floor(r.next() * YEAR) : null;
    const deleted = status === 'published' && r.chance(0.01) ? Math.min(end, updated + DAY) : null;
    const featured = r.chance(0.75);
    posts.push({
      id,
      slug: `${slugOf(title).slice(0, 80)}-${id}`,
      title,
      status,
      author: r.pick(authors).slug,
      categories: r.sample(categories, r.int(1, 3)).map((t) => t.slug),
      tags: r.sample(tags, r.int(0, 4)).map((t) => t.slug),
      featured_image: featured ? image(r, 'posts') : null,
      featured_image_alt: featured ? sentence(r, EN_WORDS, 4, 10) : '',
      body: htmlBody(r, EN_WORDS, o.bodyChars),
      summary: plain(r, EN_WORDS, 300),
      seo_title: title.slice(0, 100),
      meta_description: plain(r, EN_WORDS, 160),
      created: new Date(created).toISOString(),
      updated: new Date(updated).toISOString(),
      published: published === null ? null : new Date(published).toISOString(),
      scheduled: scheduled === null ? null : new Date(scheduled).toISOString(),
      deleted: deleted === null ? null : new Date(deleted).toISOString(),
    });
  }
  return posts;
}

const LARGE_PAGE_TYPES: PageType[] = [
  {
    key: 'article_page',
    name: 'Article page',
    fields: [
      { key: 'headline', name: 'Headline', required: true, type: 'short_text' },
      { key: 'summary', name: 'Summary', required: false, type: 'long_text' },
      { key: 'body', name: 'Body', required: false, type: 'html' },
      { key: 'hero', name: 'Hero image', required: false, type: 'media' },
      { key: 'published_on', name: 'Published on', required: false, type: 'date' },
      {
        key: 'seo',
        name: 'SEO',
        required: false,
        type: 'component',
        fields: [
          { key: 'title', name: 'SEO title', required: false, type: 'short_text' },
          { key: 'description', name: 'Meta description', required: false, type: 'long_text' },
          { key: 'og_image', name: 'Social image', required: false, type: 'media' },
        ],
      },
      {
        key: 'sections',
        name: 'Sections',
        required: false,
        type: 'repeater',
        fields: [
          { key: 'heading', name: 'Heading', required: false, type: 'short_text' },
          { key: 'text', name: 'Text', required: false, type: 'long_text' },
          { key: 'image', name: 'Image', required: false, type: 'media' },
        ],
      },
      {
        key: 'related_pages',
        name: 'Related pages',
        required: false,
        type: 'reference',
        to: { page_type: 'article_page' },
        multiple: true,
      },
      {
        key: 'featured_product',
        name: 'Featured product',
        required: false,
        type: 'reference',
        to: { collection: 'products' },
        multiple: false,
      },
      { key: 'brand', name: 'Brand', required: false, type: 'reference', to: { collection: 'brands' }, multiple: false },
    ],
  },
  {
    key: 'landing_page',
    name: 'Landing page',
    fields: [
      { key: 'title', name: 'Title', required: true, type: 'short_text' },
      { key: 'intro', name: 'Intro', required: false, type: 'long_text' },
      { key: 'theme', name: 'Theme', required: false, type: 'dropdown', options: ['light', 'dark', 'forest'] },
      { key: 'priority', name: 'Priority', required: false, type: 'number' },
      { key: 'featured', name: 'Featured', required: false, type: 'boolean' },
      { key: 'products', name: 'Products', required: false, type: 'reference', to: { collection: 'products' }, multiple: true },
      { key: 'articles', name: 'Articles', required: false, type: 'reference', to: { page_type: 'article_page' }, multiple: true },
    ],
  },
];

const BRAND_FIELDS: Collection['fields'] = [
  { key: 'name', name: 'Name', required: true, type: 'short_text' },
  { key: 'logo', name: 'Logo', required: false, type: 'media' },
  { key: 'website', name: 'Website', required: false, type: 'short_text' },
  { key: 'country', name: 'Country', required: false, type: 'dropdown', options: ['US', 'CA', 'NO', 'ES', 'IT', 'JP'] },
  { key: 'description', name: 'Description', required: false, type: 'long_text' },
  {
    key: 'flagship_products',
    name: 'Flagship products',
    required: false,
    type: 'reference',
    to: { collection: 'products' },
    multiple: true,
  },
];

const PRODUCT_FIELDS: Collection['fields'] = [
  { key: 'name', name: 'Name', required: true, type: 'short_text' },
  { key: 'sku', name: 'SKU', required: false, type: 'short_text' },
  { key: 'price', name: 'Price', required: false, type: 'number' },
  { key: 'in_stock', name: 'In stock', required: false, type: 'boolean' },
  { key: 'released', name: 'Released', required: false, type: 'date' },
  { key: 'description', name: 'Description', required: false, type: 'html' },
  { key: 'image', name: 'Image', required: false, type: 'media' },
  { key: 'brand', name: 'Brand', required: false, type: 'reference', to: { collection: 'brands' }, multiple: false },
  { key: 'related_products', name: 'Related products', required: false, type: 'reference', to: { collection: 'products' }, multiple: true },
  {
    key: 'specs',
    name: 'Specifications',
    required: false,
    type: 'repeater',
    fields: [
      { key: 'label', name: 'Label', required: false, type: 'short_text' },
      { key: 'value', name: 'Value', required: false, type: 'short_text' },
    ],
  },
];

const dateOnly = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function collectionsOf(r: Random, o: Required<LargeStoreOptions>): { collections: Collection[]; brandIds: number[]; productIds: number[] } {
  const end = Date.parse(o.end);
  const brandCount = Math.max(1, Math.round(o.items / 5));
  const productCount = Math.max(1, o.items - brandCount);
  // Ids are unique across the organization's collections: brands first, then products.
  const brandIds = Array.from({ length: brandCount }, (_, i) => i + 1);
  const productIds = Array.from({ length: productCount }, (_, i) => brandCount + i + 1);
  const stamps = () => {
    const created = end - 3 * YEAR + Math.floor(r.next() * 3 * YEAR);
    const updated = Math.min(end, created + Math.floor(r.next() * 90 * DAY));
    return { created: new Date(created).toISOString(), updated: new Date(updated).toISOString() };
  };
  const status = (): CollectionItem['status'] => (r.chance(0.9) ? 'published' : 'draft');

  const brands: CollectionItem[] = brandIds.map((id) => {
    const name = `${capitalize(r.pick(EN_WORDS))} ${capitalize(r.pick(TITLE_WORDS))} ${id}`;
    const logo = { url: image(r, 'brands'), alt: `${name} logo` };
    const website = `https://${slugOf(name)}.example`;
    const country = r.pick(['US', 'CA', 'NO', 'ES', 'IT', 'JP']);
    const flagship = r.sample(productIds, r.int(0, 3));
    const fields: FieldValues = {
      en: { name, logo, website, country, description: plain(r, EN_WORDS, 400), flagship_products: flagship },
      es: {
        name,
        logo: { ...logo, alt: `Logotipo de ${name}` },
        website,
        country,
        description: plain(r, ES_WORDS, 400),
        flagship_products: [...flagship],
      },
    };
    return { id, status: status(), fields, ...stamps(), deleted: null };
  });

  const products: CollectionItem[] = productIds.map((id) => {
    const name = `${capitalize(r.pick(ADJECTIVES))} ${capitalize(r.pick(TITLE_WORDS))} ${id}`;
    const shared = {
      name,
      sku: `SKU-${String(id).padStart(6, '0')}`,
      price: Math.round(r.next() * 50_000) / 100,
      in_stock: r.chance(0.8),
      released: dateOnly(end - Math.floor(r.next() * 3 * YEAR)),
      image: { url: image(r, 'products'), alt: name },
      brand: r.pick(brandIds),
      related_products: r.sample(productIds, r.int(0, 4)).filter((p) => p !== id),
    };
    const specs = (words: readonly string[]) =>
      Array.from({ length: r.int(1, 4) }, () => ({
        label: capitalize(r.pick(words)),
        value: `${r.int(1, 999)} ${r.pick(['g', 'cm', 'L', 'mm'])}`,
      }));
    const fields: FieldValues = {
      en: { ...structuredClone(shared), description: htmlBody(r, EN_WORDS, 500), specs: specs(EN_WORDS) },
      es: { ...structuredClone(shared), description: htmlBody(r, ES_WORDS, 500), specs: specs(ES_WORDS) },
    };
    return { id, status: status(), fields, ...stamps(), deleted: null };
  });

  return {
    collections: [
      { key: 'brands', name: 'Brands', fields: BRAND_FIELDS, items: brands },
      { key: 'products', name: 'Products', fields: PRODUCT_FIELDS, items: products },
    ],
    brandIds,
    productIds,
  };
}

function pagesOf(r: Random, o: Required<LargeStoreOptions>, authors: Author[], brandIds: number[], productIds: number[]): Page[] {
  const end = Date.parse(o.end);
  // Every fourth page is a landing page; the rest are articles (which pages refer to).
  const kinds = Array.from({ length: o.pages }, (_, i) => (i % 4 === 3 ? 'landing_page' : 'article_page'));
  const names = Array.from({ length: o.pages }, () => capitalize(Array.from({ length: r.int(2, 6) }, () => r.pick(TITLE_WORDS)).join(' ')));
  const slugs = names.map((name, i) => `${slugOf(name)}-${i + 1}`);
  const articleSlugs = slugs.filter((_, i) => kinds[i] === 'article_page');

  const articleFields = (locale: 'en' | 'es', name: string, shared: Record<string, unknown>): FieldValues => {
    const words = locale === 'en' ? EN_WORDS : ES_WORDS;
    return {
      headline: locale === 'en' ? name : `${name} (es)`,
      summary: plain(r, words, 300),
      body: htmlBody(r, words, 1200),
      hero: { url: shared['hero'] as string, alt: sentence(r, words, 4, 8) },
      published_on: shared['published_on'],
      seo: { title: name.slice(0, 60), description: plain(r, words, 160), og_image: { url: shared['hero'] as string, alt: null } },
      sections: Array.from({ length: r.int(1, 3) }, () => ({
        heading: sentence(r, words, 2, 5).slice(0, -1),
        text: plain(r, words, 300),
        image: r.chance(0.5) ? { url: image(r, 'sections'), alt: sentence(r, words, 3, 6) } : null,
      })),
      related_pages: shared['related_pages'],
      featured_product: shared['featured_product'],
      brand: shared['brand'],
    };
  };
  const landingFields = (locale: 'en' | 'es', name: string, shared: Record<string, unknown>): FieldValues => ({
    title: locale === 'en' ? name : `${name} (es)`,
    intro: plain(r, locale === 'en' ? EN_WORDS : ES_WORDS, 400),
    theme: shared['theme'],
    priority: shared['priority'],
    featured: shared['featured'],
    products: shared['products'],
    articles: shared['articles'],
  });

  const version = (kind: string, name: string, saved: number): PageVersion => {
    const shared: Record<string, unknown> =
      kind === 'article_page'
        ? {
            hero: image(r, 'pages'),
            published_on: dateOnly(saved),
            related_pages: r.sample(articleSlugs, r.int(0, 3)),
            featured_product: r.chance(0.6) ? r.pick(productIds) : null,
            brand: r.chance(0.4) ? r.pick(brandIds) : null,
          }
        : {
            theme: r.pick(['light', 'dark', 'forest']),
            priority: r.int(1, 10),
            featured: r.chance(0.3),
            products: r.sample(productIds, r.int(1, 6)),
            articles: r.sample(articleSlugs, r.int(1, 4)),
          };
    const build = kind === 'article_page' ? articleFields : landingFields;
    const author = r.pick(authors);
    return {
      // Each locale gets its own copies: no object is shared between two places of the data.
      fields: { en: build('en', name, structuredClone(shared)), es: build('es', name, structuredClone(shared)) },
      saved: new Date(saved).toISOString(),
      editor: `${author.first_name} ${author.last_name}`,
    };
  };

  return kinds.map((kind, i) => {
    const name = names[i]!;
    const created = end - 3 * YEAR + Math.floor(r.next() * (3 * YEAR - 3 * DAY));
    const roll = r.next();
    // 80 % published, 12 % published with a newer draft, 8 % draft only.
    const isPublished = roll < 0.92;
    const hasDraft = roll >= 0.8;
    const published = isPublished ? Math.min(end, created + Math.floor(r.next() * 3 * DAY)) : null;
    const updated = published === null ? null : Math.min(end, published + (r.chance(0.3) ? Math.floor(r.next() * 60 * DAY) : 0));
    const draftSaved = Math.min(end, (updated ?? created) + Math.floor(r.next() * 10 * DAY));
    return {
      id: i + 1,
      slug: slugs[i]!,
      name,
      page_type: kind,
      created: new Date(created).toISOString(),
      published: published === null ? null : new Date(published).toISOString(),
      updated: updated === null ? null : new Date(updated).toISOString(),
      scheduled: null,
      published_version: updated === null ? null : version(kind, name, updated),
      draft_version: hasDraft ? version(kind, name, draftSaved) : null,
      deleted: null,
    };
  });
}

function largeOrganization(r: Random, o: Required<LargeStoreOptions>): Organization {
  const authors = authorsOf(r, o.authors, 'trailhead.example');
  const categories = termsOf(uniqueNames(r, o.categories, ADJECTIVES, NOUNS));
  const tags = termsOf(uniqueNames(r, o.tags, TITLE_WORDS, NOUNS));
  const { collections, brandIds, productIds } = collectionsOf(r, o);
  return {
    slug: LARGE_ORG.slug,
    name: 'Trailhead Media (benchmark)',
    tokens: { read: LARGE_ORG.read, write: LARGE_ORG.write },
    owner: authors[0]!.slug,
    blog: {
      title: 'Trailhead Journal',
      description: 'A large generated site for benchmarks.',
      url: 'https://trailhead.example/blog',
      language: 'en-us',
    },
    page_limit: null,
    locales: [
      { slug: 'en', name: 'English' },
      { slug: 'es', name: 'Español' },
    ],
    default_locale: 'en',
    page_types: LARGE_PAGE_TYPES,
    pages: pagesOf(r, o, authors, brandIds, productIds),
    collections,
    media: [],
    webhooks: [],
    authors,
    categories,
    tags,
    posts: postsOf(r, o, authors, categories, tags),
  };
}

// ---------------------------------------------------------------------------- the small org

function smallOrganization(r: Random, o: Required<LargeStoreOptions>): Organization {
  const end = Date.parse(o.end);
  const authors = authorsOf(r, 3, 'corner-cafe.example');
  const categories = termsOf(['Recipes', 'News', 'Events', 'Coffee']);
  const tags = termsOf(['Espresso', 'Pastry', 'Seasonal', 'Vegan', 'Brunch']);
  const posts = Array.from({ length: 25 }, (_, i): Post => {
    const created = end - Math.floor(r.next() * YEAR);
    const title = capitalize(sentence(r, EN_WORDS, 3, 7).slice(0, -1));
    const isPublished = i % 5 !== 4;
    return {
      id: i + 1,
      slug: `${slugOf(title).slice(0, 80)}-${i + 1}`,
      title,
      status: isPublished ? 'published' : 'draft',
      author: r.pick(authors).slug,
      categories: r.sample(categories, r.int(1, 2)).map((t) => t.slug),
      tags: r.sample(tags, r.int(0, 2)).map((t) => t.slug),
      featured_image: null,
      featured_image_alt: '',
      body: htmlBody(r, EN_WORDS, 800),
      summary: plain(r, EN_WORDS, 200),
      seo_title: '',
      meta_description: '',
      created: new Date(created).toISOString(),
      updated: new Date(created).toISOString(),
      published: isPublished ? new Date(created).toISOString() : null,
      scheduled: null,
      deleted: null,
    };
  });
  const menuType: PageType = {
    key: 'menu_page',
    name: 'Menu page',
    fields: [
      { key: 'title', name: 'Title', required: true, type: 'short_text' },
      { key: 'intro', name: 'Intro', required: false, type: 'long_text' },
      { key: 'dishes', name: 'Dishes', required: false, type: 'reference', to: { collection: 'dishes' }, multiple: true },
    ],
  };
  const dishes: CollectionItem[] = Array.from({ length: 20 }, (_, i) => {
    const stamp = new Date(end - Math.floor(r.next() * YEAR)).toISOString();
    return {
      id: i + 1,
      status: 'published',
      fields: { name: `${capitalize(r.pick(EN_WORDS))} ${r.pick(['toast', 'latte', 'bowl', 'tart', 'salad'])}`, price: r.int(3, 18) },
      created: stamp,
      updated: stamp,
      deleted: null,
    };
  });
  const pages = Array.from({ length: 5 }, (_, i): Page => {
    const stamp = new Date(end - Math.floor(r.next() * YEAR)).toISOString();
    const name = ['Breakfast', 'Lunch', 'Drinks', 'Pastries', 'Specials'][i]!;
    return {
      id: i + 1,
      slug: slugOf(name),
      name,
      page_type: 'menu_page',
      created: stamp,
      published: stamp,
      updated: stamp,
      scheduled: null,
      published_version: {
        fields: { title: name, intro: plain(r, EN_WORDS, 200), dishes: r.sample(dishes, 4).map((d) => d.id) },
        saved: stamp,
        editor: `${authors[0]!.first_name} ${authors[0]!.last_name}`,
      },
      draft_version: null,
      deleted: null,
    };
  });
  return {
    slug: SMALL_ORG.slug,
    name: 'Corner Café',
    tokens: { read: SMALL_ORG.read, write: SMALL_ORG.write },
    owner: authors[0]!.slug,
    blog: { title: 'Corner Café news', description: '', url: 'https://corner-cafe.example/blog', language: 'en-us' },
    page_limit: 10,
    locales: [],
    default_locale: null,
    page_types: [menuType],
    pages,
    collections: [
      {
        key: 'dishes',
        name: 'Dishes',
        fields: [
          { key: 'name', name: 'Name', required: true, type: 'short_text' },
          { key: 'price', name: 'Price', required: false, type: 'number' },
        ],
        items: dishes,
      },
    ],
    media: [],
    webhooks: [],
    authors,
    categories,
    tags,
    posts,
  };
}

// ------------------------------------------------------------------------------------- public

/** A large, valid StoreData, the same for the same options (see the top of this file). */
export function generateLargeStore(options: LargeStoreOptions = {}): StoreData {
  const o: Required<LargeStoreOptions> = { ...LARGE_STORE_DEFAULTS, ...withoutUndefined(options) };
  if (Number.isNaN(Date.parse(o.end))) throw new Error(`generateLargeStore: end is not a date (${o.end})`);
  for (const key of ['authors', 'categories', 'tags', 'posts', 'pages', 'items'] as const) {
    if (!Number.isInteger(o[key]) || o[key] < 1) throw new Error(`generateLargeStore: ${key} must be a positive whole number`);
  }
  const r = new Random(o.seed);
  return {
    format_version: FORMAT_VERSION,
    organizations: [largeOrganization(r, o), smallOrganization(r, o)],
    inboxes: [],
  };
}

/** The text of a data file as the emulator writes it: two-space indent, trailing newline. */
export function storeText(data: StoreData): string {
  return JSON.stringify(data, null, 2) + '\n';
}

/**
 * Generates, checks (parseStoreText: schema and content checks) and writes `<outDir>/data.json`.
 * Returns the file's path and size.
 */
export async function writeLargeStore(outDir: string, options: LargeStoreOptions = {}): Promise<{ file: string; bytes: number }> {
  const text = storeText(generateLargeStore(options));
  const file = join(resolve(outDir), 'data.json');
  parseStoreText(text, file); // throws StoreLoadError, naming every problem's place
  await mkdir(resolve(outDir), { recursive: true });
  await writeFile(file, text);
  return { file, bytes: Buffer.byteLength(text) };
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

// ----------------------------------------------------------------------------------------- CLI

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      seed: { type: 'string' },
      posts: { type: 'string' },
      pages: { type: 'string' },
      items: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const outDir = positionals[0];
  if (values.help || !outDir) {
    console.log('usage: tsx bench/generate-store.ts <outDir> [--seed 1] [--posts 10000] [--pages 2000] [--items 10000]');
    process.exitCode = values.help ? 0 : 2;
    return;
  }
  const num = (raw: string | undefined) => (raw === undefined ? undefined : Number(raw));
  const started = performance.now();
  const { file, bytes } = await writeLargeStore(outDir, {
    seed: num(values.seed),
    posts: num(values.posts),
    pages: num(values.pages),
    items: num(values.items),
  });
  console.log(
    `wrote ${file}: ${(bytes / 1024 / 1024).toFixed(1)} MiB, generated and checked in ${Math.round(performance.now() - started)} ms`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
  });
}
