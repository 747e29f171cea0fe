import { runScenario } from '../../src/pipeline/local-run.js';
import type { ScenarioInput } from '../../src/scenario/schema.js';
import { loadedScenario, makeWorkspace, never, removeWorkspace } from './helpers.js';

describe('a failing benchmark fails the run, saying where', () => {
  let root: string;
  beforeAll(async () => {
    root = await makeWorkspace({
      good: { 'x.sh': 'sleep 0.01\necho \'{"name": "n", "value": 1}\'\n' },
      bad: {
        'x.sh':
          'if [ -f ../bad/.count ]; then echo "line one\nboom on stderr" >&2; exit 3; fi; touch ../bad/.count\n',
      },
      silent: { 'x.sh': 'echo nothing useful\n' },
      hang: { 'x.sh': 'sleep 30\n' },
    });
  });
  afterAll(() => removeWorkspace(root));

  const run = (head: string, extra: Partial<ScenarioInput> = {}) =>
    runScenario(
      loadedScenario(
        {
          versions: [
            { name: 'base', path: 'good' },
            { name: 'head', path: head },
          ],
          workload: { command: 'sh x.sh' },
          iterations: 4,
          warmup: 0,
          seed: 1,
          ...extra,
        },
        root,
      ),
      { signal: never, env: process.env },
    );

  it('non-zero exit: names command, version, iteration and stderr; keeps the samples so far', async () => {
    const samples = await run('bad');
    expect(samples.complete).toBe(false);
    expect(samples.stopReason).toBe('failed');
    expect(samples.error).toMatch(
      /^sh x\.sh \(version head, iteration 1, in .*bad\) exited with code 3/,
    );
    expect(samples.error).toContain('| boom on stderr');
    expect(samples.trials).toHaveLength(2); // round 0 of both sides
  });

  it('no value: the format error, with the same context', async () => {
    const samples = await run('silent', { workload: { command: 'sh x.sh', format: 'jsonl' } });
    expect(samples.stopReason).toBe('failed');
    expect(samples.error).toMatch(/version head, iteration 0.*produced no value: jsonl output/);
  });

  it('per-iteration timeout kills the process tree', async () => {
    const started = Date.now();
    const samples = await run('hang', { timeout: 0.5 });
    expect(samples.error).toMatch(/version head, iteration 0.*timed out after 0\.5 s/);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('a missing directory or command is reported, not thrown', async () => {
    expect((await run('nowhere')).error).toMatch(
      /versions\[1\]\.path: .*nowhere is not a directory/,
    );
    const missing = await run('good', { workload: { command: 'no-such-command-xyz' } });
    expect(missing.error).toMatch(
      /no-such-command-xyz \(version base, iteration 0.*could not start: command not found/,
    );
  });

  it('a failing setup stops the run before measuring', async () => {
    const samples = await run('good', {
      versions: [
        { name: 'base', path: 'good', setup: ['sh', '-c', 'echo compile error >&2; exit 2'] },
        { name: 'head', path: 'good' },
      ],
    });
    expect(samples.error).toMatch(
      /\(version base, in .*\) \(setup\) failed with code 2.*\n.*compile error/,
    );
    expect(samples.trials).toHaveLength(0);
  });
});
