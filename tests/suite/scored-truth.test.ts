import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { renderScored, truthFor } from '../../benchmarks/suites/render.js';

const truth = (date: string, change: number, lower: number, upper: number) => ({
  date,
  benchmarks: { A: { change, lower, upper }, B: { change: 0, lower: -0.01, upper: 0.01 } },
});
const old = truth('2026-11-29T05:09:00.000Z', 0.09, 0.058, 0.124);
const now = { ...truth('2026-11-29T19:47:00.000Z', 0.07, 0.053, 0.087), earlier: [old] };

describe('the ground truth a large suite run is scored against', () => {
  it('is the one the run names, else the latest before it, else the oldest', () => {
    expect(truthFor(now, { date: '2026-11-29T18:00:00.000Z', truth: now.date })!.date).toBe(
      now.date,
    );
    // a run made before the truth was measured again, naming none: the one of its time
    expect(truthFor(now, { date: '2026-11-29T18:00:00.000Z' })!.date).toBe(old.date);
    expect(truthFor(now, { date: '2026-11-29T20:00:00.000Z' })!.date).toBe(now.date);
    expect(truthFor(now, { date: '2026-11-28T10:00:00.000Z' })!.date).toBe(old.date);
    expect(truthFor(undefined, { date: '2026-11-29T20:00:00.000Z' })).toBeUndefined();
    expect(() => truthFor(now, { date: '2026-11-29T20:00:00.000Z', truth: '2026-01-01' })).toThrow(
      'names a truth of 2026-01-01 that is not stored',
    );
  });

  it('scores each run against its own truth', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'duetkit-scored-'));
    try {
      const run = (date: string, a: string, named?: string) => ({
        suite: 'go-x',
        label: 'x',
        case: 'slow',
        condition: 'quiet',
        budget: 120,
        date,
        ...(named === undefined ? {} : { truth: named }),
        duetkit: {
          seconds: 120,
          at: [{ threshold: 0.05, verdicts: { A: a, B: 'unchanged' }, medianCiWidth: 0.03 }],
        },
        usual: { method: 'none', seconds: 0, changed: {} },
      });
      const results = path.join(dir, 'suites.json');
      const truths = path.join(dir, 'truth.json');
      writeFileSync(
        results,
        JSON.stringify([
          run('2026-11-29T10:00:00.000Z', 'regression'),
          run('2026-11-29T18:00:00.000Z', 'inconclusive', now.date),
        ]),
      );
      writeFileSync(truths, JSON.stringify({ 'go-x': now }));
      const table = renderScored('go-x', 0.05, results, truths);
      expect(table).toContain(
        '| 11-29 10:00 | injected | duet  | 2 | 1 / 1 | 1 / 1 | 0 | 1 | 11-29 05:09 |',
      );
      expect(table).toContain(
        '| 11-29 18:00 | injected | duet  | 2 | 0 / 1 | 0 / 1 | 0 | 1 | 11-29 19:47 |',
      );
      expect(table).toContain(
        'by the truth of 11-29 05:09: A 9.0%; the truth of 11-29 19:47: A 7.0%.',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
