import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadScenarioFile, parseScenario } from '../../src/scenario/load.js';

const minimal = {
  versions: [
    { name: 'base', path: 'a' },
    { name: 'head', ref: 'HEAD' },
  ],
  workload: { command: 'node bench.js' },
};

function errorOf(raw: unknown): string {
  try {
    parseScenario(raw, 'test.yml');
  } catch (error) {
    expect((error as Error).name).toBe('ScenarioError');
    return (error as Error).message;
  }
  throw new Error('expected a ScenarioError');
}

describe('scenario schema', () => {
  it('fills in every default', () => {
    const s = parseScenario(minimal);
    expect(s).toMatchObject({
      mode: 'duet',
      iterations: 30,
      warmup: 1,
      timeout: 60,
      isolation: 'auto',
      workload: {
        driver: 'command',
        command: ['node', 'bench.js'],
        metric: ['wall'],
        keepBusy: 'spin',
        stagger: 'auto',
        env: {},
      },
      analysis: { level: 0.99, threshold: 0.05, adjustment: 'holm', resamples: 10000 },
    });
    expect(s.seed).toBeUndefined();
  });

  it('reads durations with units', () => {
    expect(parseScenario({ ...minimal, timeout: '500ms', budget: '2m' })).toMatchObject({
      timeout: 0.5,
      budget: 120,
    });
  });

  it('names the field path, the bad value and what is accepted', () => {
    const message = errorOf({
      ...minimal,
      mode: 'duett',
      iterations: 0,
      workload: { command: 'x', format: 'nope' },
      analysis: { level: 1.5 },
    });
    expect(message).toContain(
      'mode: got "duett"; expected one of "duet", "rmit", "mit", "mct", "single"',
    );
    expect(message).toContain('iterations: got 0; expected a number >=1');
    expect(message).toMatch(/workload\.format: got "nope"; expected one of: auto, .*jsonl/);
    expect(message).toContain('analysis.level: got 1.5');
  });

  it('lists accepted fields for an unknown one', () => {
    const message = errorOf({
      ...minimal,
      versions: [{ name: 'a', path: 'x', sha: 1 }, minimal.versions[1]],
    });
    expect(message).toContain(
      'versions[0]: unknown field "sha"; accepted: name, path, ref, dir, setup',
    );
  });

  it('wants exactly one of path and ref', () => {
    expect(errorOf({ ...minimal, versions: [{ name: 'a' }, minimal.versions[1]] })).toContain(
      'versions[0]: got {"name":"a"}; expected exactly one of "path" (a directory) or "ref" (a git ref)',
    );
  });

  it('wants two versions in a duet and unique names', () => {
    const three = [...minimal.versions, { name: 'other', path: 'c' }];
    expect(errorOf({ ...minimal, versions: three })).toContain('versions: got');
    expect(() => parseScenario({ ...minimal, mode: 'rmit', versions: three })).not.toThrow();
    const twice = [minimal.versions[0], { name: 'base', path: 'b' }];
    expect(errorOf({ ...minimal, versions: twice })).toContain(
      'versions[1].name: got "base"; expected a unique name',
    );
  });

  it('refuses precision-based stopping where there are no rounds', () => {
    expect(errorOf({ ...minimal, mode: 'mct', stopping: { halfWidth: 0.01 } })).toContain(
      'stopping:',
    );
  });

  it('takes a command metric, a keep-busy mode and a stagger, and refuses them where meaningless', () => {
    expect(
      parseScenario({
        ...minimal,
        workload: { command: 'x', metric: 'both', keepBusy: 'off', stagger: '2ms' },
      }).workload,
    ).toMatchObject({ metric: ['wall', 'cpu'], keepBusy: 'off' });
    expect(
      parseScenario({ ...minimal, workload: { command: 'x', stagger: '1ms' } }).workload.stagger,
    ).toBe(0.001);
    expect(
      parseScenario({ ...minimal, workload: { command: 'x', stagger: 'off' } }).workload,
    ).toMatchObject({
      stagger: 'off',
    });
    expect(errorOf({ ...minimal, workload: { command: 'x', metric: 'user' } })).toContain(
      'workload.metric: got "user"; expected one of wall, cpu, rss, both (= [wall, cpu]), or a list of wall, cpu, rss without repeats like [wall, cpu, rss]',
    );
    expect(errorOf({ ...minimal, workload: { command: 'x', keepBusy: 'sleep' } })).toContain(
      'workload.keepBusy: got "sleep"; expected one of "spin", "repeat", "off"',
    );
    expect(errorOf({ ...minimal, workload: { command: 'x', stagger: 'soon' } })).toMatch(
      /workload\.stagger: got "soon"/,
    );
    expect(
      errorOf({ ...minimal, workload: { command: 'x', format: 'jsonl', metric: 'cpu' } }),
    ).toContain(
      'workload.metric: got "cpu"; expected wall: the other metrics are for a command without a format',
    );
    expect(
      errorOf({ ...minimal, workload: { driver: 'persistent', command: 'x', metric: 'both' } }),
    ).toContain(
      'workload.metric: got "both"; expected wall: the other metrics are for the command driver',
    );
  });

  it('takes workload.metric as a list, keeps the single values, and names what is accepted', () => {
    const metricOf = (metric: unknown): unknown =>
      parseScenario({ ...minimal, workload: { command: 'x', metric } }).workload.metric;
    expect(metricOf(['wall', 'cpu', 'rss'])).toEqual(['wall', 'cpu', 'rss']);
    expect(metricOf(['rss', 'wall'])).toEqual(['rss', 'wall']);
    expect(metricOf('rss')).toEqual(['rss']);
    expect(metricOf('cpu')).toEqual(['cpu']);
    expect(metricOf('both')).toEqual(['wall', 'cpu']);
    const accepted =
      'expected one of wall, cpu, rss, both (= [wall, cpu]), or a list of wall, cpu, rss without repeats like [wall, cpu, rss]';
    for (const [bad, shown] of [
      [['wall', 'heap'], '["wall","heap"]'],
      [['wall', 'wall'], '["wall","wall"]'],
      [[], '[]'],
      [['both'], '["both"]'],
      [3, '3'],
    ] as const) {
      expect(errorOf({ ...minimal, workload: { command: 'x', metric: bad } })).toContain(
        `workload.metric: got ${shown}; ${accepted}`,
      );
    }
    expect(
      errorOf({ ...minimal, workload: { command: 'x', format: 'go', metric: ['wall', 'rss'] } }),
    ).toContain(
      'workload.metric: got ["wall","rss"]; expected wall: the other metrics are for a command without a format',
    );
  });

  it('takes thresholds of their own beside analysis.threshold, and names a bad one', () => {
    const s = parseScenario({
      ...minimal,
      analysis: {
        threshold: '3%',
        thresholds: { time: '2%', memory: 0.1, 'BenchmarkX - allocs/op': '1%' },
      },
    });
    expect(s.analysis.threshold).toBe(0.03);
    expect(s.analysis.thresholds).toEqual({
      time: 0.02,
      memory: 0.1,
      'BenchmarkX - allocs/op': 0.01,
    });
    expect(parseScenario(minimal).analysis.thresholds).toBeUndefined();
    expect(errorOf({ ...minimal, analysis: { thresholds: { memory: '0%' } } })).toContain(
      'analysis.thresholds.memory: got "0%"; expected a fraction above 0 and below 1',
    );
    expect(errorOf({ ...minimal, analysis: { thresholds: ['5%'] } })).toContain(
      'analysis.thresholds: got ["5%"]',
    );
  });

  it('refuses a format with the persistent driver', () => {
    expect(
      errorOf({ ...minimal, workload: { driver: 'persistent', command: 'x', format: 'jsonl' } }),
    ).toContain('workload.format');
  });

  it('rejects a command that is not a command', () => {
    expect(errorOf({ ...minimal, workload: { command: `node 'x` } })).toContain('unterminated');
    expect(errorOf({ ...minimal, workload: { command: [] } })).toContain('workload.command');
  });
});

describe('loadScenarioFile', () => {
  let dir: string;
  beforeEach(async () => (dir = await mkdtemp(path.join(os.tmpdir(), 'duetkit-scenario-'))));
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('reads YAML and resolves paths from the file', async () => {
    await writeFile(
      path.join(dir, 's.yml'),
      'versions:\n  - {name: base, path: a}\n  - {name: head, path: b}\nworkload:\n  command: [node, x.js]\n',
    );
    const loaded = await loadScenarioFile('s.yml', dir);
    expect(loaded.baseDir).toBe(dir);
    expect(loaded.file).toBe(path.join(dir, 's.yml'));
    expect(loaded.scenario.workload.command).toEqual(['node', 'x.js']);
  });

  it('reports YAML syntax and missing files as ScenarioError', async () => {
    await writeFile(path.join(dir, 'bad.yml'), 'versions: [\n');
    await expect(loadScenarioFile('bad.yml', dir)).rejects.toMatchObject({ name: 'ScenarioError' });
    await expect(loadScenarioFile('none.yml', dir)).rejects.toThrow(
      /cannot read scenario none.yml/,
    );
  });
});
