import { renderAccuracy, spliceResults, BEGIN, END } from '../../benchmarks/accuracy/report.js';
import { QUICK, runAccuracy } from '../../benchmarks/accuracy/run.js';
import { METHOD_NAMES } from '../../src/calibrate/methods.js';

// The accuracy benchmark's pipeline end to end, tiny: noise process, every method, recordings,
// windows, comparisons, summary, results table. Rates are not asserted (the machine is noisy);
// a broken stage fails it.
describe('accuracy benchmark (smoke)', () => {
  it('produces a complete table for every method under noise', async () => {
    const results = await runAccuracy(
      {
        ...QUICK,
        kind: 'smoke',
        budget: 0.5,
        repetitions: 2,
        perRun: 2,
        units: 100,
        changes: [0.05],
        conditions: ['noise'],
        noise: { threads: 1, load: 0.3, kind: 'cpu' },
        resamples: 200,
        command: { sizeMs: 2, methods: ['duet', 'rmit'] },
      },
      { groundTruth: null, signal: new AbortController().signal, env: process.env },
    );
    const cells = results.conditions[0]!.cells;
    expect(cells).toHaveLength(METHOD_NAMES.length * 2);
    // The command workload: the same pipeline through the command driver.
    const command = results.conditions[1]!;
    expect(command.workload).toMatchObject({ kind: 'custom' });
    expect(command.cells.map((c) => `${c.method} ${c.change}`)).toEqual([
      'duet 0',
      'duet 0.05',
      'rmit 0',
      'rmit 0.05',
    ]);
    expect(Object.keys(results.commandTruth!.changes)).toEqual(['0.05']);
    for (const cell of cells) {
      expect(cell.comparisons).toBeGreaterThanOrEqual(1);
      expect(cell.rate.estimate).toBeGreaterThanOrEqual(0);
      expect(cell.rate.estimate).toBeLessThanOrEqual(1);
    }
    const section = renderAccuracy(results);
    expect(section).toMatch(/Smoke run .*NOT the full results/);
    expect(section.split('\n').filter((l) => l.startsWith('| noise |'))).toHaveLength(
      cells.length + command.cells.length,
    );
    expect(section).toMatch(/\| noise \| duet \(command\) \| A\/A \|/);
    const doc = spliceResults(`# B\n\n${BEGIN}\nold\n${END}\ntail\n`, section);
    expect(doc).not.toMatch(/old/);
    expect(doc).toMatch(/tail\n$/);
  });
});
