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
  it('go: func Benchmark in a _test.go file; ./... when they are in packages below', async () => {
    const root = await only({ 'go.mod': 'module x\n', 'x_test.go': GO_BENCH });
    expect(root).toMatchObject({
      tool: 'go',
      evidence: '1 func Benchmark… in x_test.go',
      workload: {
        command: "go test -run '^$' -bench . -benchtime 100ms -count 5 .",
        format: 'go',
        perBenchmark: true,
      },
      steps: [{ uses: 'actions/setup-go@v5', with: { 'go-version-file': 'go.mod' } }],
    });
    const nested = await only({ 'go.mod': 'module x\n', 'pkg/a/a_test.go': GO_BENCH });
    expect(nested.workload.command).toMatch(/ \.\/\.\.\.$/);
    // Tests without benchmarks, and benchmarks in vendored code, are not the user's benchmarks.
    expect(
      await detect({
        'x_test.go': 'package x\nfunc TestA(t *testing.T) {}\n',
        'vendor/y/y_test.go': GO_BENCH,
        'node_modules/z/z_test.go': GO_BENCH,
      }),
    ).toEqual([]);
  });

  it('cargo: criterion in Cargo.toml (criterion format, --bench NAME), else #[bench] (nightly)', async () => {
    const criterion = await only({ 'Cargo.toml': CRITERION_TOML, 'benches/speed.rs': '' });
    expect(criterion).toMatchObject({
      tool: 'cargo',
      evidence: 'criterion in Cargo.toml',
      workload: {
        command: 'cargo bench -q --bench speed -- --noplot --warm-up-time 0.5 --measurement-time 1',
        format: 'criterion',
        perBenchmark: true,
      },
      setup: 'cargo bench -q --bench speed --no-run',
      steps: [{ uses: 'dtolnay/rust-toolchain@stable' }],
    });
    const two = await only({
      'Cargo.toml': '[package]\nname = "x"\n[dev-dependencies.criterion]\nversion = "0.5"\n',
      'benches/a.rs': '',
      'benches/b.rs': '',
    });
    expect(two.workload.command).toMatch(/^cargo bench -q --benches -- /);
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
      workload: { command: 'cargo bench -q', format: 'cargo', perBenchmark: true },
      steps: [{ uses: 'dtolnay/rust-toolchain@nightly' }],
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
    });
    expect(alone.steps[1]!.run).toContain('python -m pip install -r requirements-dev.txt');
    const mixed = await only({
      'tests/test_all.py':
        'def test_fast(benchmark):\n    benchmark(len, "x")\n\ndef test_other():\n    assert True\n',
    });
    expect(mixed.workload.perBenchmark).toBeUndefined();
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
