import { jest } from '@jest/globals';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { PNG } from 'pngjs';
import { plantedHistory } from '../../benchmarks/variability/history.js';
import { entryPath } from '../../src/history/layout.js';
import { VARIABILITY_HISTORY } from '../../src/variability/history-hooks.js';
import { bareRemote, tempDir } from '../history/helpers.js';
import { launchChromium } from '../support/browser.js';
import { checkout, freshDashboard, writeHistory } from '../support/history-branch.js';
import { servePython } from '../support/static-server.js';

/**
 * The dashboard's variability tab in Debian's headless Chromium, on a history branch written
 * by the store (its variability data made by the variability deriver), served on 127.0.0.1.
 */
jest.setTimeout(120_000);

describe('the variability view in headless Chromium', () => {
  let t: ReturnType<typeof tempDir>;
  let server: { url: string; close(): Promise<void> };
  let chromium: { browser: Browser; close(): Promise<void> };

  beforeAll(async () => {
    t = tempDir('duetkit-variability-view-');
    const remote = bareRemote(t.dir);
    const dashboard = await freshDashboard(path.join(t.dir, 'dashboard'));
    // 4 runs a day for 25 days, a 6% regression at run 70, slower afternoons
    const entries = plantedHistory({
      runs: 100,
      seed: 41,
      everyHours: 6,
      hourEffect: { 14: 0.03 },
      step: { at: 70, size: 0.06 },
      aa: { mde: 0.012, falsePositive: 0.05 },
      // each run's paired duet against the previous run's commit: ±0.5% wide around the truth
      paired: {
        threshold: 0.01,
        outcome: (truth) => ({ change: truth, lower: truth - 0.005, upper: truth + 0.005 }),
      },
    }).map((entry) => ({ path: entryPath(entry.suite, entry.runId, entry.run.startedAt), entry }));
    await writeHistory(remote, entries, dashboard, { derivers: VARIABILITY_HISTORY.derivers });
    server = await servePython(checkout(remote, 'gh-pages', path.join(t.dir, 'site')));
    chromium = await launchChromium();
  });
  afterAll(async () => {
    await chromium?.close();
    await server?.close();
    t?.cleanup();
  });

  it('shows the change point with its commit range, CV and MDE over time, and the heatmap', async () => {
    const problems: string[] = [];
    const page = await chromium.browser.newPage({ viewport: { width: 1200, height: 1400 } });
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning')
        problems.push(`console ${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('response', (r) => {
      if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`);
    });
    // the suite's tabs lead there
    await page.goto(`${server.url}/duetkit/#/s/nightly`);
    await page.click('nav.tabs >> text=Variability');
    await page.waitForSelector('.variability-values canvas');
    await page.waitForSelector('.variability-noise canvas');
    expect(page.url()).toMatch(/#\/s\/nightly\/variability$/);
    expect(await page.locator('.bench-select option').allTextContents()).toEqual([
      'bench (1 change point)',
    ]);
    const item = (
      await page.locator('ul.change-points li:not(.paired-step)').allTextContents()
    ).join('\n');
    // the step the paired duet of run 70 called, with its commits
    expect(await page.locator('ul.change-points li.paired-step').allTextContents()).toEqual([
      'regression +6.00% [+5.50%, +6.50%] judged within the run of 2026-01-22 14:00 (paired, head against its base) · commits 0000000..0000000',
    ]);
    expect(item).toMatch(
      /^regression \+[\d.]+% \[\+[\d.]+%, \+[\d.]+%\] at 2026-01-2\d \d\d:00 · commits 0000000\.\.0000000/,
    );
    expect(await page.locator('ul.change-points a').getAttribute('href')).toMatch(
      /^https:\/\/github\.com\/acme\/app\/compare\/[0-9a-f]{40}\.\.\.[0-9a-f]{40}$/,
    );
    // heatmap: 7 weekdays × 4 hours, the afternoon column the warmest
    const header = await page.locator('table.heatmap thead th').allTextContents();
    expect(header).toEqual(['', '02:00', '08:00', '14:00', '20:00']);
    expect(await page.locator('table.heatmap tbody tr').count()).toBe(7);
    const afternoon = await page
      .locator('table.heatmap tbody tr td:nth-child(4)')
      .allTextContents();
    expect(afternoon.filter((c) => c.startsWith('+')).length).toBeGreaterThanOrEqual(5);
    // both charts drawn: the value line (blue) across the chart and the change point's red line
    const png = PNG.sync.read(await page.locator('.variability-values').screenshot());
    let blueColumns = 0;
    let red = 0;
    for (let x = 0; x < png.width; x++) {
      let blue = false;
      for (let y = 0; y < png.height; y++) {
        const i = (y * png.width + x) * 4;
        const [r, g, b] = [png.data[i]!, png.data[i + 1]!, png.data[i + 2]!];
        if (Math.abs(r - 37) <= 40 && Math.abs(g - 99) <= 40 && Math.abs(b - 235) <= 40)
          blue = true;
        if (Math.abs(r - 220) <= 30 && Math.abs(g - 38) <= 30 && Math.abs(b - 38) <= 30) red++;
      }
      if (blue) blueColumns++;
    }
    expect(blueColumns).toBeGreaterThan(png.width * 0.6);
    expect(red).toBeGreaterThan(100);
    const noise = PNG.sync.read(await page.locator('.variability-noise').screenshot());
    let orange = 0;
    for (let i = 0; i < noise.data.length; i += 4) {
      if (
        Math.abs(noise.data[i]! - 217) <= 30 &&
        Math.abs(noise.data[i + 1]! - 119) <= 30 &&
        Math.abs(noise.data[i + 2]! - 6) <= 30
      )
        orange++;
    }
    expect(orange).toBeGreaterThan(100);
    if (process.env.DUETKIT_SCREENSHOTS === '1') {
      await page.screenshot({
        path: path.join(process.cwd(), 'docs/images/dashboard-variability.png'),
        fullPage: true,
      });
    }
    await page.close();
    expect(problems).toEqual([]);
  });
});
