import path from 'node:path';
import { filesContaining, type ProjectFiles } from '../project.js';
import type { Detector, ToolPlan } from '../types.js';
import { describeFiles } from './describe.js';

const CRITERION_DEP = /^\s*criterion\s*=|^\s*\[(?:workspace\.)?(?:dev-)?dependencies\.criterion\]/m;
const LIBTEST_BENCH = /#\[bench\]/;

/**
 * `cargo bench`: criterion.rs (a `criterion` dependency in a Cargo.toml of the project), read
 * from criterion's own files with every sample; else libtest's `#[bench]` (nightly Rust),
 * read from its `bench:` lines. A suite (docs/suites.md): one bench target is built once and
 * each benchmark run alone in both versions; several targets run as written (`build: never`).
 */
export const cargoDetector: Detector = {
  id: 'cargo',
  aliases: ['criterion', 'rust', 'cargo-bench'],
  lookedFor:
    'cargo: a Cargo.toml with criterion among its dependencies, or #[bench] functions (nightly libtest)',
  async detect(project) {
    if (!project.files.includes('Cargo.toml')) return null;
    const manifests = project.matching(/(^|\/)Cargo\.toml$/);
    const criterion = await filesContaining(project, manifests, CRITERION_DEP);
    if (criterion.length > 0) {
      return criterionPlan(
        project,
        criterion.map((c) => c.file),
      );
    }
    const rust = project.matching(/^(benches|src)\/.*\.rs$|\/(benches|src)\/.*\.rs$/);
    const libtest = await filesContaining(project, rust, LIBTEST_BENCH);
    if (libtest.length > 0)
      return libtestPlan(
        project,
        libtest.map((c) => c.file),
      );
    return null;
  },
};

/** The bench targets of the root package, or `workspace` in a virtual workspace. */
async function benchTargets(project: ProjectFiles): Promise<string[] | 'workspace'> {
  const manifest = (await project.read('Cargo.toml')) ?? '';
  const declared = [...manifest.matchAll(/\[\[bench\]\][^[]*?\bname\s*=\s*"([^"]+)"/g)].map(
    (m) => m[1]!,
  );
  const files = project.matching(/^benches\/[^/]+\.rs$/).map((f) => path.basename(f, '.rs'));
  const isWorkspace = /^\s*\[workspace\]/m.test(manifest) && !/^\s*\[package\]/m.test(manifest);
  if (isWorkspace) return 'workspace';
  return [...new Set(declared.length > 0 ? declared : files)];
}

/** `--bench NAME` for one target, else `--benches` (`--workspace --benches`). */
function targetOption(targets: string[] | 'workspace'): string {
  if (targets === 'workspace') return '--workspace --benches';
  return targets.length === 1 ? `--bench ${targets[0]}` : '--benches';
}

/** Calls matching `pattern` in the target's source (benches/NAME.rs), else in every `.rs` file. */
async function countCalls(
  project: ProjectFiles,
  targets: string[] | 'workspace',
  pattern: RegExp,
): Promise<number> {
  const own = targets !== 'workspace' && targets.length === 1 ? `benches/${targets[0]}.rs` : null;
  const files = own !== null && project.files.includes(own) ? [own] : project.matching(/\.rs$/);
  let n = 0;
  for (const file of files) n += (await project.read(file))?.match(pattern)?.length ?? 0;
  return n;
}

/**
 * From this many counted criterion benchmarks a suite runs them several to a process: one
 * process each cannot screen a 131-benchmark suite in 2 minutes (itertools: 97 left
 * unmeasured, a third of each process the binary's start-up), a chunk of them can (all 131).
 */
const GROUP_FROM = 50;

/** One bench target builds once (suite.build: auto); several run as written (build: never). */
function runAsWritten(why: string): string {
  return `cargo: a prebuilt bench is one bench target and ${why}, so the suite runs cargo bench as written (suite.build: never); to build once, name one target with --bench NAME in the command and drop build: never`;
}

async function criterionPlan(project: ProjectFiles, manifests: string[]): Promise<ToolPlan> {
  const targets = await benchTargets(project);
  const option = targetOption(targets);
  const one = option.startsWith('--bench ');
  const benchmarks = await countCalls(project, targets, /\.bench_(?:function|with_input)\s*\(/g);
  // a big suite runs its benchmarks several to a process: one start-up of the bench binary
  // for a chunk of them (docs/suites.md, granularity)
  const grouped = one && benchmarks >= GROUP_FROM;
  const suite = {
    fields: one ? (grouped ? { granularity: 'group' as const } : {}) : { build: 'never' as const },
    benchmarks,
    counted: 'bench_function and bench_with_input calls, an estimate',
  };
  return {
    tool: 'cargo',
    evidence: `criterion in ${describeFiles(manifests)}`,
    workload: one
      ? { command: `cargo bench -q ${option}`, format: 'criterion', perBenchmark: true }
      : {
          command: `cargo bench -q ${option} -- --noplot --warm-up-time 0.5 --measurement-time 1`,
          format: 'criterion',
          perBenchmark: true,
        },
    suite,
    ...(one ? {} : { setup: `cargo bench -q ${option} --no-run` }),
    timeout: '2m',
    steps: [rustToolchain('stable')],
    comments: grouped
      ? [
          "A suite (below): each version's bench target is built once (cargo bench --no-run),",
          'then its benchmarks run several to a process (granularity: group: one start-up of the',
          "bench binary for each chunk), each with criterion's shortest sample list, each judged",
          'alone; every sample it takes is read from target/criterion.',
        ]
      : one
        ? [
            "A suite (below): each version's bench target is built once (cargo bench --no-run),",
            "then each benchmark runs alone in both versions at once in criterion's --quick mode;",
            'every sample it takes is read from target/criterion.',
          ]
        : [
            'criterion runs one benchmark at a time in both versions (perBenchmark); every sample it',
            'takes is read from target/criterion. Short warm-up and measurement times: the duet',
            'repeats the run instead.',
          ],
    notes: one ? [] : [runAsWritten('this project has several')],
  };
}

async function libtestPlan(project: ProjectFiles, files: string[]): Promise<ToolPlan> {
  const targets = await benchTargets(project);
  // #[bench] in src/ is the library's test harness, not a bench target the suite can build
  const one =
    targets !== 'workspace' && targets.length === 1 && files.every((f) => f.startsWith('benches/'));
  const command = one ? `cargo bench -q --bench ${(targets as string[])[0]}` : 'cargo bench -q';
  return {
    tool: 'cargo',
    evidence: `#[bench] in ${describeFiles(files)} (libtest, nightly Rust)`,
    workload: { command, format: 'cargo', perBenchmark: true },
    suite: {
      fields: one ? {} : { build: 'never' },
      benchmarks: await countCalls(project, targets, /#\[bench\]/g),
      counted: '#[bench] functions',
    },
    ...(one ? {} : { setup: 'cargo bench -q --no-run' }),
    timeout: '2m',
    steps: [rustToolchain('nightly')],
    comments: [
      "libtest's #[bench] needs nightly Rust; each run reports one ns/iter per benchmark.",
    ],
    notes: [
      '#[bench] needs nightly Rust: the workflow installs it; locally use rustup default nightly.',
      ...(one ? [] : [runAsWritten('these #[bench] functions are in several targets or in src/')]),
    ],
  };
}

function rustToolchain(channel: 'stable' | 'nightly'): ToolPlan['steps'][number] {
  return { uses: `dtolnay/rust-toolchain@${channel}` };
}
