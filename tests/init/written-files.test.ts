import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { commandPlan } from '../../src/init/detectors/command.js';
import { nightlyWorkflow } from '../../src/init/nightly-workflow.js';
import { listProject } from '../../src/init/project.js';
import { scenarioText } from '../../src/init/scenario-file.js';
import { detectTools } from '../../src/init/tools.js';
import type { ToolPlan } from '../../src/init/types.js';
import { DEFAULT_ACTION, workflowFiles } from '../../src/init/workflow-file.js';
import { loadScenarioFile } from '../../src/scenario/load.js';
import { actionlint, makeDir, removeDir } from './helpers.js';

/** One small project per detector, and what it finds there. */
const PROJECTS: Record<string, Record<string, string>> = {
  go: { 'go.mod': 'module x\n', 'x_test.go': 'func BenchmarkA(b *testing.B) {}\n' },
  cargo: { 'Cargo.toml': '[package]\nname = "x"\n[dev-dependencies]\ncriterion = "0.5"\n' },
  libtest: { 'Cargo.toml': '[package]\nname = "x"\n', 'benches/b.rs': '#[bench]\n' },
  pytest: {
    '.python-version': '3.12\n',
    'requirements.txt': 'pytest-benchmark\n',
    'tests/test_x.py': 'def test_x(benchmark): pass\ndef test_y(): pass\n',
  },
  googlecpp: {
    'CMakeLists.txt': 'find_package(benchmark)\ntarget_link_libraries(b benchmark::benchmark)\n',
  },
  jmh: { 'pom.xml': '<artifactId>jmh-core</artifactId>' },
  node: {
    'package.json': '{"devDependencies":{"vitest":"3","tinybench":"6","benchmark":"2"}}',
    '.nvmrc': '24\n',
    'package-lock.json': '{}',
    'a.bench.ts': '',
    'tiny.mjs': "import { Bench } from 'tinybench'; console.log(JSON.stringify([]));\n",
    'old.js': "require('benchmark');\n",
  },
  hyperfine: { 'bench.sh': 'hyperfine -N "./app $ARG"\n' },
};

