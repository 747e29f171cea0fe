/**
 * Many comparisons from one long recording: the recording is cut into consecutive windows of
 * a few seconds of machine time each (as `budget` would stop a run), and every window is one
 * comparison with duetkit's default statistic. With a fresh process per iteration (the
 * command driver) windows are as independent as separate runs, so the share of A/A windows
 * whose 99% CI excludes 0 estimates the false-positive rate. The whole recording, analysed at
 * once, gives the bias with a far narrower interval than any one window.
 */
import { cutWindows, traceFromSamples } from '../../src/calibrate/trace.js';
import { getMode } from '../../src/runner/modes/registry.js';
import { compare } from '../../src/stats/compare.js';
import {
  analyzeView,
  recordCell,
  withMetric,
  type CellRequest,
  type ViewResult,
} from './measure.js';
import type { CellKey } from './render.js';
import type { View } from './routes.js';

export interface WindowRecord extends CellKey {
  windowSeconds: number;
  /** Each window's comparison. */
  outcomes: { view: View; change: number; lower: number; upper: number; n: number }[];
  /** The whole recording as one comparison, per view. */
  pooled: ViewResult[];
}

export async function recordWindows(
  request: CellRequest & { windowSeconds: number; size: number; change: number },
): Promise<Omit<WindowRecord, 'variant' | 'loadAverage'>> {
  const samples = await recordCell(request);
  const paired = getMode(samples.mode).paired;
  const outcomes: WindowRecord['outcomes'] = [];
  const views = request.route.views.filter(
    (v): v is 'wall' | 'cpu' | 'reported' => v !== 'harness',
  );
  for (const view of views) {
    const trace = traceFromSamples(view === 'cpu' ? withMetric(samples, view) : samples);
    // A duet charges both sides the whole round; sequential modes charge each its own trial.
    const costs = trace.rounds.map((r) =>
      samples.mode === 'duet'
        ? Math.max(...r.costMs.map((c) => c ?? 0))
        : r.costMs.reduce<number>((sum, c) => sum + (c ?? 0), 0),
    );
    for (const [start, end] of cutWindows(costs, request.windowSeconds * 1000)) {
      const rounds = trace.rounds.slice(start, end);
      if (rounds.length < 2) continue;
      const c = compare(
        rounds.map((r) => r.values[0]!),
        rounds.map((r) => r.values[1]!),
        { paired, level: 0.99, seed: start + 1 },
      );
      outcomes.push({ view, change: c.change, lower: c.ci.lower, upper: c.ci.upper, n: c.n.base });
    }
  }
  return {
    route: request.route.id,
    size: request.size,
    change: request.change,
    mode: request.mode,
    windowSeconds: request.windowSeconds,
    outcomes,
    pooled: views.map((view) => analyzeView(samples, view, 1)),
  };
}
