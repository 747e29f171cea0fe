/**
 * The history and its dashboard at scale: a generated history of BENCHMARKS benchmarks ×
 * RUNS runs (default 500 × 1,000, one run a day), written to a bare repository that serves
 * partial clones (as GitHub does), cloned, served by `python3 -m http.server` on 127.0.0.1 and
 * opened in Debian's headless Chromium. Measures, cold (a new browser context each time):
 *  - time to the first meaningful paint: navigation start → the suite's list rows drawn;
 *  - time to an interactive detail chart: a click on a row → its chart drawn (and the same
 *    as a deep link opened cold);
 *  - bytes transferred for each (as served, and gzip-compressed as GitHub Pages sends them);
 *  - publish time per run as the history grows (a fresh shallow, blobless clone each time).
 * Writes benchmarks/results/dashboard.json. Take the CPU lock exclusively for figures.
 * Run: npm run bench:dashboard -- [BENCHMARKS] [RUNS] [REPEATS]
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { renderGabData } from '../src/formats/gab.js';
import { gabEntryOf } from '../src/history/gab-entry.js';
import { publishEntry } from '../src/history/publish.js';
import { median } from '../src/stats/descriptive.js';
import { launchChromium } from '../tests/support/browser.js';
import { checkout, freshDashboard, writeHistory } from '../tests/support/history-branch.js';
import { servePython } from '../tests/support/static-server.js';
import { syntheticHistory } from '../tests/support/synthetic-history.js';
import { positive } from './args.js';

const BENCHMARKS = positive('BENCHMARKS', process.argv[2] ?? '500');
const RUNS = positive('RUNS', process.argv[3] ?? '1000');
const REPEATS = positive('REPEATS', process.argv[4] ?? '5');
const ROOT = path.resolve(import.meta.dirname, '..');
const SUITE = 'synthetic';

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 1 << 28 }).trim();

function bareRemote(dir: string, name: string, partialClone = true): string {
  const remote = path.join(dir, name);
  execFileSync('git', ['init', '-q', '--bare', remote]);
  if (partialClone) git(remote, 'config', 'uploadpack.allowFilter', 'true');
  return remote;
}

interface Transfer {
  requests: number;
  bytes: number;
  gzipBytes: number;
}

/** Counts every response of `page` from now on (body sizes, and gzip-compressed). */
function meter(page: Page): { take(): Promise<Transfer> } {
  const pending: Promise<Buffer | null>[] = [];
  page.on('response', (r) => pending.push(r.body().catch(() => null)));
  return {
    take: async () => {
      const bodies = (await Promise.all(pending.splice(0))).filter((b): b is Buffer => b !== null);
      return {
        requests: bodies.length,
        bytes: bodies.reduce((n, b) => n + b.length, 0),
        gzipBytes: bodies.reduce((n, b) => n + gzipSync(b).length, 0),
      };
    },
  };
}

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'duetkit-bench-dashboard-'));
  const dashboard = await freshDashboard(path.join(dir, 'dashboard'));
  const log = (line: string): void =>
    console.error(`[${new Date().toISOString().slice(11, 19)}] ${line}`);

  log(`generating ${BENCHMARKS} benchmarks × ${RUNS} runs`);
  const history = syntheticHistory({ suite: SUITE, benchmarks: BENCHMARKS, runs: RUNS + REPEATS });
  const remote = bareRemote(dir, 'remote.git');
  let t = performance.now();
  await writeHistory(remote, history.slice(0, RUNS), dashboard);
  const writeSeconds = (performance.now() - t) / 1000;
  const files = Number(git(remote, 'ls-tree', '-r', '--name-only', 'gh-pages').split('\n').length);
  const packKiB = Number(/size-pack: (\d+)/.exec(git(remote, 'count-objects', '-v'))![1]);
  log(
    `written in ${writeSeconds.toFixed(1)} s: ${files} files, ${(packKiB / 1024).toFixed(1)} MiB packed`,
  );

  const site = checkout(remote, 'gh-pages', path.join(dir, 'site'));
  const server = await servePython(site);
  const chromium = await launchChromium();
  const list: number[] = [];
  const fcp: number[] = [];
  const click: number[] = [];
  const deep: number[] = [];
  let listTransfer: Transfer | null = null;
  let detailTransfer: Transfer | null = null;
  let clicked = '';
  try {
    for (let i = 0; i < REPEATS; i++) {
      const context = await chromium.browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      page.on('pageerror', (e) => errors.push(e.message));
      const m = meter(page);
      await page.goto(`${server.url}/duetkit/`);
      list.push(
        (await (
          await page.waitForFunction(
            () => document.querySelector('.list .row') !== null && performance.now(),
            undefined,
            {
              polling: 'raf',
            },
          )
        ).jsonValue()) as number,
      );
      fcp.push(
        await page.evaluate(
          () => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
        ),
      );
      listTransfer = await m.take();
      clicked = (await page.locator('.list .row .name').first().textContent())!;
      // A string, not a function: tsx would wrap a named helper in code the page lacks.
      click.push(
        (await page.evaluate(`new Promise((resolve) => {
          const t0 = performance.now();
          document.querySelector('.list .row').click();
          const check = () =>
            document.body.dataset.view === 'benchmark' && document.querySelector('.chart canvas')
              ? resolve(performance.now() - t0)
              : requestAnimationFrame(check);
          check();
        })`)) as number,
      );
      // Interactive: hovering shows a run.
      const box = (await page.locator('.chart .u-over').boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.waitForSelector('.tooltip:not([hidden])');
      detailTransfer = await m.take();
      if (errors.length > 0) throw new Error(`console errors: ${errors.join('; ')}`);
      await context.close();

      const cold = await chromium.browser.newContext({ viewport: { width: 1280, height: 900 } });
      const deepPage = await cold.newPage();
      await deepPage.goto(`${server.url}/duetkit/#/s/${SUITE}/b/${encodeURIComponent(clicked)}`);
      deep.push(
        (await (
          await deepPage.waitForFunction(
            () =>
              document.body.dataset.view === 'benchmark' &&
              document.querySelector('.chart canvas') !== null &&
              performance.now(),
            undefined,
            { polling: 'raf' },
          )
        ).jsonValue()) as number,
      );
      await cold.close();
      log(
        `repeat ${i + 1}: list ${list.at(-1)!.toFixed(0)} ms, click→chart ${click.at(-1)!.toFixed(0)} ms, deep link ${deep.at(-1)!.toFixed(0)} ms`,
      );
    }
  } finally {
    await chromium.close();
    await server.close();
  }

  // Publish time per run as the history grows: histories of increasing size, then REPEATS
  // publishes of new runs on each, every one from a fresh clone.
  const sizes = [...new Set([0, Math.round(RUNS / 10), Math.round(RUNS / 3), RUNS])];
  const publish: { runs: number; partialClone: boolean; ms: number[]; median: number }[] = [];
  const measure = async (target: string, size: number, partialClone: boolean): Promise<void> => {
    const ms: number[] = [];
    // The runs right after the history's last: the month shard they land in is a real one.
    for (const { entry } of history.slice(size, size + REPEATS)) {
      t = performance.now();
      const result = await publishEntry({ remote: target, entry, dashboard });
      if (result.status !== 'published') throw new Error(`not published: ${result.status}`);
      ms.push(performance.now() - t);
    }
    publish.push({
      runs: size,
      partialClone,
      ms: ms.map(Math.round),
      median: Math.round(median(ms)),
    });
    log(
      `publish on ${size} runs (${partialClone ? 'partial clone' : 'full fetch'}): median ${Math.round(median(ms))} ms`,
    );
  };
  for (const size of sizes) {
    const target = size === RUNS ? remote : bareRemote(dir, `remote-${size}.git`);
    if (size > 0 && size !== RUNS) await writeHistory(target, history.slice(0, size), dashboard);
    await measure(target, size, true);
  }
  // The same on the largest history from a server that sends every file with the tip.
  const full = bareRemote(dir, 'remote-full.git', false);
  git(full, 'fetch', '-q', remote, '+refs/heads/gh-pages:refs/heads/gh-pages');
  git(full, 'update-ref', 'refs/heads/gh-pages', `gh-pages~${REPEATS}`);
  await measure(full, RUNS, false);

  // For comparison: the same history as github-action-benchmark's one data.js, which its
  // dashboard loads whole and every publish rewrites.
  const gabText = renderGabData({
    lastUpdate: 0,
    repoUrl: '',
    entries: { [SUITE]: history.slice(0, RUNS).map((s) => gabEntryOf(s.entry).gab) },
  });
  const gab = { bytes: Buffer.byteLength(gabText), gzipBytes: gzipSync(gabText).length };
  const result = {
    benchmarks: BENCHMARKS,
    runs: RUNS,
    repeats: REPEATS,
    history: {
      writeSeconds: +writeSeconds.toFixed(1),
      files,
      packMiB: +(packKiB / 1024).toFixed(1),
    },
    firstMeaningfulPaintMs: { median: Math.round(median(list)), all: list.map(Math.round) },
    firstContentfulPaintMs: { median: Math.round(median(fcp)), all: fcp.map(Math.round) },
    clickToChartMs: { median: Math.round(median(click)), all: click.map(Math.round) },
    deepLinkToChartMs: { median: Math.round(median(deep)), all: deep.map(Math.round) },
    listTransfer,
    detailTransfer,
    gabDataJs: gab,
    publish,
    machine: {
      cpus: os.cpus().length,
      cpu: os.cpus()[0]?.model,
      load: os.loadavg().map((x) => +x.toFixed(2)),
    },
  };
  console.log(JSON.stringify(result, null, 2));
  if (BENCHMARKS === 500 && RUNS === 1000) {
    await writeFile(
      path.join(ROOT, 'benchmarks/results/dashboard.json'),
      `${JSON.stringify(result, null, 2)}\n`,
    );
  }
  await rm(dir, { recursive: true, force: true });
}

await main();
