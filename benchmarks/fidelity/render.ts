/** The fidelity benchmark's tables (BENCHMARKS.md, "Fidelity"), from its results file. */
import type { StepRates } from './programs.js';
import type { Truth } from './truth.js';
import type { ViewResult } from './measure.js';
import type { WindowRecord } from './windows.js';

export interface TruthRecord {
  route: string;
  size: number;
  change: number;
  steps: [number, number];
  views: Record<string, Truth>;
}

/** What a cell or a windows recording measured, and how loaded the machine was. */
export interface CellKey {
  route: string;
  size: number;
  change: number;
  mode: string;
  /** For a duet of commands, `variantLabel` of measure.ts; '' otherwise. */
  variant: string;
  loadAverage: number;
}

export interface CellRecord extends CellKey {
  views: ViewResult[];
}

export interface FidelityResults {
  machine: string;
  rates: StepRates | null;
  truths: TruthRecord[];
  cells: CellRecord[];
  windows: WindowRecord[];
}

const pct = (x: number, digits = 2): string => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(digits)}%`;
const pp = (x: number): string => `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(2)}`;

export function renderFidelity(results: FidelityResults): string {
  const out: string[] = [`Machine: ${results.machine}.`, ''];
  const truthOf = (route: string, size: number, change: number, view: string): Truth | undefined =>
    results.truths.find((t) => t.route === route && t.size === size && t.change === change)?.views[
      view
    ];

  // What duetkit's figures are held against: for +0% the two sides are the same program, so
  // the true change is 0 exactly (the measured A/A truth only shows how well the truth itself
  // is measured); otherwise the measured truth.
  const targetOf = (
    route: string,
    size: number,
    change: number,
    view: string,
  ): Truth | undefined =>
    change === 0 ? { change: 0, lower: 0, upper: 0, n: 0 } : truthOf(route, size, change, view);

  out.push('**Ground truth** (alone, one at a time, pinned to one CPU; 99% CI):', '');
  out.push('| route | size | view | +0% | +1% | +3% |', '|---|--:|---|--:|--:|--:|');
  const routeSizes = [...new Set(results.truths.map((t) => `${t.route}|${t.size}`))];
  for (const key of routeSizes) {
    const [route, sizeText] = key.split('|');
    const size = Number(sizeText);
    const views = Object.keys(results.truths.find((t) => t.route === route)!.views);
    for (const view of views.filter((v) => v !== 'harness')) {
      const cells = [0, 0.01, 0.03].map((change) => {
        const t = truthOf(route!, size, change, view);
        return t === undefined ? '' : `${pct(t.change)} [${pct(t.lower)}, ${pct(t.upper)}]`;
      });
      out.push(`| ${route} | ${size} ms | ${view} | ${cells.join(' | ')} |`);
    }
  }

  out.push(
    '',
    '**Through duetkit** (one comparison each; bias = measured − truth, percentage points, where the truth of +0% is 0: the same program on both sides; ✓ = the 99% CI covers the truth):',
    '',
  );
  out.push(
    '| route | size | view | mode | +0%: bias | +1%: measured | bias | +3%: measured | bias |',
    '|---|--:|---|---|--:|--:|--:|--:|--:|',
  );
  // Cells are stored in the order they were run (re-runs are appended): list them by route
  // (in the ground truth's order), size, then mode.
  const routeOrder = [...new Set(results.truths.map((t) => t.route))];
  const modeOrder = ['duet', 'rmit', 'mct'];
  const ordered = [...results.cells].sort(
    (a, b) =>
      routeOrder.indexOf(a.route) - routeOrder.indexOf(b.route) ||
      a.size - b.size ||
      modeOrder.indexOf(a.mode) - modeOrder.indexOf(b.mode),
  );
  const groups = [...new Set(ordered.map((c) => `${c.route}|${c.size}|${c.mode}|${c.variant}`))];
  for (const group of groups) {
    const [route, sizeText, mode, variant] = group.split('|');
    const size = Number(sizeText);
    const of = (change: number) =>
      results.cells.find(
        (c) =>
          c.route === route &&
          c.size === size &&
          c.mode === mode &&
          c.variant === variant &&
          c.change === change,
      );
    // The harness's own view (when it learned of the end) is recorded as a diagnostic only:
    // in a duet it is told nothing until both sides are done, by design.
    const views = [
      ...new Set([0, 0.01, 0.03].flatMap((change) => of(change)?.views.map((v) => v.view) ?? [])),
    ].filter((v) => v !== 'harness');
    for (const view of views) {
      const cell = (change: number, withValue: boolean): string[] => {
        const v = of(change)?.views.find((x) => x.view === view);
        const t = targetOf(route!, size, change, view);
        if (v === undefined || t === undefined) return withValue ? ['', ''] : [''];
        const covers = v.lower <= t.change && t.change <= v.upper ? ' ✓' : ' ✗';
        const bias = `${pp(v.change - t.change)}${covers}`;
        return withValue ? [`${pct(v.change)} [${pct(v.lower)}, ${pct(v.upper)}]`, bias] : [bias];
      };
      const modeText = variant === '' ? mode : `${mode} (${variant})`;
      out.push(
        `| ${route} | ${size} ms | ${view} | ${modeText} | ${[...cell(0, false), ...cell(0.01, true), ...cell(0.03, true)].join(' | ')} |`,
      );
    }
  }

  if (results.windows.length > 0) {
    out.push(
      '',
      '**Many comparisons** (one long recording per row, cut into windows of a few seconds, each window one comparison; "pooled": the whole recording as one comparison):',
      '',
    );
    out.push(
      '| route | size | mode | view | change | truth | pooled: measured | pooled: bias | windows | CI excludes 0 | CI covers truth | median bias of windows |',
      '|---|--:|---|---|--:|--:|--:|--:|--:|--:|--:|--:|',
    );
    for (const w of results.windows) {
      for (const view of [...new Set(w.outcomes.map((o) => o.view))]) {
        const outcomes = w.outcomes.filter((o) => o.view === view);
        const truth = targetOf(w.route, w.size, w.change, view)?.change ?? NaN;
        const excludes = outcomes.filter((o) => o.lower > 0 || o.upper < 0).length;
        const covers = outcomes.filter((o) => o.lower <= truth && truth <= o.upper).length;
        const sorted = outcomes.map((o) => o.change).sort((a, b) => a - b);
        const median = sorted[sorted.length >> 1] ?? NaN;
        const pooled = w.pooled.find((p) => p.view === view);
        const pooledText =
          pooled === undefined
            ? ['', '']
            : [
                `${pct(pooled.change, 3)} [${pct(pooled.lower)}, ${pct(pooled.upper)}] (n ${pooled.n})`,
                `${pp(pooled.change - truth)}${pooled.lower <= truth && truth <= pooled.upper ? ' ✓' : ' ✗'}`,
              ];
        const n = outcomes.length;
        const modeText = w.variant === '' ? w.mode : `${w.mode} (${w.variant})`;
        out.push(
          `| ${w.route} | ${w.size} ms | ${modeText} | ${view} | ${pct(w.change, 0)} | ${pct(truth, 3)} | ${pooledText.join(' | ')} | ${n} × ${w.windowSeconds} s | ${excludes}/${n} | ${covers}/${n} | ${pp(median - truth)} |`,
        );
      }
    }
  }
  return `${out.join('\n')}\n`;
}
