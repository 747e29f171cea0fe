import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import { planInit, type InitOptions } from '../../src/init/init.js';
import type { Prompter } from '../../src/init/prompt.js';
import { createRepoProbe } from '../../src/init/repo.js';
import { loadScenarioFile } from '../../src/scenario/load.js';
import { recommendedBudget } from '../../src/suite/budget.js';
import { cli, makeDir, makeRepo, REPO, removeDir } from './helpers.js';

const GO_BENCH = 'package x\n\nimport "testing"\n\nfunc BenchmarkA(b *testing.B) {}\n';
const PY_BENCH = 'def test_x(benchmark):\n    benchmark(len, "x")\n';

describe('duetkit init', () => {
  const dirs: string[] = [];
  const repo = async (files: Record<string, string>): Promise<string> => {
    const dir = await makeRepo(files);
    dirs.push(dir);
    return dir;
  };
  afterAll(() => Promise.all(dirs.map(removeDir)));

  it('writes the scenario and the workflow, prints them and the next commands', async () => {
    const dir = await repo({ 'go.mod': 'module x\n', 'x_test.go': GO_BENCH });
    const result = await cli(['init'], dir);
    expect(result).toEqual({
      code: 0,
      err: '',
      out: expect.stringContaining('found go: 1 func Benchmark… in x_test.go\n'),
    });
    expect(result.out).toContain(
      'wrote benchmarks/duetkit.yml\nwrote .github/workflows/duetkit.yml\n',
    );
    expect(result.out).toContain(
      'git add benchmarks/duetkit.yml .github/workflows/duetkit.yml && git commit -m "Benchmark pull requests with duetkit"',
    );
    expect(result.out).toContain('npx duetkit run benchmarks/duetkit.yml   # HEAD against HEAD~1');
    expect(result.out).toContain("put the action's owner in place of OWNER");
    // The written scenario loads through the schema, with the refs the action replaces.
    const { scenario } = await loadScenarioFile('benchmarks/duetkit.yml', dir);
    expect(scenario).toMatchObject({
      name: 'go',
      mode: 'duet',
      versions: [
        { name: 'base', ref: 'HEAD~1' },
        { name: 'head', ref: 'HEAD' },
      ],
      workload: { format: 'go', perBenchmark: true },
      // a suite under a budget sized from the one benchmark found: the 2-minute floor
      budget: 120,
      suite: { allocation: 'adaptive', firstLook: 20, build: 'auto', granularity: 'finest' },
    });
    expect(await readFile(path.join(dir, 'benchmarks/duetkit.yml'), 'utf8')).not.toMatch(
      /^iterations:/m,
    );
    const workflow = parse(await readFile(path.join(dir, '.github/workflows/duetkit.yml'), 'utf8'));
    expect(workflow.on).toEqual({ pull_request: null, push: { branches: ['main'] } });
    expect(workflow.permissions).toEqual({ contents: 'read', 'pull-requests': 'write' });
    expect(workflow.jobs.bench.steps[0]).toEqual({
      uses: 'actions/checkout@v4',
      with: { 'fetch-depth': 0 },
    });
    expect(workflow.jobs.bench.steps[2]).toEqual({
      id: 'duetkit',
      uses: 'OWNER/duetkit@v1',
      with: { scenario: 'benchmarks/duetkit.yml', 'fail-on': 'regression', comment: 'on-change' },
    });
  });

  it('a Go suite that cannot run here keeps the estimate from the sources, and says why', async () => {
    const dir = await repo({
      'go.mod': 'module x\n',
      'x_test.go': `package x\n\nimport "testing"\n\nfunc BenchmarkA(b *testing.B) {\n  b.Run("a", func(b *testing.B) {})\n  undefinedHelper()\n}\n`,
    });
    const result = await cli(['init'], dir);
    expect(result.code).toBe(0);
    expect(result.out).toMatch(
      /go: the benchmarks could not be counted by running them once \(go test -run \^\$ -bench \. -benchtime 1x \.: .*undefined: undefinedHelper.*\); the budget is sized from the ~2 found in the sources/,
    );
    const text = await readFile(path.join(dir, 'benchmarks/duetkit.yml'), 'utf8');
    expect(text).toContain(
      '# ~2 benchmarks found (func Benchmark… plus b.Run calls, an estimate);',
    );
  });

  it('a big Go suite: suite: {}, the budget recommendedBudget gives, a comment saying what it buys', async () => {
    const runs = (n: number): string => '  b.Run("case", func(b *testing.B) {})\n'.repeat(n);
    const dir = await repo({
      'go.mod': 'module x\n',
      'parse_test.go': `package x\n\nimport "testing"\n\nfunc BenchmarkParse(b *testing.B) {\n${runs(25)}}\n\nfunc BenchmarkLex(b *testing.B) {\n${runs(15)}}\n`,
      'sum_test.go': 'package x\n\nimport "testing"\n\nfunc BenchmarkSum(b *testing.B) {}\n',
    });
    const result = await cli(['init'], dir);
    expect(result.code).toBe(0);
    expect(result.out).toContain(
      'found go: 3 func Benchmark… and 40 b.Run in parse_test.go and sum_test.go',
    );
    // counted by running them once: go names the 25 and 15 same-named sub-benchmarks apart
    // (case, case#01...), and BenchmarkParse itself is no result of its own: 41, not ~43
    const advice = recommendedBudget({ format: 'go', benchmarks: 41, vcpus: 2 });
    const text = await readFile(path.join(dir, 'benchmarks/duetkit.yml'), 'utf8');
    expect(text).toContain("  command: go test -run '^$' -bench . -benchmem .\n");
    expect(text).toContain(
      `# 41 benchmarks (listed by go test -bench . -benchtime 1x .); ${advice.seconds / 60}m gives every one its screening\n# (~20 pairs) and leaves time for the ones in doubt, on a 2-vCPU runner (4 vCPUs are no\n# faster: a duet uses one CPU per side and one for the harness). Raise it if many stay\n# inconclusive.\nbudget: ${advice.seconds / 60}m `,
    );
    expect(text).toMatch(/\nsuite: \{\}\n/);
    expect(text).not.toMatch(/^iterations:|-count|command: .*-benchtime/m);
    const { scenario } = await loadScenarioFile('benchmarks/duetkit.yml', dir);
    expect(scenario.budget).toBe(advice.seconds);
    expect(scenario.suite).toBeDefined();
    // the job has the budget and 20 minutes, or half an hour
    const workflow = parse(await readFile(path.join(dir, '.github/workflows/duetkit.yml'), 'utf8'));
    expect(workflow.jobs.bench['timeout-minutes']).toBe(Math.max(30, advice.seconds / 60 + 20));

    // An explicit budget is kept, compared with the recommended one; --iterations is noted.
    const kept = await cli(['init', '--force', '--budget', '1m', '--iterations', '12'], dir);
    expect(kept.code).toBe(0);
    expect(kept.out).toContain(
      '--iterations 12 is not written: a suite takes its pairs from its looks',
    );
    const keptText = await readFile(path.join(dir, 'benchmarks/duetkit.yml'), 'utf8');
    expect(keptText.replace(/\n# /g, ' ')).toContain(
      `${advice.seconds / 60}m would give every one its screening (~20 pairs) and leaves time for the ones in doubt, on a 2-vCPU runner (4 vCPUs are no faster: a duet uses one CPU per side and one for the harness); this budget is 1m, and may leave some unscreened.`,
    );
    expect(keptText).toMatch(/^budget: 1m /m);
  });

  it('a pytest suite: suite with granularity group and the budget sized from its benchmarks', async () => {
    const tests = Array.from(
      { length: 150 },
      (_, i) => `def test_b${i}(benchmark):\n    benchmark(len, "x")\n`,
    );
    const dir = await repo({
      'bench/test_speed.py': `import pytest\n\n@pytest.mark.parametrize("n", [1, 2, 3, 4])\ndef test_sizes(benchmark, n):\n    benchmark(len, "x" * n)\n\n${tests.join('\n')}`,
    });
    const result = await cli(['init', '--fork-safe'], dir);
    expect(result.code).toBe(0);
    const advice = recommendedBudget({ format: 'pytest', benchmarks: 154, vcpus: 2 });
    // 10 s + 20 pairs × 0.15 s × 154 = 472 s: 8 minutes
    expect(advice.seconds).toBe(480);
    const text = await readFile(path.join(dir, 'benchmarks/duetkit.yml'), 'utf8');
    expect(text).toContain(
      '# ~154 benchmarks found (tests taking the benchmark fixture, times their parametrize lists, an\n# estimate); 8m gives every one its screening',
    );
    expect(text).toMatch(/\nbudget: 8m .*\n(#.*\n)+suite:\n {2}granularity: group\n/);
    const { scenario } = await loadScenarioFile('benchmarks/duetkit.yml', dir);
    expect(scenario).toMatchObject({
      budget: 480,
      workload: { format: 'pytest', perBenchmark: true },
      suite: { granularity: 'group' },
    });
    const workflow = parse(await readFile(path.join(dir, '.github/workflows/duetkit.yml'), 'utf8'));
    expect(workflow.jobs.bench['timeout-minutes']).toBe(30);
  });

  it('never overwrites a file without --force, and writes nothing then', async () => {
    const dir = await repo({ 'x_test.go': GO_BENCH });
    await mkdir(path.join(dir, '.github/workflows'), { recursive: true });
    await writeFile(path.join(dir, '.github/workflows/duetkit.yml'), 'mine\n');
    const refused = await cli(['init'], dir);
    expect(refused).toEqual({
      code: 2,
      out: '',
      err: `duetkit: error: not overwriting ${path.join(dir, '.github/workflows/duetkit.yml')}: it exists; pass --force to replace it\n`,
    });
    expect(existsSync(path.join(dir, 'benchmarks/duetkit.yml'))).toBe(false);
    expect(await readFile(path.join(dir, '.github/workflows/duetkit.yml'), 'utf8')).toBe('mine\n');

    const dry = await cli(['init', '--dry-run'], dir);
    expect(dry.code).toBe(0);
    expect(dry.out).toContain('would write .github/workflows/duetkit.yml (exists: needs --force):');
    expect(dry.out).toContain('  name: duetkit');
    expect(existsSync(path.join(dir, 'benchmarks/duetkit.yml'))).toBe(false);

    const forced = await cli(['init', '--force'], dir);
    expect(forced.code).toBe(0);
    expect(forced.out).toContain(
      'wrote benchmarks/duetkit.yml\nreplaced .github/workflows/duetkit.yml\n',
    );
    expect(await readFile(path.join(dir, '.github/workflows/duetkit.yml'), 'utf8')).toContain(
      'name: duetkit',
    );
    // And again: now both exist.
    const again = await cli(['init'], dir);
    expect(again.code).toBe(2);
    expect(again.err).toContain('they exist; pass --force to replace them');
  });

  it('several tools and no terminal: exit 2 naming them and --tool; --tool picks one', async () => {
    const dir = await repo({ 'x_test.go': GO_BENCH, 'test_x.py': PY_BENCH });
    const several = await cli(['init'], dir);
    expect(several.code).toBe(2);
    expect(several.err).toBe(
      `duetkit: error: found several benchmark tools in ${dir}:\n  - go: 1 func Benchmark… in x_test.go\n  - pytest: the benchmark fixture in test_x.py\nchoose one with --tool go or --tool pytest\n`,
    );
    const picked = await cli(['init', '--tool', 'pytest-benchmark', '--no-workflow'], dir);
    expect(picked.code).toBe(0);
    expect(picked.out).toContain('found pytest: the benchmark fixture in test_x.py');
    expect(picked.out).not.toContain('.github');
    expect(existsSync(path.join(dir, '.github'))).toBe(false);
  });

  it('nothing found: exit 2 saying what was looked for and how to pass --command', async () => {
    const dir = await repo({ 'README.md': '# nothing here\n' });
    const result = await cli(['init'], dir);
    expect(result.code).toBe(2);
    expect(result.err).toContain(
      `found no benchmarks in ${dir}; looked for:\n  - go: func BenchmarkX`,
    );
    expect(result.err).toContain('  - pytest: tests taking the benchmark fixture');
    expect(result.err).toContain('name the command to measure with --command "CMD"');
    expect(existsSync(path.join(dir, 'benchmarks'))).toBe(false);
  });

  it('bad options: exit 2 naming the option, the value and what is accepted', async () => {
    const dir = await repo({ 'x_test.go': GO_BENCH });
    const cases: [string[], string][] = [
      [
        ['--tool', 'make'],
        '--tool: got "make"; expected one of: go, cargo, pytest, googlecpp, jmh, vitest, tinybench, benchmarkjs, hyperfine, command',
      ],
      [
        ['--tool', 'cargo'],
        `--tool cargo: found no cargo benchmarks in ${dir}; looked for cargo: a Cargo.toml`,
      ],
      [['--tool', 'command'], '--tool command needs the command to measure: --command "CMD"'],
      [['--command', 'echo "x'], '--command: got "echo \\"x"; unterminated " quote'],
      [['--format', 'gobench'], '--format: got "gobench"; expected one of: auto, cargo, go'],
      [['--budget', 'soon'], 'budget: got "soon"'],
      [
        ['--scenario', '../outside.yml'],
        `--scenario: got ../outside.yml; expected a path inside ${dir}`,
      ],
      [
        ['--dir', 'missing'],
        `--dir: got ${path.join(dir, 'missing')}; expected an existing directory`,
      ],
    ];
    for (const [args, message] of cases) {
      const result = await cli(['init', ...args], dir);
      expect([args, result.code]).toEqual([args, 2]);
      expect(result.err).toContain(message);
    }
    expect(existsSync(path.join(dir, 'benchmarks'))).toBe(false);
  });

  it('--command: a plain command, handed to sh -c when it needs a shell; with --tool it replaces the command', async () => {
    const dir = await repo({ 'x_test.go': GO_BENCH });
    const plain = await cli(
      [
        'init',
        '--command',
        'make bench && ./bench > /dev/null',
        '--setup',
        'make',
        '--no-workflow',
      ],
      dir,
    );
    expect(plain.code).toBe(0);
    const { scenario } = await loadScenarioFile('benchmarks/duetkit.yml', dir);
    expect(scenario.workload).toMatchObject({
      command: ['sh', '-c', 'make bench && ./bench > /dev/null'],
    });
    expect(scenario.workload.format).toBeUndefined();
    expect(scenario.versions[0]!.setup).toEqual(['make']);
    const tool = await cli(
      [
        'init',
        '--tool',
        'go',
        '--command',
        'go test -bench . ./pkg',
        '--scenario',
        'perf/go.yml',
        '--no-workflow',
      ],
      dir,
    );
    expect(tool.code).toBe(0);
    const go = await loadScenarioFile('perf/go.yml', dir);
    expect(go.scenario.workload).toMatchObject({
      command: ['go', 'test', '-bench', '.', './pkg'],
      format: 'go',
      perBenchmark: true,
    });
  });

  it('a project in a subdirectory: dir in the versions, paths from the repository root in the workflow', async () => {
    const dir = await repo({ 'svc/go.mod': 'module x\n', 'svc/x_test.go': GO_BENCH });
    const result = await cli(['init', '--dir', 'svc'], dir);
    expect(result.code).toBe(0);
    expect(result.out).toContain(
      'wrote svc/benchmarks/duetkit.yml\nwrote .github/workflows/duetkit.yml\n',
    );
    const { scenario } = await loadScenarioFile('svc/benchmarks/duetkit.yml', dir);
    expect(scenario.versions.map((v) => v.dir)).toEqual(['svc', 'svc']);
    const workflow = parse(await readFile(path.join(dir, '.github/workflows/duetkit.yml'), 'utf8'));
    expect(workflow.jobs.bench.steps[1]).toEqual({
      uses: 'actions/setup-go@v5',
      with: { 'go-version-file': 'svc/go.mod' },
    });
    expect(workflow.jobs.bench.steps[2].with.scenario).toBe('svc/benchmarks/duetkit.yml');
  });

  it('--fork-safe writes the pair: a read-only run and a workflow_run comment naming it', async () => {
    const dir = await repo({ 'test_x.py': PY_BENCH });
    const result = await cli(['init', '--fork-safe', '--action', 'acme/duetkit@v1.2.0'], dir);
    expect(result.code).toBe(0);
    expect(result.out).not.toContain('OWNER');
    const bench = parse(await readFile(path.join(dir, '.github/workflows/duetkit.yml'), 'utf8'));
    const comment = parse(
      await readFile(path.join(dir, '.github/workflows/duetkit-comment.yml'), 'utf8'),
    );
    expect(bench.on).toEqual({ pull_request: null });
    expect(bench.permissions).toEqual({ contents: 'read' });
    const steps = bench.jobs.bench.steps;
    expect(steps.map((s: { uses?: string }) => s.uses)).toEqual([
      'actions/checkout@v4',
      'actions/setup-python@v5',
      undefined,
      'acme/duetkit@v1.2.0',
      'actions/upload-artifact@v4',
    ]);
    expect(steps[3].with.comment).toBe('never');
    expect(steps[4].with.name).toBe('duetkit-results');
    expect(comment.on.workflow_run.workflows).toEqual([bench.name]);
    expect(comment.permissions).toEqual({ actions: 'read', 'pull-requests': 'write' });
    expect(comment.jobs.comment.steps[0].with.name).toBe('duetkit-results');
    expect(comment.jobs.comment.steps[1]).toMatchObject({
      uses: 'acme/duetkit@v1.2.0',
      with: { mode: 'comment' },
    });
  });

  it('outside a git repository, and in one without commits: says what to do first', async () => {
    const bare = await makeDir({ 'x_test.go': GO_BENCH });
    dirs.push(bare);
    const outside = await cli(['init'], bare);
    expect(outside.code).toBe(0);
    expect(outside.out).toContain('is not in a git repository; the scenario compares git refs');
    expect(outside.out).toContain('git init && git add -A');
    const empty = await makeDir({ 'x_test.go': GO_BENCH });
    dirs.push(empty);
    await new Promise((resolve) =>
      spawn('git', ['init', '-q'], { cwd: empty }).on('close', resolve),
    );
    const fresh = await cli(['init'], empty);
    expect(fresh.out).toContain('the repository has no commit yet');
  });

  it('asks on a terminal: which tool when several, which command when none', async () => {
    const several = await repo({ 'x_test.go': GO_BENCH, 'test_x.py': PY_BENCH });
    const asked: string[] = [];
    const prompter: Prompter = {
      choose: async (question, choices) => {
        asked.push(question, ...choices);
        return 1;
      },
      ask: async (question) => {
        asked.push(question);
        return 'sh bench.sh';
      },
      close: () => undefined,
    };
    const options = (dir: string): InitOptions => ({
      dir,
      scenario: 'benchmarks/duetkit.yml',
      workflow: true,
      forkSafe: false,
      action: 'OWNER/duetkit@v1',
      iterations: 30,
      budget: '10m',
    });
    const chosen = await planInit(options(several), { repo: createRepoProbe(), prompter });
    expect(chosen.plan.tool).toBe('pytest');
    expect(chosen.others.map((p) => p.tool)).toEqual(['go']);
    expect(asked).toEqual([
      expect.stringContaining('Several benchmark tools were found'),
      'go: 1 func Benchmark… in x_test.go',
      'pytest: the benchmark fixture in test_x.py',
      expect.stringContaining('Also a nightly workflow'),
      'no',
      'yes',
    ]);
    // answered yes: the nightly variability workflow is planned too
    expect(chosen.files.map((f) => path.basename(f.path))).toContain('duetkit-nightly.yml');
    const none = await repo({ 'README.md': '' });
    const typed = await planInit(options(none), { repo: createRepoProbe(), prompter });
    expect(typed.plan.workload.command).toBe('sh bench.sh');
    expect(asked.at(-4)).toContain('Command to benchmark');
  });

  it('asks nothing when stdin is not a terminal (the real CLI, stdin a pipe left open)', async () => {
    const dir = await repo({ 'x_test.go': GO_BENCH, 'test_x.py': PY_BENCH });
    const tsx = path.join(REPO, 'node_modules', '.bin', 'tsx');
    const child = spawn(tsx, [path.join(REPO, 'src/cli/bin.ts'), 'init'], {
      cwd: dir,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(err).toContain('found several benchmark tools');
    expect(err).toContain('choose one with --tool go or --tool pytest');
    expect(code).toBe(2);
  }, 30_000);
});