describe('init: the written scenario and workflows', () => {
  let root: string;
  let plans: ToolPlan[];
  beforeAll(async () => {
    root = await makeDir({});
    plans = [commandPlan('sh -c "sleep 0.01"'), commandPlan('./bench --json', 'jsonl')];
    for (const files of Object.values(PROJECTS)) {
      const dir = await makeDir(files);
      plans.push(...(await detectTools(await listProject(dir))));
      await removeDir(dir);
    }
  });
  afterAll(() => removeDir(root));

  it('writes a suite for every tool whose format runs one, with a budget sized from them', () => {
    expect(plans.map((p) => [p.tool, p.workload.format, p.suite?.fields])).toEqual([
      ['command', undefined, undefined],
      ['command', 'jsonl', undefined],
      ['go', 'go', {}],
      // no bench target named in Cargo.toml or benches/: cargo bench as written
      ['cargo', 'criterion', { build: 'never' }],
      ['cargo', 'cargo', {}],
      // its files hold other tests too: the whole suite runs, no per-benchmark suite
      ['pytest', 'pytest', undefined],
      ['googlecpp', 'googlecpp', {}],
      ['jmh', 'jmh', {}],
      ['vitest', 'tinybench', undefined],
      ['tinybench', 'tinybench', undefined],
      ['benchmarkjs', 'benchmarkjs', undefined],
      ['hyperfine', 'hyperfine', undefined],
    ]);
  });

  it('has a plan for every detector', () => {
    expect(plans.map((p) => p.tool)).toEqual([
      'command',
      'command',
      'go',
      'cargo',
      'cargo',
      'pytest',
      'googlecpp',
      'jmh',
      'vitest',
      'tinybench',
      'benchmarkjs',
      'hyperfine',
    ]);
  });

  it('every scenario loads through the schema, at the root and in a subdirectory', async () => {
    for (const [i, plan] of plans.entries()) {
      for (const dirInRepo of ['', 'services/api']) {
        const file = path.join(root, `scenario-${i}-${dirInRepo === '' ? 'root' : 'sub'}.yml`);
        const text = scenarioText(plan, {
          name: plan.tool,
          dirInRepo,
          runPath: 'benchmarks/duetkit.yml',
          workflowPath: '.github/workflows/duetkit.yml',
          iterations: 20,
          budget: '15m',
        });
        await writeFile(file, text);
        const { scenario } = await loadScenarioFile(file, root);
        expect(scenario.versions).toEqual([
          expect.objectContaining({
            name: 'base',
            ref: 'HEAD~1',
            ...(dirInRepo ? { dir: dirInRepo } : {}),
          }),
          expect.objectContaining({
            name: 'head',
            ref: 'HEAD',
            ...(dirInRepo ? { dir: dirInRepo } : {}),
          }),
        ]);
        // A suite takes its pairs from its looks: no iterations written (the default stays).
        const suite = plan.suite !== undefined && plan.workload.perBenchmark === true;
        expect(scenario).toMatchObject({ iterations: suite ? 30 : 20, budget: 900, warmup: 1 });
        expect(scenario.suite === undefined).toBe(!suite);
        expect(/^iterations:/m.test(text)).toBe(!suite);
        if (suite) expect(text).toMatch(/^# ~\d+ benchmarks found \(.*\n(#.*\n)*budget: 15m /m);
        expect(scenario.workload.format).toBe(plan.workload.format);
        expect(scenario.workload.perBenchmark).toBe(plan.workload.perBenchmark === true);
        // A setup used by both versions is written twice, never as a YAML alias.
        expect(text).not.toMatch(/[&*]a\d/);
      }
    }
  });

  it('every workflow passes actionlint: single and fork-safe, at the root and in a subdirectory', async () => {
    const files: string[] = [];
    for (const [i, plan] of plans.entries()) {
      for (const forkSafe of [false, true]) {
        for (const dirInRepo of ['', 'services/api']) {
          const written = workflowFiles(plan, {
            action: i % 2 === 0 ? DEFAULT_ACTION : 'acme/duetkit@v1',
            scenarioInRepo: 'benchmarks/duetkit.yml',
            dirInRepo,
            branch: 'trunk',
            forkSafe,
            budget: '45m',
          });
          expect(written.map((w) => w.path)).toEqual(
            forkSafe
              ? ['.github/workflows/duetkit.yml', '.github/workflows/duetkit-comment.yml']
              : ['.github/workflows/duetkit.yml'],
          );
          expect(written[0]!.text).toContain('timeout-minutes: 65');
          for (const w of written) {
            const dir = path.join(root, `wf-${i}-${forkSafe}-${dirInRepo === '' ? 'root' : 'sub'}`);
            await mkdir(dir, { recursive: true });
            const file = path.join(dir, path.basename(w.path));
            await writeFile(file, w.text);
            files.push(file);
          }
        }
      }
    }
    expect(await actionlint(files)).toBe('');
  });

  it('every nightly workflow passes actionlint and runs the A/A, the step duet, the history and the report', async () => {
    const files: string[] = [];
    for (const [i, plan] of plans.entries()) {
      for (const dirInRepo of ['', 'services/api']) {
        const w = nightlyWorkflow(plan, {
          action: i % 2 === 0 ? DEFAULT_ACTION : 'acme/duetkit@v1',
          scenarioInRepo: 'benchmarks/duetkit.yml',
          dirInRepo,
          branch: 'trunk',
          forkSafe: false,
          budget: '45m',
        });
        expect(w.path).toBe('.github/workflows/duetkit-nightly.yml');
        expect(w.text).toMatch(/aa: true .*\n\s+publish: history\n/);
        expect(w.text).toMatch(
          /name: nightly-steps\n\s+base-from-history: true .*\n\s+threshold: 0\.5%/,
        );
        expect(w.text).toContain('mode: variability');
        const dir = path.join(root, `nightly-${i}-${dirInRepo === '' ? 'root' : 'sub'}`);
        await mkdir(dir, { recursive: true });
        const file = path.join(dir, 'duetkit-nightly.yml');
        await writeFile(file, w.text);
        files.push(file);
      }
    }
    expect(await actionlint(files)).toBe('');
  });
});
