import { main } from '../../src/cli/main.js';
import type { CalibrationResult } from '../../src/calibrate/calibrate.js';
import { renderCalibration } from '../../src/calibrate/render.js';
import { context } from './helpers.js';

describe('duetkit calibrate on a very small configuration', () => {
  it('prints a result of the documented shape (--json) and renders it for humans', async () => {
    const ctx = context(process.cwd());
    const code = await main(
      [
        'calibrate',
        '--modes',
        'duet,rmit,gab-5',
        '--changes',
        '5%',
        '--repetitions',
        '2',
        '--per-run',
        '2',
        '--budget',
        '500ms',
        '--units',
        '100',
        '--resamples',
        '200',
        '--seed',
        '4',
        '--json',
      ],
      ctx,
    );
    expect(ctx.err).not.toMatch(/error/);
    expect(code).toBe(0);
    const result = JSON.parse(ctx.out) as CalibrationResult;
    expect(result).toMatchObject({
      schemaVersion: 1,
      condition: 'quiet',
      workload: { kind: 'reference', units: 100 },
    });
    expect(result.settings).toMatchObject({
      methods: ['duet', 'rmit', 'gab-5'],
      changes: [0, 0.05],
      windows: 2,
      budget: 0.5,
      seed: 4,
    });
    expect(Object.keys(result.isolation).sort()).toEqual(['duet', 'sequential']);
    expect(result.cells.map((c) => `${c.method} ${c.change}`)).toEqual([
      'duet 0',
      'duet 0.05',
      'rmit 0',
      'rmit 0.05',
      'gab-5 0',
      'gab-5 0.05',
    ]);
    for (const cell of result.cells) {
      expect(cell.comparisons).toBe(2);
      expect(cell.rate.lower).toBeLessThanOrEqual(cell.rate.upper);
      if (cell.method === 'gab-5') {
        // base's share of the previous window plus head's share of this one: about one
        // budget, not at least one
        expect(cell.secondsPerComparison).toBeGreaterThan(0);
      } else {
        // windows are cut at the first round boundary past the budget
        expect(cell.secondsPerComparison).toBeGreaterThanOrEqual(0.5);
      }
      if (cell.method === 'gab-5') expect(cell.medianCiWidth).toBeNull();
      else expect(cell.medianCiWidth).toBeGreaterThan(0);
    }
    expect(result.recommendation === null || result.recommendation.budgetSeconds > 0).toBe(true);
    const text = renderCalibration(result);
    expect(text).toMatch(/^method +change +n +FPR \/ power/m);
    expect(text).toMatch(/^duet +A\/A +2 +FPR /m);
    expect(text).toMatch(/^recommendation: /m);
  });

  it('names the option and the accepted values on bad input', async () => {
    const ctx = context(process.cwd());
    expect(await main(['calibrate', '--modes', 'duet,fast'], ctx)).toBe(2);
    expect(ctx.err).toMatch(
      /got "fast"; expected a comma-separated list of duet, duet-gmean, duet-none, rmit, mct, gab-200, gab-5/,
    );
  });
});
