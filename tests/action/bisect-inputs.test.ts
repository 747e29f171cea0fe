import { parseInputs } from '../../src/action/inputs.js';

const parse = (inputs: Record<string, string>) =>
  parseInputs((name) => inputs[name] ?? '', '/work/repo');

describe('mode: bisect inputs', () => {
  it('reads the range, the workload and the search settings once', () => {
    expect(
      parse({
        mode: 'bisect',
        good: 'v1.2.0',
        bad: 'main',
        run: 'npm run bench -- --filter parse',
        setup: 'npm ci',
        'bisect-benchmark': '/parse/',
        threshold: '3%',
        'bisect-budget': '12',
        'bisect-first-parent': 'false',
        'bisect-mode': 'rmit',
        'results-directory': 'out',
      }),
    ).toEqual({
      mode: 'bisect',
      good: 'v1.2.0',
      bad: 'main',
      scenario: null,
      run: ['npm', 'run', 'bench', '--', '--filter', 'parse'],
      setup: ['npm', 'ci'],
      benchmark: '/parse/',
      threshold: 0.03,
      budget: 12,
      iterations: null,
      firstParent: false,
      bisectMode: 'rmit',
      workingDirectory: '/work/repo',
      resultsDirectory: '/work/repo/out',
    });
  });

  it('defaults to first-parent history and takes a scenario instead of run', () => {
    const inputs = parse({ mode: 'bisect', good: 'a1', bad: 'b2', scenario: 'bench.yml' });
    expect(inputs).toMatchObject({
      scenario: 'bench.yml',
      run: null,
      firstParent: true,
      bisectMode: null,
    });
  });

  it.each([
    [
      { bad: 'main', run: 'x' },
      'Input "good": required with mode: bisect: a commit without the change',
    ],
    [{ good: 'v1', run: 'x' }, 'Input "bad": required with mode: bisect: a commit with the change'],
    [
      { good: 'v1', bad: 'main' },
      'Input "run": required with mode: bisect when there is no "scenario"',
    ],
    [
      { good: '--all', bad: 'main', run: 'x' },
      'Input "good": got "--all"; expected a branch, tag or commit id',
    ],
    [
      { good: 'v1', bad: 'main', run: 'x', 'bisect-budget': '0' },
      'Input "bisect-budget": got "0"; expected an integer from 1 to 10000',
    ],
    [
      { good: 'v1', bad: 'main', run: 'x', 'bisect-first-parent': 'yes' },
      'Input "bisect-first-parent": got "yes"; accepted: true, false',
    ],
    [
      { good: 'v1', bad: 'main', run: 'x', 'bisect-mode': 'mct' },
      'Input "bisect-mode": got "mct"; accepted: duet, rmit, auto',
    ],
    [{ good: 'v1', bad: 'main', run: 'x', threshold: '5' }, 'Input "threshold": got "5"'],
    [
      { good: 'v1', bad: 'main', run: 'x', 'base-ref': 'main' },
      'Input "base-ref": has no effect with mode: bisect (use "good" and "bad")',
    ],
  ])('refuses %j, naming the input', (inputs, message) => {
    expect(() => parse({ mode: 'bisect', ...inputs })).toThrow(message);
  });
});
