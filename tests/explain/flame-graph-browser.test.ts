import { jest } from '@jest/globals';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { PNG } from 'pngjs';
import { PROFILES_SCHEMA_VERSION, type ProfilesFile } from '../../src/contracts/profile.js';
import { attachExplanations } from '../../src/explain/attach.js';
import { writeExplainArtifacts } from '../../src/explain/artifacts.js';
import { createRng } from '../../src/stats/rng.js';
import { sampleReport } from '../report/fixtures.js';
import { launchChromium } from '../support/browser.js';
import { CHECKSUM_PROGRAM, slowed, syntheticSide } from '../support/synthetic-profiles.js';

/**
 * The differential flame graph (profiles/<benchmark>/diff.html) opened from disk in Debian's
 * headless Chromium: it draws, names the slowed function, colours it red and what lost share
 * blue, and fetches nothing.
 */
jest.setTimeout(120_000);

describe('the differential flame graph in headless Chromium', () => {
  let dir: string;
  let chromium: { browser: Browser; close(): Promise<void> };
  let file: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'duetkit-flame-'));
    const rng = createRng(7);
    const o = { chunks: 10, samplesPerChunk: 2000 };
    const profiles: ProfilesFile = {
      schemaVersion: PROFILES_SCHEMA_VERSION,
      policy: 'changed',
      pairs: [
        {
          benchmark: 'parse',
          base: syntheticSide(CHECKSUM_PROGRAM, rng, { ...o, version: 'base' }),
          head: syntheticSide(slowed(CHECKSUM_PROGRAM, 'checksum_loop', 1.4), rng, {
            ...o,
            version: 'head',
          }),
          seconds: 3,
          warning: null,
        },
      ],
      seconds: 3,
      warnings: [],
    };
    const report = attachExplanations(sampleReport(), profiles);
    await writeExplainArtifacts(dir, report, profiles);
    file = path.join(dir, report.results[0]!.explain!.files.flameGraph!);
    chromium = await launchChromium();
  });
  afterAll(async () => {
    await chromium?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('draws the frames, labels the slowed function and colours it red', async () => {
    const page = await chromium.browser.newPage({ viewport: { width: 1240, height: 700 } });
    const requests: string[] = [];
    const problems: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    await page.goto(pathToFileURL(file).href);
    expect(requests).toEqual([pathToFileURL(file).href]);
    expect(problems).toEqual([]);

    const labels = await page.locator('svg text').allTextContents();
    expect(labels).toContain('checksum_loop');
    const loop = page.locator('svg g', {
      has: page.locator('text', { hasText: /^checksum_loop$/ }),
    });
    const fill = await loop.first().locator('rect').getAttribute('fill');
    const [r, g, b] = fill!.match(/\d+/g)!.map(Number);
    expect(r).toBe(255);
    expect(g).toBeLessThan(120); // the largest change: the deepest red
    expect(b).toBe(g);
    const title = await loop.first().locator('title').textContent();
    expect(title).toMatch(/^checksum_loop\nhead: \d+\.\d\d% \(\d+ samples\)\nbase: /);

    const svg = page.locator('svg');
    const box = (await svg.boundingBox())!;
    expect(box.width).toBe(1200);
    const png = PNG.sync.read(await svg.screenshot());
    let drawn = 0;
    let red = 0;
    let blue = 0;
    for (let i = 0; i < png.data.length; i += 4) {
      const [pr, pg, pb] = [png.data[i]!, png.data[i + 1]!, png.data[i + 2]!];
      if (pr < 245 || pg < 245 || pb < 245) drawn++;
      if (pr > 240 && pg < 150 && pb < 150) red++;
      if (pb > 240 && pr < 200 && pg < 200) blue++;
    }
    const pixels = png.width * png.height;
    expect(drawn / pixels).toBeGreaterThan(0.3);
    expect(red).toBeGreaterThan(1000);
    expect(blue).toBeGreaterThan(100);
    await page.close();
  });
});
