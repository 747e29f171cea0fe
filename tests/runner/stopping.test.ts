import { runScenario } from '../../src/pipeline/local-run.js';
import type { ScenarioInput } from '../../src/scenario/schema.js';
import { loadedScenario, makeWorkspace, never, removeWorkspace } from './helpers.js';

describe('stopping rules', () => {
  let root: string;
  beforeAll(async () => (root = await makeWorkspace({ a: { 'x.sh': 'sleep 0.05\n' } })));
  afterAll(() => removeWorkspace(root));

  const run = (extra: Partial<ScenarioInput>) =>
    runScenario(
      loadedScenario(
        {
          versions: [
            { name: 'base', path: 'a' },
            { name: 'head', path: 'a' },
          ],
          workload: { command: 'sh x.sh' },
          warmup: 1,
          seed: 1,
          analysis: { resamples: 500 },
          ...extra,
        },
        root,
      ),
      { signal: never, env: process.env },
    );

  it('stops on precision once the CI is narrow enough, checked at the documented points', async () => {
    const samples = await run({ stopping: { halfWidth: 0.5, minIterations: 4, checkEvery: 2 } });
    expect(samples.stopReason).toBe('precision');
    expect(samples.complete).toBe(true);
    expect(samples.trials.filter((t) => !t.warmup)).toHaveLength(8);
  });

  it('stops at a round boundary when the time budget is spent', async () => {
    const samples = await run({ iterations: 1000, budget: '400ms' });
    expect(samples.stopReason).toBe('budget');
    expect(samples.complete).toBe(true);
    const rounds = samples.trials.length / 2;
    expect(Number.isInteger(rounds)).toBe(true);
    expect(rounds).toBeGreaterThanOrEqual(2);
    expect(rounds).toBeLessThan(100);
  });
});
