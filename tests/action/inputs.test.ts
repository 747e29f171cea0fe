import path from 'node:path';
import { InputError } from '../../src/action/input-error.js';
import { parseInputs } from '../../src/action/inputs.js';

const parse = (inputs: Record<string, string>) =>
  parseInputs((name) => inputs[name] ?? '', '/work/repo');

describe('parseInputs', () => {
  it('reads a scenario with the defaults of action.yml', () => {
    expect(parse({ scenario: 'scenarios/pr.yml', 'github-token': 't' })).toEqual({
      mode: 'run',
      scenario: 'scenarios/pr.yml',
      name: null,
      run: null,
      setup: null,
      format: null,
      metric: null,
      experimentMode: null,
      iterations: null,
      budget: null,
      threshold: null,
      level: null,
      isolation: null,
      seed: null,
      profile: null,
      baseRef: null,
      headRef: null,
      aa: false,
      baseFromHistory: false,
      token: 't',
      comment: 'always',
      failOn: 'regression',
      workingDirectory: '/work/repo',
      resultsDirectory: null,
      history: {
        publish: 'none',
        branch: 'gh-pages',
        path: 'duetkit',
        repository: null,
        token: '',
        retention: null,
      },
      cluster: null,
      clusterImage: null,
      kubeconfig: null,
    });
  });

  it('reads the cluster inputs, and names a bad one', () => {
    const inputs = parse({
      scenario: 's.yml',
      cluster: 'eks',
      'cluster-image': 'ghcr.io/octo/bench:1.2',
      kubeconfig: 'apiVersion: v1',
    });
    expect(inputs).toMatchObject({
      cluster: 'eks',
      clusterImage: 'ghcr.io/octo/bench:1.2',
      kubeconfig: 'apiVersion: v1',
    });
    expect(() => parse({ scenario: 's.yml', cluster: 'gke' })).toThrow(
      'Input "cluster": got "gke"; accepted: existing, eks, kind',
    );
    expect(() => parse({ scenario: 's.yml', 'cluster-image': 'two words' })).toThrow(
      /Input "cluster-image": got "two words"; expected an image reference/,
    );
  });

  it('reads a metric list as text', () => {
    expect(parse({ run: 'x', metric: 'wall, cpu rss' })).toMatchObject({
      metric: ['wall', 'cpu', 'rss'],
    });
    expect(parse({ run: 'x', metric: 'both' })).toMatchObject({ metric: ['wall', 'cpu'] });
  });

  it('reads every inline input, in every accepted spelling', () => {
    const inputs = parse({
      run: 'go test -bench . ./...',
      setup: "sh -c 'make build'",
      format: 'go',
      metric: 'cpu',
      'experiment-mode': 'rmit',
      iterations: '40',
      budget: '10m',
      threshold: '3%',
      level: '0.95',
      isolation: 'taskset',
      seed: '42',
      profile: 'always',
      'base-ref': 'origin/main',
      'head-ref': 'HEAD~0',
      comment: 'on-change',
      'fail-on': 'inconclusive',
      'working-directory': 'sub',
      'results-directory': 'out',
      name: 'core suite',
    });
    expect(inputs).toMatchObject({
      run: ['go', 'test', '-bench', '.', './...'],
      setup: ['sh', '-c', 'make build'],
      format: 'go',
      metric: ['cpu'],
      experimentMode: 'rmit',
      iterations: 40,
      budget: 600,
      threshold: { threshold: 0.03 },
      level: 0.95,
      isolation: 'taskset',
      seed: 42,
      profile: 'always',
      baseRef: 'origin/main',
      headRef: 'HEAD~0',
      comment: 'on-change',
      failOn: 'inconclusive',
      workingDirectory: '/work/repo/sub',
      resultsDirectory: path.join('/work/repo/sub', 'out'),
      name: 'core suite',
    });
    expect(parse({ run: 'x', threshold: '0.05', level: '99%' })).toMatchObject({
      threshold: { threshold: 0.05 },
      level: 0.99,
    });
    // per kind of metric, as the CLI's --threshold takes them (one rule: addThresholdItem)
    expect(parse({ run: 'x', threshold: '2%, memory=5%\nBenchmarkParse=3%' })).toMatchObject({
      threshold: { threshold: 0.02, thresholds: { memory: 0.05, BenchmarkParse: 0.03 } },
    });
    expect(parse({ run: 'x', threshold: 'time=1% memory=5%' })).toMatchObject({
      threshold: { thresholds: { time: 0.01, memory: 0.05 } },
    });
  });

  it.each([
    [{ mode: 'post' }, 'Input "mode": got "post"; accepted: run, comment'],
    [{}, 'Input "run": required when there is no "scenario"'],
    [{ run: '  ' }, 'Input "run": required when there is no "scenario"'],
    [{ run: "echo 'x" }, 'Input "run": got "echo \'x": unterminated \' quote'],
    [{ run: 'x', setup: 'make "all' }, 'Input "setup": got "make \\"all": unterminated " quote'],
    [{ run: 'x', format: 'xml' }, 'Input "format": got "xml"; accepted: auto, '],
    [
      { run: 'x', metric: 'user' },
      'Input "metric": got "user"; expected one of wall, cpu, rss, both (= [wall, cpu]), or a list of wall, cpu, rss without repeats like [wall, cpu, rss]',
    ],
    [{ run: 'x', metric: 'wall, wall' }, 'Input "metric": got "wall, wall"; expected one of'],
    [
      { run: 'x', 'experiment-mode': 'solo' },
      'Input "experiment-mode": got "solo"; accepted: duet, rmit, mit, mct, single',
    ],
    [
      { run: 'x', iterations: '0' },
      'Input "iterations": got "0"; expected an integer from 1 to 1000000',
    ],
    [{ run: 'x', iterations: 'ten' }, 'Input "iterations": got "ten"; expected an integer'],
    [{ run: 'x', iterations: '2.5' }, 'Input "iterations": got "2.5"; expected an integer'],
    [
      { run: 'x', budget: 'soon' },
      'Input "budget": got "soon"; expected seconds, or a duration like 500ms, 90s, 10m, 1h',
    ],
    [
      { run: 'x', threshold: '5' },
      'Input "threshold": got "5"; expected a fraction above 0 and below 1 like 0.05, or a percentage above 0% and below 1000% like 5% or 150%',
    ],
    [{ run: 'x', threshold: '0%' }, 'Input "threshold": got "0%"'],
    [{ run: 'x', threshold: '-1%' }, 'Input "threshold": got "-1%"'],
    [
      { run: 'x', threshold: '2%, =5%' },
      'Input "threshold": got "=5%"; expected a threshold like 5%, or KIND=THRESHOLD like memory=5% (kinds: time, memory; or a benchmark\'s name)',
    ],
    [{ run: 'x', threshold: 'memory=5' }, 'Input "threshold": got "5"; expected a fraction'],
    [
      { run: 'x', level: '100%' },
      'Input "level": got "100%"; expected a confidence level above 0 and below 1 like 0.99, or 99%',
    ],
    [{ run: 'x', level: 'high' }, 'Input "level": got "high"'],
    [
      { run: 'x', isolation: 'docker' },
      'Input "isolation": got "docker"; accepted: auto, cpuset, taskset, none',
    ],
    [{ run: 'x', seed: '-3' }, 'Input "seed": got "-3"; expected an integer from 0 to'],
    [
      { run: 'x', profile: 'sometimes' },
      'Input "profile": got "sometimes"; accepted: changed, always, never',
    ],
    [
      { run: 'x', seed: '99999999999' },
      'Input "seed": got "99999999999"; expected an integer from 0 to',
    ],
    [
      { run: 'x', 'base-ref': '--upload-pack=evil' },
      'Input "base-ref": got "--upload-pack=evil"; expected a branch, tag or commit id',
    ],
    [
      { run: 'x', 'head-ref': 'a b' },
      'Input "head-ref": got "a b"; expected a branch, tag or commit id',
    ],
    [
      { run: 'x', comment: 'sometimes' },
      'Input "comment": got "sometimes"; accepted: always, on-change, never',
    ],
    [
      { run: 'x', 'fail-on': 'error' },
      'Input "fail-on": got "error"; accepted: regression, inconclusive, never',
    ],
    [{ run: 'x', name: 'a'.repeat(101) }, 'Input "name": got "aaaa'],
    [{ mode: 'comment' }, 'Input "results-directory": required with mode: comment'],
    [
      { mode: 'comment', 'results-directory': 'r', run: 'x' },
      'Input "run": has no effect with mode: comment',
    ],
    [
      { mode: 'comment', 'results-directory': 'r', scenario: 's.yml' },
      'Input "scenario": has no effect with mode: comment',
    ],
  ])('refuses %j', (inputs, message) => {
    expect(() => parse(inputs as Record<string, string>)).toThrow(InputError);
    expect(() => parse(inputs as Record<string, string>)).toThrow(message);
  });

  it('reads mode: comment', () => {
    expect(parse({ mode: 'comment', 'results-directory': 'r', 'github-token': 't' })).toEqual({
      mode: 'comment',
      token: 't',
      comment: 'always',
      workingDirectory: '/work/repo',
      resultsDirectory: '/work/repo/r',
    });
  });
});
