/**
 * The Content view against a real emulator on the demo fixture: every section of acme can be
 * browsed, a page shows its published and draft versions, dashboard actions change the record and
 * the list live, a hostile post body stays text (and runs no script in the sandboxed preview), and
 * media thumbnails load through the CDN.
 */
import type { Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './support/browser.js';
import { startUiSession, type UiSession } from './support/session.js';

let ui: UiSession;
beforeAll(async () => {
  ui = await startUiSession({ hash: '#/content/acme' });
});
afterAll(() => ui.close());

const nav = () => ui.page.getByRole('navigation', { name: 'Content sections' });
const detail = () => ui.page.locator('.record-detail article');
const detailPane = () => ui.page.locator('.record-detail .pane-body');
const count = () => ui.page.getByTestId('record-count');
/** The row of a record in the list (the selects have options too: scope to the listbox). */
const row = (list: string, text: string) => ui.page.getByRole('listbox', { name: list }).getByRole('option').filter({ hasText: text });

async function open(hash: string): Promise<void> {
  await ui.page.evaluate((h) => (location.hash = h), hash);
}

/** True when every image matched has loaded with pixels. */
async function imagesLoaded(selector: string): Promise<boolean> {
  return ui.page.evaluate(
    (sel) => [...document.querySelectorAll<HTMLImageElement>(sel)].every((img) => img.complete && img.naturalWidth > 0),
    selector,
  );
}

/**
 * Errors the test causes on purpose: Chromium saying it blocked the hostile body's script in the
 * sandboxed preview, and the network log of the 409 and the 404 (a deleted item) the test asks for.
 */
const EXPECTED_ERRORS = [
  /^Blocked script execution in 'about:srcdoc' because the document's frame is sandboxed/,
  /^Running the JavaScript URL violates the following Content Security Policy directive/,
  /^Failed to load resource: the server responded with a status of 409 \(Conflict\)$/,
  /^Failed to load resource: the server responded with a status of 404 \(Not Found\)$/,
];

describe('Content view', () => {
  it('browses every section of acme, each count matching the list, newest posts and pages first', async () => {
    const { page } = ui;
    // FAQs and Posts each hold one deleted record in the fixture: it is neither counted nor listed.
    const sections: [string, number, string?][] = [
      ['Landing Page', 4, 'About Us'],
      ['Trail Guide', 8, 'Enchantments Traverse'],
      ['Single Pages', 3, 'Careers'],
      ['Brands', 5],
      ['Products', 10],
      ['FAQs', 3],
      ['Posts', 33, 'bear-canister-rules-by-park'],
      ['Authors', 5],
      ['Categories', 6],
      ['Tags', 12],
      ['Media library', 16],
      ['Webhooks', 3],
    ];
    for (const [label, n, newest] of sections) {
      const link = nav().getByRole('link', { name: new RegExp(`^${label}\\s*${n}$`) });
      await link.click();
      await expect.poll(() => count().textContent()).toBe(`1–${n} of ${n}`);
      expect(await link.getAttribute('aria-current')).toBe('page');
      if (newest) expect(await page.getByRole('listbox', { name: label }).getByRole('option').first().textContent()).toContain(newest);
      // Open the first record: its detail shows.
      if (label === 'Media library') await page.getByTestId('media-tile').first().click();
      else await page.getByRole('listbox', { name: label }).getByRole('option').first().click();
      await detail().waitFor();
      expect(page.url()).toMatch(/#\/content\/acme\/.+\/.+/);
    }
  });

  it('shows a page with its published and draft versions side by side, per locale', async () => {
    const { page } = ui;
    await open('#/content/acme/pages/landing_page/home');
    const versions = page.getByRole('region', { name: 'Published and draft versions' });
    await versions.waitFor();
    await expect
      .poll(() => versions.getByRole('columnheader').allTextContents())
      .toEqual(['Field', expect.stringContaining('Published version'), expect.stringContaining('Draft version')]);
    const headline = versions.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /Headline/ }) });
    expect(await headline.getByRole('cell').allTextContents()).toEqual(['Gear for every trail', 'Gear for every trail, in every season']);
    expect(await headline.textContent()).toContain('changed');
    // Nested fields: the SEO component and the sections repeater are tables in the cells.
    expect(await versions.locator('table.fields.nested').count()).toBeGreaterThan(2);
    // Media values are thumbnails through the CDN, and load.
    const thumbs = versions.locator('img.thumb');
    expect(await thumbs.first().getAttribute('src')).toMatch(/\/cdn\/resize=width:160,height:160,fit:crop\/[A-Za-z0-9]{20}$/);
    await expect.poll(() => imagesLoaded('.version-compare img.thumb')).toBe(true);
    // The other locale.
    await page.getByLabel('Locale').selectOption('es');
    await expect.poll(() => headline.getByRole('cell').nth(1).textContent()).toBe('Equipo para cada sendero, en cada estación');
    await page.getByLabel('Locale').selectOption('en');

    // A page scheduled to publish its draft says when.
    await page.getByRole('listbox', { name: 'Landing Page' }).getByRole('option').filter({ hasText: 'Spring Sale' }).click();
    await expect.poll(() => versions.getByRole('columnheader').nth(2).textContent()).toMatch(/publishes .*2030/);
    await screenshot(page, 'content-pages');

    // A Single Page has only a published version.
    await open('#/content/acme/single-pages/contact');
    const single = page.getByRole('region', { name: 'Published version' });
    await single.waitFor();
    expect(await single.textContent()).toContain('No draft: the published version is the latest.');
  });

  it('reads what it shows once: the pages of a page type through the server filter, a deep-linked record by its slug', async () => {
    const { page } = ui;
    await open('#/content/acme/pages/trail_guide/half-dome-cables');
    const halfDome = page.getByTestId('page-detail').getByRole('heading', { name: 'Half Dome via the Cables' });
    // This window's reads for the link are done before counting the next window's.
    await halfDome.waitFor();
    await expect.poll(() => count().textContent()).toBe('1–8 of 8');
    const reads: string[] = [];
    const onRequest = (request: Request) => {
      const url = new URL(request.url());
      if (request.method() === 'GET' && url.pathname.startsWith('/__emulator/organizations'))
        reads.push(url.pathname.slice('/__emulator/'.length) + url.search);
    };
    page.on('request', onRequest);
    // A fresh window on the deep link: the first snapshot of the live stream must not read it all again.
    await page.reload();
    await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
    await halfDome.waitFor();
    await expect.poll(() => count().textContent()).toBe('1–8 of 8');
    expect(await row('Trail Guide', 'Half Dome').getAttribute('aria-selected')).toBe('true');
    await page.waitForTimeout(600); // a second read (the stream's snapshot, a settle timer) would have started by now
    page.off('request', onRequest);
    expect(reads.toSorted()).toEqual([
      'organizations',
      'organizations/acme/content/collections?limit=1000',
      'organizations/acme/content/page-types?limit=1000',
      'organizations/acme/content/pages/half-dome-cables',
      'organizations/acme/content/pages?page_type=trail_guide&limit=200&offset=0',
    ]);

    // Single Pages are read the same way; a deleted item is not there to open.
    reads.length = 0;
    page.on('request', onRequest);
    await open('#/content/acme/single-pages');
    await expect.poll(() => count().textContent()).toBe('1–3 of 3');
    await open('#/content/acme/collections/faqs/19');
    await expect.poll(() => detailPane().textContent()).toBe('Nothing here by the id “19”: it may have been deleted.');
    page.off('request', onRequest);
    expect(reads).toEqual(
      expect.arrayContaining([
        'organizations/acme/content/pages?single=1&limit=200&offset=0',
        'organizations/acme/content/collections/faqs/items/19',
      ]),
    );
    expect(reads.filter((r) => r.includes('q='))).toEqual([]);
  });

  it('runs dashboard actions: the record and the list change live, a 409 shows the reason', async () => {
    const { page, cms } = ui;
    await open('#/content/acme/posts/welcome');
    const post = page.getByTestId('post-detail');
    await post.waitFor();
    const listed = row('Posts', 'welcome');

    await post.getByRole('button', { name: 'Unpublish' }).click();
    await expect.poll(() => post.getByRole('status').textContent()).toBe('Unpublished welcome: draft.');
    await expect.poll(() => listed.locator('.badge').textContent()).toBe('draft');
    await expect.poll(() => post.locator('.record-title .badge').textContent()).toBe('draft');

    // Unpublishing a draft does not apply: the server's reason is shown.
    await post.getByRole('button', { name: 'Unpublish' }).click();
    await expect.poll(() => post.getByRole('alert').textContent()).toBe('The post is already a draft.');

    await post.getByRole('button', { name: 'Publish', exact: true }).click();
    await expect.poll(() => listed.locator('.badge').textContent()).toBe('published');

    // Schedule at a chosen time.
    await post.getByLabel('Publish at (local time)').fill('2031-05-06T07:08');
    await post.getByRole('button', { name: 'Schedule' }).click();
    await expect.poll(() => listed.locator('.badge').textContent()).toBe('scheduled');
    const stored = (await (await fetch(`${cms.url}/__emulator/organizations/acme/content/posts?q=welcome`)).json()) as {
      data: { slug: string; status: string; scheduled: string }[];
    };
    const welcome = stored.data.find((p) => p.slug === 'welcome')!;
    expect(welcome.status).toBe('scheduled');
    expect(new Date(welcome.scheduled).getTime()).toBe(new Date(2031, 4, 6, 7, 8).getTime());
    await post.getByRole('button', { name: 'Publish', exact: true }).click();
    await expect.poll(() => listed.locator('.badge').textContent()).toBe('published');
    await expect.poll(() => imagesLoaded('.featured img')).toBe(true);
    await screenshot(page, 'content-post');

    // A change made elsewhere (here the control API) reaches the list over the live stream.
    const res = await fetch(`${cms.url}/__emulator/organizations/acme/posts/switchback-etiquette/unpublish`, { method: 'POST' });
    expect(res.status).toBe(200);
    await expect.poll(() => row('Posts', 'switchback-etiquette').locator('.badge').textContent()).toBe('draft');

    // Delete asks first; Cancel keeps the post.
    await open('#/content/acme/posts/switchback-etiquette');
    const other = page.getByTestId('post-detail');
    await other.getByRole('heading', { name: /Switchback/ }).waitFor();
    await other.getByRole('button', { name: 'Delete…' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete switchback-etiquette?' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect(await confirm.count()).toBe(0);
    // By keyboard: the confirmation takes the focus, Escape closes it and gives the focus back.
    await other.getByRole('button', { name: 'Delete…' }).press('Enter');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    await page.keyboard.press('Escape');
    expect(await confirm.count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Delete…');
    await other.getByRole('button', { name: 'Delete…' }).click();
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect.poll(() => page.url()).toMatch(/#\/content\/acme\/posts$/);
    await page.locator('.toast').filter({ hasText: 'Deleted switchback-etiquette' }).waitFor();
    await expect.poll(() => count().textContent()).toBe('1–32 of 32');
    expect(await row('Posts', 'switchback-etiquette').count()).toBe(0);
  });

  it('shows a hostile post body as text and runs none of its script, in the list, the detail or the preview', async () => {
    const { page, cms } = ui;
    const body =
      '<p>Hostile body</p><img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>' +
      '<iframe src="javascript:parent.__pwned=3"></iframe><a href="javascript:window.__pwned=4">click me</a>';
    const res = await fetch(`${cms.apiUrl}/posts/`, {
      method: 'POST',
      headers: { Authorization: `Token ${cms.tokens['acme']!.write}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: '<img src=x onerror="window.__pwned=5">', slug: 'hostile-e2e', status: 'published', body }),
    });
    expect(res.status).toBe(202);
    await cms.idle({ deliveries: false });

    await open('#/content/acme/posts/hostile-e2e');
    const post = page.getByTestId('post-detail');
    await post.waitFor();
    // The title is text in the list and the heading; the body is its source, as text.
    await row('Posts', 'hostile-e2e').waitFor();
    expect(await post.getByRole('heading', { level: 2 }).textContent()).toBe('<img src=x onerror="window.__pwned=5">');
    expect(await post.locator('pre').textContent()).toBe(body);
    expect(await page.locator('main img[src="x"], main script, main iframe[src^="javascript"], main a[href^="javascript"]').count()).toBe(
      0,
    );
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();

    // The preview renders it in a frame without scripts.
    await post.getByRole('tab', { name: 'Preview' }).click();
    const frame = post.locator('iframe.preview');
    expect(await frame.getAttribute('sandbox')).toBe('');
    await expect.poll(() => page.frameLocator('iframe.preview').locator('body').textContent()).toContain('Hostile body');
    await page.frameLocator('iframe.preview').getByText('click me').click();
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    const inside = page.frames().find((f) => f.url() === 'about:srcdoc');
    if (inside) expect(await inside.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  });

  it('shows the media library as CDN thumbnails with each file’s details', async () => {
    const { page, cms } = ui;
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await open('#/content/acme/media');
    const tiles = page.getByTestId('media-tile');
    await expect.poll(() => tiles.count()).toBe(16);
    // The thumbnails in view have loaded (the rest load lazily when scrolled to).
    await expect
      .poll(() =>
        page.evaluate(() =>
          [...document.querySelectorAll<HTMLImageElement>('.media-grid img')].slice(0, 4).every((i) => i.naturalWidth > 0),
        ),
      )
      .toBe(true);
    await tiles.nth(1).click();
    const media = page.getByTestId('media-detail');
    await media.waitFor();
    // The second tile is the library's second record (newest first): its size as the server has it.
    const listed = (await (await fetch(`${cms.controlUrl}/organizations/acme/content/media?limit=2`)).json()) as {
      data: { width: number; height: number }[];
    };
    const second = listed.data[1]!;
    expect(await media.textContent()).toContain(`${second.width} × ${second.height}`);
    await expect.poll(() => imagesLoaded('.media-preview')).toBe(true);
    await media.getByRole('button', { name: 'Copy CDN URL' }).click();
    const copied = await page.evaluate(() =>
      (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText(),
    );
    expect(copied).toMatch(new RegExp(`^${cms.url}/cdn/[A-Za-z0-9]{20}$`));
    expect((await fetch(copied)).headers.get('content-type')).toMatch(/^image\//);
    // The notice of the delete before must not cover the screenshot.
    await expect.poll(() => page.locator('.toast').count(), { timeout: 5000 }).toBe(0);
    await screenshot(page, 'content-media');
  });

  it('switches organization and moves through a list with the keyboard', async () => {
    const { page } = ui;
    await open('#/content/acme/posts');
    await page.getByLabel('Organization').selectOption('northwind');
    await expect.poll(() => page.url()).toMatch(/#\/content\/northwind\/posts$/);
    await expect.poll(() => count().textContent()).toBe('1–8 of 8');
    await nav()
      .getByRole('link', { name: /^Recipe/ })
      .waitFor();
    const list = page.getByRole('listbox', { name: 'Posts' });
    await list.focus();
    await page.keyboard.press('Home');
    // Newest first: Home selects the latest post, the next one down is the one before it.
    await expect.poll(() => page.url()).toMatch(/#\/content\/northwind\/posts\/christmas-stollen-step-by-step$/);
    await expect.poll(() => list.getAttribute('aria-activedescendant')).toBe('row-christmas-stollen-step-by-step');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.url()).toMatch(/#\/content\/northwind\/posts\/new-saturday-opening-hours$/);
    await page
      .getByTestId('post-detail')
      .getByRole('heading', { name: /Saturday opening hours/i })
      .waitFor();
  });

  it('looks right in the dark theme', async () => {
    const { page } = ui;
    await page.emulateMedia({ colorScheme: 'dark' });
    await open('#/content/acme/pages/landing_page/spring-sale');
    await page.getByRole('region', { name: 'Published and draft versions' }).waitFor();
    await expect.poll(() => imagesLoaded('.version-compare img.thumb')).toBe(true);
    await screenshot(page, 'content-dark');
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('breaks no rule of the CSP and logs no error but those it caused on purpose', () => {
    const unexpected = ui.consoleErrors.filter((e) => !EXPECTED_ERRORS.some((allowed) => allowed.test(e)));
    expect(unexpected).toEqual([]);
  });
});
