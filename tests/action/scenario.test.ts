import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseInputs } from '../../src/action/inputs.js';
import type { RunInputs } from '../../src/action/inputs.js';
import { scenarioForAction } from '../../src/action/scenario.js';
import { ROOT } from '../support/bundle-action.js';

const baseHead = { base: 'a'.repeat(40), head: 'b'.repeat(40), how: 'test' };
const found = async () => baseHead;
const notWanted = async (): Promise<never> => {
  throw new Error('base and head should not be looked up');
};
const inputs = (values: Record<string, string>, cwd = ROOT): RunInputs =>
  parseInputs((name) => values[name] ?? '', cwd) as RunInputs;

describe('scenarioForAction', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'duetkit-scenario-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('the dogfooding scenario: its two refs become base and head, setup kept', async () => {
    const result = await scenarioForAction(
      inputs({ scenario: 'scenarios/dogfood-stats.yml' }),
      found,
    );
    expect(result.suite).toBe('stats');
    expect(result.baseHead).toBe(baseHead);
    expect(result.loaded.scenario.versions).toMatchObject([
      { name: 'base', ref: baseHead.base, setup: ['npm', 'ci', '--no-audit', '--no-fund'] },
      { name: 'head', ref: baseHead.head, setup: ['npm', 'ci', '--no-audit', '--no-fund'] },
    ]);
    expect(result.loaded.scenario.workload.format).toBe('jsonl');
  });

  it('a scenario of paths runs as written, without looking up base and head', async () => {
    const result = await scenarioForAction(
      inputs({ scenario: 'scenarios/quickstart.yml', budget: '20s', 'experiment-mode': 'rmit' }),
      notWanted,
    );
    expect(result.baseHead).toBeNull();
    expect(result.loaded.scenario).toMatchObject({ mode: 'rmit', budget: 20 });
    expect(result.loaded.scenario.versions.map((v) => v.path)).toEqual([
      '../examples/quickstart/base',
      '../examples/quickstart/head',
    ]);
  });

  it('inline inputs lay over a file', async () => {
    const result = await scenarioForAction(
      inputs({
        scenario: 'scenarios/dogfood-stats.yml',
        run: 'node other.js',
        format: 'auto',
        setup: 'make',
        iterations: '7',
        threshold: '2%, memory=5%',
        level: '95%',
        isolation: 'none',
        seed: '3',
        name: 'renamed',
      }),
      found,
    );
    expect(result.suite).toBe('renamed');
    expect(result.loaded.scenario).toMatchObject({
      iterations: 7,
      isolation: 'none',
      seed: 3,
      workload: { command: ['node', 'other.js'], format: 'auto' },
      analysis: { threshold: 0.02, level: 0.95, thresholds: { memory: 0.05 } },
    });
    expect(result.loaded.scenario.versions.map((v) => v.setup)).toEqual([['make'], ['make']]);
  });

  it('inline only: base and head of the event as two refs in the working directory', async () => {
    const result = await scenarioForAction(
      inputs({ run: 'cargo bench', format: 'cargo', 'experiment-mode': 'rmit' }, dir),
      found,
    );
    expect(result.suite).toBe('benchmarks');
    expect(result.loaded).toMatchObject({ file: null, baseDir: dir });
    expect(result.loaded.scenario).toMatchObject({
      mode: 'rmit',
      iterations: 30,
      versions: [
        { name: 'base', ref: baseHead.base },
        { name: 'head', ref: baseHead.head },
      ],
      workload: { command: ['cargo', 'bench'], format: 'cargo' },
    });
  });

  it('a mode the scenario cannot take is refused by the schema, naming the field', async () => {
    writeFileSync(
      path.join(dir, 'three.yml'),
      'versions: [{name: a, path: .}, {name: b, path: .}, {name: c, path: .}]\nmode: rmit\nworkload: {command: "true"}\n',
    );
    await expect(
      scenarioForAction(inputs({ scenario: 'three.yml', 'experiment-mode': 'duet' }, dir), found),
    ).rejects.toThrow(
      /three\.yml with the action's inputs is invalid:\n {2}- versions: .*exactly two versions in duet mode/,
    );
  });

  it('base-from-history: the suite is named to the lookup; a scenario of paths is refused', async () => {
    let asked = '';
    const result = await scenarioForAction(
      inputs({ scenario: 'scenarios/dogfood-stats.yml', 'base-from-history': 'true' }),
      async (suite) => ((asked = suite), baseHead),
    );
    expect(asked).toBe('stats');
    expect(result.baseHead).toBe(baseHead);
    await expect(
      scenarioForAction(
        inputs({ scenario: 'scenarios/quickstart.yml', 'base-from-history': 'true' }),
        notWanted,
      ),
    ).rejects.toThrow(
      'Input "base-from-history": true needs a scenario of two versions checked out from git refs; scenarios/quickstart.yml has 2 version(s), 0 with "ref"',
    );
  });
});
