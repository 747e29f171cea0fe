import { jest } from '@jest/globals';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { publishEntry } from '../../src/history/publish.js';
import { VARIABILITY_HISTORY } from '../../src/variability/history-hooks.js';
import { bareRemote, makeEntry, tempDir } from '../history/helpers.js';
import { launchChromium } from '../support/browser.js';
import { ROOT } from '../support/bundle-action.js';
import { checkout, freshDashboard, writeHistory } from '../support/history-branch.js';
import { servePython } from '../support/static-server.js';
import { syntheticHistory } from '../support/synthetic-history.js';

/**
 * The dashboard in Debian's headless Chromium, reading a real history branch (written by the
 * store, then cloned) from `python3 -m http.server` on 127.0.0.1. Set DUETKIT_SCREENSHOTS=1 to
 * refresh the screenshots in docs/.
 */
jest.setTimeout(240_000);

const BENCHMARKS = 150;
const REGRESSED = 'route/medium/case-0007';
const IMPROVED = 'hash/large/case-0011';

describe('the dashboard in headless Chromium', () => {
  let t: ReturnType<typeof tempDir>;
  let server: { url: string; close(): Promise<void> };
  let chromium: { browser: Browser; close(): Promise<void> };
  const problems: string[] = [];

  beforeAll(async () => {
    t = tempDir('duetkit-dashboard-test-');
    const remote = bareRemote(t.dir);
    const dashboard = await freshDashboard(path.join(t.dir, 'dashboard'));
    await writeHistory(
      remote,
      syntheticHistory({
        suite: 'synthetic',
        benchmarks: BENCHMARKS,
        runs: 40,
        stepRate: 0,
        steps: [
          { benchmark: 7, run: 36, change: 0.15 },
          { benchmark: 11, run: 37, change: -0.12 },
        ],
      }),
      dashboard,
      { derivers: VARIABILITY_HISTORY.derivers },
    );
    // A second suite, through the real publish path.
    await publishEntry({ remote, entry: makeEntry({ suite: 'micro', runId: 'r1' }), dashboard });
    const site = checkout(remote, 'gh-pages', path.join(t.dir, 'site'));
    server = await servePython(site);
    chromium = await launchChromium();
  });
  afterAll(async () => {
    await chromium?.close();
    await server?.close();
    t?.cleanup();
  });

  async function open(hash: string, viewport = { width: 1200, height: 900 }): Promise<Page> {
    const page = await chromium.browser.newPage({ viewport });
    // A machine shared with other work can be slow; the budget figures are bench:dashboard's.
    page.setDefaultTimeout(90_000);
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning')
        problems.push(`console ${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
    page.on('response', (r) => {
      if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`);
      if (!r.url().startsWith(server.url)) problems.push(`request to another origin: ${r.url()}`);
    });
    await page.goto(`${server.url}/duetkit/${hash}`);
    return page;
  }
  const rows = (page: Page) => page.locator('.list .row');

  it('lists the suites, then a suite: virtualised, sorted by most changed, searchable', async () => {
    const home = await open('');
    await home.waitForSelector('ul.suites');
    expect(await home.locator('ul.suites li a').allTextContents()).toEqual(['micro', 'synthetic']);
    await home.locator('ul.suites a', { hasText: 'synthetic' }).click();
    await home.waitForSelector('.list .row');
    expect(home.url()).toMatch(/#\/s\/synthetic$/);
    // Only the rows on screen exist, not 300.
    const drawn = await rows(home).count();
    expect(drawn).toBeGreaterThan(10);
    expect(drawn).toBeLessThan(40);
    // The regression and the improvement come first.
    const names = await home.locator('.list .row .name').allTextContents();
    const firstTwo = (
      await Promise.all([0, 1].map((i) => rows(home).nth(i).getAttribute('href')))
    ).map((h) => decodeURIComponent(h!));
    expect(firstTwo.sort()).toEqual(
      [`#/s/synthetic/b/${REGRESSED}`, `#/s/synthetic/b/${IMPROVED}`].sort(),
    );
    expect(names).toHaveLength(drawn);
    expect(await home.locator('.count').textContent()).toBe(`${BENCHMARKS} of ${BENCHMARKS}`);
    // Scrolling to the end draws the last row at its place (52 px a row), and still only
    // about a screenful of rows.
    await home.mouse.wheel(0, 52 * BENCHMARKS);
    await home.waitForFunction(
      (last) => {
        const rows = Array.from(document.querySelectorAll('.list .row'));
        const offsets = rows.map((r) => new DOMMatrix(getComputedStyle(r).transform).m42);
        return rows.length < 40 && Math.max(...offsets) === last;
      },
      (BENCHMARKS - 1) * 52,
    );
    // Search narrows the list, and the link keeps it.
    await home.fill('input.search', 'case-0042');
    await home.waitForFunction(() => document.querySelectorAll('.list .row').length === 1);
    expect(await home.locator('.count').textContent()).toBe(`1 of ${BENCHMARKS}`);
    expect(home.url()).toMatch(/#\/s\/synthetic\?q=case-0042$/);
    await home.selectOption('select[aria-label=Filter]', 'regression');
    await home.fill('input.search', '');
    await home.waitForFunction(() => document.querySelectorAll('.list .row').length === 1);
    expect(await rows(home).first().locator('.name').textContent()).toBe(REGRESSED);
    // The recent changes table names both calls.
    const recent = await home.locator('.recent tbody tr').allTextContents();
    expect(recent).toEqual([
      expect.stringMatching(new RegExp(`${IMPROVED}.*improvement`)),
      expect.stringMatching(new RegExp(`${REGRESSED}.*regression`)),
    ]);
    await screenshot(home, 'dashboard-suite.png', async () => {
      await home.selectOption('select[aria-label=Filter]', 'all');
      await home.evaluate(() => window.scrollTo(0, 0));
    });
    await home.close();
    expect(problems).toEqual([]);
  });

  it('a deep link opens a benchmark: a drawn chart with its interval band and a regression marker', async () => {
    const page = await open(`#/s/synthetic/b/${encodeURIComponent(REGRESSED)}`);
    await page.waitForSelector('.chart canvas');
    await page.waitForFunction(() => document.body.dataset.view === 'benchmark');
    expect(await page.locator('h2.bench-name').textContent()).toBe(REGRESSED);
    const png = PNG.sync.read(await page.locator('.chart').screenshot());
    const count = (rgb: [number, number, number], tolerance = 30): number => {
      let n = 0;
      for (let i = 0; i < png.data.length; i += 4) {
        if (
          Math.abs(png.data[i]! - rgb[0]) <= tolerance &&
          Math.abs(png.data[i + 1]! - rgb[1]) <= tolerance &&
          Math.abs(png.data[i + 2]! - rgb[2]) <= tolerance
        ) {
          n++;
        }
      }
      return n;
    };
    const pixels = png.width * png.height;
    // The value line: in how many columns of the image it shows.
    const isLine = (i: number): boolean =>
      Math.abs(png.data[i]! - 37) <= 40 &&
      Math.abs(png.data[i + 1]! - 99) <= 40 &&
      Math.abs(png.data[i + 2]! - 235) <= 40;
    let line = 0;
    for (let x = 0; x < png.width; x++) {
      for (let y = 0; y < png.height; y++) {
        if (isLine((y * png.width + x) * 4)) {
          line++;
          break;
        }
      }
    }
    const band = count([219, 230, 252], 12); // the interval band (16% blue on white)
    const red = count([220, 38, 38]); // the regression's point and marker
    const green = count([22, 163, 74]);
    // A line across the chart (its points, 6 px each, cover it in places), a band around it,
    // one red call and no green one.
    expect(line).toBeGreaterThan(png.width * 0.6);
    expect(band).toBeGreaterThan(pixels * 0.01);
    expect(red).toBeGreaterThan(40);
    expect(green).toBe(0);
    // Hover a point: the tooltip names a run's commit and time.
    const box = (await page.locator('.chart .u-over').boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5);
    await page.waitForSelector('.tooltip:not([hidden])');
    expect(await page.locator('.tooltip').textContent()).toMatch(
      /\d{4}-\d\d-\d\d \d\d:\d\d UTC[0-9a-f]{7} Change number \d+/,
    );
    expect(await page.locator('.runs tbody tr').count()).toBe(40);
    expect(await page.locator('.runs tbody tr').first().textContent()).toContain(
      'Change number 40',
    );
    // A called change links to its run's artifact, where the differential flame graph is.
    const called = await page.locator('.runs .badge.regression, .runs .badge.improvement').count();
    const flame = page.locator('.runs tbody a', { hasText: 'flame graph' });
    expect(called).toBeGreaterThan(0);
    expect(await flame.count()).toBe(called);
    expect(await flame.first().getAttribute('href')).toMatch(
      /^https:\/\/github\.com\/octo\/bench\/actions\/runs\/\d+#artifacts$/,
    );
    await screenshot(page, 'dashboard-benchmark.png', async () => {
      await page.mouse.move(box.x + box.width * 0.93, box.y + box.height * 0.3);
    });
    // Back to the suite through the crumbs.
    await page.locator('#crumbs a', { hasText: 'synthetic' }).click();
    await page.waitForSelector('.list .row');
    await page.close();
    expect(problems).toEqual([]);
  });

  it('is readable on a phone: no sideways scrolling, rows stacked', async () => {
    const page = await open('#/s/synthetic', { width: 390, height: 844 });
    await page.waitForSelector('.list .row');
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    const row = (await rows(page).first().boundingBox())!;
    expect(row.width).toBeLessThanOrEqual(390);
    expect(row.height).toBeGreaterThan(70);
    await screenshot(page, 'dashboard-phone.png');
    const detail = await open(`#/s/synthetic/b/${encodeURIComponent(REGRESSED)}`, {
      width: 390,
      height: 844,
    });
    await detail.waitForSelector('.chart canvas');
    expect(
      await detail.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
    await page.close();
    await detail.close();
    expect(problems).toEqual([]);
  });

  it('unknown suites and routes say so', async () => {
    const page = await open('#/s/nope');
    await page.waitForSelector('h1');
    await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'Not found');
    expect(await page.locator('main').textContent()).toContain('No suite named “nope”');
    await page.close();
    expect(problems).toEqual([]);
  });

  /** With DUETKIT_SCREENSHOTS=1: the page, after `prepare`, into docs/images/. */
  async function screenshot(
    page: Page,
    name: string,
    prepare?: () => Promise<void>,
  ): Promise<void> {
    if (process.env.DUETKIT_SCREENSHOTS !== '1') return;
    await prepare?.();
    await page.waitForTimeout(200);
    const dir = path.join(ROOT, 'docs/images');
    if (!existsSync(dir)) mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, name), await page.screenshot());
  }
});
