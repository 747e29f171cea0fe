import { countBenchmarks } from '../../src/init/detectors/pytest.js';
import { listProject } from '../../src/init/project.js';
import { detectTools, findTool, toolNames } from '../../src/init/tools.js';
import type { ToolPlan } from '../../src/init/types.js';
import { makeDir, removeDir, type SampleFile } from './helpers.js';

/** What the detectors find in a directory holding `files`. */
async function detect(files: Record<string, SampleFile>): Promise<ToolPlan[]> {
  const dir = await makeDir(files);
  try {
    return await detectTools(await listProject(dir));
  } finally {
    await removeDir(dir);
  }
}

async function only(files: Record<string, SampleFile>): Promise<ToolPlan> {
  const plans = await detect(files);
  expect(plans.map((p) => p.tool)).toHaveLength(1);
  return plans[0]!;
}

const GO_BENCH = 'package x\n\nimport "testing"\n\nfunc BenchmarkA(b *testing.B) {}\n';
const CRITERION_TOML = `[package]
name = "x"
version = "0.1.0"

[dev-dependencies]
criterion = "0.5"

[[bench]]
name = "speed"
harness = false
`;

describe('init: detecting the benchmark tool', () => {
  it('go: func Benchmark in a _test.go file; a suite of one package, the root or the largest', async () => {
    const root = await only({ 'go.mod': 'module x\n', 'x_test.go': GO_BENCH });
    expect(root).toMatchObject({
      tool: 'go',
      evidence: '1 func Benchmark… in x_test.go',
      workload: {
        command: "go test -run '^$' -bench . -benchmem .",
        format: 'go',
        perBenchmark: true,
      },
      suite: { fields: {}, benchmarks: 1 },
      steps: [{ uses: 'actions/setup-go@v5', with: { 'go-version-file': 'go.mod' } }],
      notes: [],
    });
    // A prebuilt test binary is one package: the one with the most benchmarks, the rest noted.
    const subRuns = (n: number): string =>
      `func BenchmarkS(b *testing.B) {\n${'  b.Run("x", nil)\n'.repeat(n)}}\n`;
    const nested = await only({
      'go.mod': 'module x\n',
      'pkg/a/a_test.go': GO_BENCH,
      'pkg/b/b_test.go': `package b\n${subRuns(3)}`,
    });
    expect(nested.workload.command).toBe("go test -run '^$' -bench . -benchmem ./pkg/b");
    expect(nested.evidence).toBe(
      '1 func Benchmark… and 3 b.Run in pkg/b/b_test.go (and 1 more package)',
    );
    expect(nested.suite).toMatchObject({ benchmarks: 4 });
    expect(nested.notes.join()).toContain('./pkg/a has benchmarks too');
    // The root package wins when it has benchmarks, whatever the others hold.
    const rooted = await only({ 'x_test.go': GO_BENCH, 'pkg/b/b_test.go': subRuns(9) });
    expect(rooted.workload.command).toMatch(/ -benchmem \.$/);
    // Tests without benchmarks, and benchmarks in vendored code, are not the user's benchmarks.
    expect(
      await detect({
        'x_test.go': 'package x\nfunc TestA(t *testing.T) {}\n',
        'vendor/y/y_test.go': GO_BENCH,
        'node_modules/z/z_test.go': GO_BENCH,
      }),
    ).toEqual([]);
  });

  it('go: 3 benchmark functions and 40 b.Run calls are ~43 benchmarks (t.Run is not one)', async () => {
    const body = (name: string, runs: number, receiver = 'b'): string =>
      `func Benchmark${name}(${receiver} *testing.B) {\n${`  ${receiver}.Run("s", func(${receiver} *testing.B) {})\n`.repeat(runs)}}\n`;
    const plan = await only({
      'go.mod': 'module x\n',
      'a_test.go': `package x\n${body('A', 20)}${body('B', 15, 'bb')}`,
      'b_test.go': `package x\n${body('C', 5)}func TestT(t *testing.T) { t.Run("x", nil) }\n`,
    });
    expect(plan.suite).toEqual({
      fields: {},
      benchmarks: 43,
      counted: 'func Benchmark… plus b.Run calls, an estimate',
      list: {
        argv: ['go', 'test', '-run', '^$', '-bench', '.', '-benchtime', '1x', '.'],
        how: 'listed by go test -bench . -benchtime 1x .',
      },
    });
    expect(plan.evidence).toBe('3 func Benchmark… and 40 b.Run in a_test.go and b_test.go');
  });

  it('cargo: criterion in Cargo.toml (criterion format, --bench NAME), else #[bench] (nightly)', async () => {
    const criterion = await only({
      'Cargo.toml': CRITERION_TOML,
      'benches/speed.rs':
        'fn f(c: &mut Criterion) {\n  c.bench_function("a", |b| b.iter(|| 1));\n  g.bench_with_input(id, &n, |b, n| b.iter(|| n));\n}\n',
      'benches/other.rs': 'c.bench_function("not in the target", |b| b.iter(|| 1));\n',
    });
    // One bench target: the suite builds it once (no setup) and runs criterion's --quick mode.
    expect(criterion).toMatchObject({
      tool: 'cargo',
      evidence: 'criterion in Cargo.toml',
      workload: {
        command: 'cargo bench -q --bench speed',
        format: 'criterion',
        perBenchmark: true,
      },
      suite: { fields: {}, benchmarks: 2 },
      steps: [{ uses: 'dtolnay/rust-toolchain@stable' }],
    });
    expect(criterion.setup).toBeUndefined();
    // A big suite (50 or more counted): several benchmarks to a process
    const big = await only({
      'Cargo.toml': CRITERION_TOML,
      'benches/speed.rs': `fn f(c: &mut Criterion) {\n${'  c.bench_function("a", |b| b.iter(|| 1));\n'.repeat(60)}}\n`,
    });
    expect(big.suite).toMatchObject({ fields: { granularity: 'group' }, benchmarks: 60 });
    expect(big.comments.join(' ')).toContain('granularity: group');
    // Several targets: a suite that runs cargo bench as written.
    const two = await only({
      'Cargo.toml': '[package]\nname = "x"\n[dev-dependencies.criterion]\nversion = "0.5"\n',
      'benches/a.rs': '',
      'benches/b.rs': '',
    });
    expect(two.workload.command).toMatch(/^cargo bench -q --benches -- /);
    expect(two.suite?.fields).toEqual({ build: 'never' });
    expect(two.setup).toBe('cargo bench -q --benches --no-run');
    expect(two.notes.join()).toContain('suite.build: never');
    const workspace = await only({
      'Cargo.toml': '[workspace]\nmembers = ["core"]\n',
      'core/Cargo.toml': CRITERION_TOML,
    });
    expect(workspace.workload.command).toMatch(/^cargo bench -q --workspace --benches -- /);
    expect(workspace.evidence).toBe('criterion in core/Cargo.toml');
    const libtest = await only({
      'Cargo.toml': '[package]\nname = "x"\n',
      'benches/b.rs': '#![feature(test)]\n#[bench]\nfn b(b: &mut Bencher) {}\n',
    });
    expect(libtest).toMatchObject({
      workload: { command: 'cargo bench -q --bench b', format: 'cargo', perBenchmark: true },
      suite: { fields: {}, benchmarks: 1 },
      steps: [{ uses: 'dtolnay/rust-toolchain@nightly' }],
    });
    const inSrc = await only({
      'Cargo.toml': '[package]\nname = "x"\n',
      'src/lib.rs': '#[bench]\nfn a() {}\n#[bench]\nfn b() {}\n',
    });
    expect(inSrc).toMatchObject({
      workload: { command: 'cargo bench -q' },
      suite: { fields: { build: 'never' }, benchmarks: 2 },
      setup: 'cargo bench -q --no-run',
    });
    expect(await detect({ 'Cargo.toml': '[package]\nname = "x"\n', 'src/lib.rs': '' })).toEqual([]);
  });

  it('pytest: the benchmark fixture; per benchmark only when its files hold nothing else', async () => {
    const alone = await only({
      'benchmarks/test_speed.py': 'def test_a(benchmark):\n    benchmark(len, "x")\n',
      'requirements-dev.txt': 'pytest-benchmark==5.1\n',
    });
    expect(alone).toMatchObject({
      tool: 'pytest',
      evidence: 'the benchmark fixture in benchmarks/test_speed.py',
      workload: {
        command:
          'python3 -m pytest -q -p no:cacheprovider --benchmark-only --benchmark-json=duetkit-pytest.json benchmarks/test_speed.py',
        format: 'pytest',
        output: 'duetkit-pytest.json',
        perBenchmark: true,
      },
      suite: { fields: { granularity: 'group' }, benchmarks: 1 },
    });
    expect(alone.steps[1]!.run).toContain('python -m pip install -r requirements-dev.txt');
    const mixed = await only({
      'tests/test_all.py':
        'def test_fast(benchmark):\n    benchmark(len, "x")\n\ndef test_other():\n    assert True\n',
    });
    expect(mixed.workload.perBenchmark).toBeUndefined();
    expect(mixed.suite).toBeUndefined();
    expect(mixed.notes.join('\n')).toContain('hold other tests too');
    // Declared but no test found yet: the whole suite, --benchmark-only.
    const declared = await only({
      'pyproject.toml': '[project]\ndependencies = ["pytest-benchmark"]\n',
    });
    expect(declared.evidence).toBe('pytest-benchmark in pyproject.toml');
    expect(declared.workload.command).toMatch(/--benchmark-json=duetkit-pytest\.json$/);
    // Many files: their common directory.
    const many = await only(
      Object.fromEntries(
        [1, 2, 3, 4, 5].map((i) => [`bench/sub${i}/test_${i}.py`, 'def test_x(benchmark): pass\n']),
      ),
    );
    expect(many.workload.command).toMatch(/ bench$/);
    expect(many.suite?.benchmarks).toBe(5);
  });

  it('pytest: counts the tests taking the fixture, times their written-out parametrize lists', () => {
    const text = [
      'import pytest',
      '@pytest.mark.parametrize("n", [1, 2, 3])',
      'def test_a(benchmark, n): pass',
      '@pytest.mark.parametrize(',
      '    "a,b",',
      '    [(1, 2), (3, "x,y"), (5, [6, 7])],',
      ')',
      '@pytest.mark.parametrize("c", ["p", "q"])',
      'def test_b(benchmark, a, b, c): pass',
      '@pytest.mark.parametrize("n", SIZES)',
      'def test_c(benchmark, n): pass',
      'class TestGroup:',
      '    def test_d(self, benchmark): pass',
      '    def test_plain(self): pass',
      '@pytest.mark.parametrize(argnames="n", argvalues=[1, 2])',
      'def test_e(benchmark, n): pass',
      'def helper(benchmark): pass',
    ].join('\n');
    // 3 + 3×2 + 1 (a list named by a variable) + 1 + 2
    expect(countBenchmarks(text)).toBe(13);
  });

  it('googlecpp: a CMake target linked with benchmark, else a source including benchmark.h', async () => {
    const cmake = await only({
      'CMakeLists.txt':
        'find_package(benchmark REQUIRED)\nadd_executable(perf perf.cc)\ntarget_link_libraries(perf PRIVATE benchmark::benchmark)\n',
      'perf.cc': '#include <benchmark/benchmark.h>\n',
    });
    expect(cmake).toMatchObject({
      tool: 'googlecpp',
      workload: {
        command:
          './build/duetkit/perf --benchmark_format=json --benchmark_repetitions=5 --benchmark_min_time=0.1',
        format: 'googlecpp',
        perBenchmark: true,
      },
      setup: [
        'sh',
        '-c',
        'cmake -S . -B build/duetkit -DCMAKE_BUILD_TYPE=Release && cmake --build build/duetkit --target perf',
      ],
    });
    expect(cmake.steps[0]!.run).toContain('libbenchmark-dev');
    expect(cmake.suite).toMatchObject({ fields: {}, benchmarks: 0 });
    const registered = await only({
      'CMakeLists.txt': 'add_executable(perf perf.cc)\ntarget_link_libraries(perf benchmark)\n',
      'perf.cc':
        '#include <benchmark/benchmark.h>\nBENCHMARK(A);\nBENCHMARK(B)->Arg(8);\nBENCHMARK_F(Fx, C)(benchmark::State& s) {}\nBENCHMARK_CAPTURE(D, x, 1);\nBENCHMARK_MAIN();\n',
    });
    expect(registered.suite?.benchmarks).toBe(4);
    const fetched = await only({
      'CMakeLists.txt':
        'FetchContent_Declare(googlebenchmark GIT_REPOSITORY x)\nadd_executable(perf perf.cc)\ntarget_link_libraries(perf benchmark::benchmark)\n',
    });
    expect(fetched.steps).toEqual([]);
    const bare = await only({ 'bench/speed.cpp': '#include "benchmark/benchmark.h"\n' });
    expect(bare).toMatchObject({
      setup: 'g++ -O2 -std=c++17 bench/speed.cpp -o bench/speed -lbenchmark -lpthread',
      workload: { command: expect.stringMatching(/^\.\/bench\/speed --benchmark_format=json/) },
    });
  });

  it('jmh: Maven with a fat jar, Maven without one (class path), Gradle plugin', async () => {
    const shaded = await only({
      'pom.xml': '<artifactId>jmh-core</artifactId><artifactId>maven-shade-plugin</artifactId>',
    });
    expect(shaded.workload.command).toMatch(
      /^java -Djmh\.ignoreLock=true -jar target\/benchmarks\.jar -f 1 .* -rf json -rff duetkit-jmh\.json$/,
    );
    expect(shaded.setup).toBe('mvn -B -q package -DskipTests');
    expect(shaded.suite).toEqual({
      fields: {},
      benchmarks: 0,
      counted: expect.stringContaining('@Benchmark methods'),
    });
    const counted = await only({
      'pom.xml': '<artifactId>jmh-core</artifactId>',
      'src/main/java/B.java':
        '@BenchmarkMode(Mode.AverageTime)\nclass B {\n  @Benchmark public void a() {}\n  @Benchmark\n  public void b() {}\n}\n',
    });
    expect(counted.suite?.benchmarks).toBe(2);
    const plain = await only({ 'pom.xml': '<artifactId>jmh-core</artifactId>' });
    expect(plain.workload.command).toEqual([
      'sh',
      '-c',
      expect.stringContaining('org.openjdk.jmh.Main -f 1'),
      'sh',
    ]);
    expect(plain.workload).toMatchObject({
      format: 'jmh',
      output: 'duetkit-jmh.json',
      perBenchmark: true,
    });
    const gradle = await only({
      'build.gradle.kts': 'plugins { id("me.champeau.jmh") version "0.7.2" }\n',
      gradlew: '',
    });
    expect(gradle.setup).toBe('./gradlew --no-daemon -q jmhJar');
  });

  it('node: vitest bench files, tinybench and benchmark.js scripts; the install its lock file asks for', async () => {
    const plans = await detect({
      'package.json': JSON.stringify({
        devDependencies: { vitest: '^3', tinybench: '^6', benchmark: '^2' },
        scripts: { bench: 'tsx bench/tiny.ts' },
      }),
      'pnpm-lock.yaml': '',
      'src/sum.bench.ts': '',
      'bench/tiny.ts': "import { Bench } from 'tinybench';\n",
      'bench/old.cjs': "const Benchmark = require('benchmark');\n",
    });
    expect(plans.map((p) => [p.tool, p.workload.command, p.workload.format])).toEqual([
      ['vitest', 'npx vitest bench --run --outputJson duetkit-vitest.json', 'tinybench'],
      ['tinybench', 'npm run --silent bench', 'tinybench'],
      ['benchmarkjs', 'node bench/old.cjs', 'benchmarkjs'],
    ]);
    expect(plans.every((p) => p.setup === 'pnpm install --frozen-lockfile')).toBe(true);
    expect(plans[1]!.notes.join()).toContain('does not seem to print JSON');
    expect(plans[0]!.steps).toEqual([
      { uses: 'actions/setup-node@v4', with: { 'node-version': 'lts/*' } },
      { run: 'npm install -g pnpm' },
    ]);
    // A dependency with no script using it is not a benchmark.
    expect(await detect({ 'package.json': '{"dependencies":{"benchmark":"2"}}' })).toEqual([]);
  });

  it('hyperfine: the first hyperfine line of a script, with --export-json added (or its own kept)', async () => {
    const script = await only({
      'scripts/bench.sh': "#!/bin/sh\nset -e\nhyperfine --warmup 1 \\\n  'sleep 0.01'\n",
    });
    expect(script).toMatchObject({
      tool: 'hyperfine',
      evidence: 'hyperfine in scripts/bench.sh',
      workload: {
        command: [
          'sh',
          '-c',
          "hyperfine --warmup 1 'sleep 0.01' --export-json duetkit-hyperfine.json",
        ],
        format: 'hyperfine',
        output: 'duetkit-hyperfine.json',
      },
    });
    const make = await only({
      Makefile: 'bench:\n\t@hyperfine --export-json out.json "make run"\n',
    });
    expect(make.workload).toMatchObject({
      command: ['sh', '-c', 'hyperfine --export-json out.json "make run"'],
      output: 'out.json',
    });
    const npm = await only({
      'package.json': JSON.stringify({ scripts: { perf: 'hyperfine "node a.js"' } }),
    });
    expect(npm.evidence).toBe('hyperfine in package.json (perf)');
  });

  it('finds several tools at once, and nothing in an empty project', async () => {
    const plans = await detect({
      'x_test.go': GO_BENCH,
      'test_x.py': 'def test_x(benchmark): pass\n',
    });
    expect(plans.map((p) => p.tool)).toEqual(['go', 'pytest']);
    expect(await detect({ 'README.md': '# x\n' })).toEqual([]);
  });

  it('--tool takes ids and aliases', () => {
    expect(toolNames()).toEqual([
      'go',
      'cargo',
      'pytest',
      'googlecpp',
      'jmh',
      'vitest',
      'tinybench',
      'benchmarkjs',
      'hyperfine',
      'command',
    ]);
    expect(findTool('criterion')).toMatchObject({ id: 'cargo' });
    expect(findTool('pytest-benchmark')).toMatchObject({ id: 'pytest' });
    expect(findTool('Command')).toBe('command');
    expect(findTool('nope')).toBeNull();
  });
});
