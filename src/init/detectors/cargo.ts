import path from 'node:path';
import { filesContaining, type ProjectFiles } from '../project.js';
import type { Detector, ToolPlan } from '../types.js';
import { describeFiles } from './describe.js';

const CRITERION_DEP = /^\s*criterion\s*=|^\s*\[(?:workspace\.)?(?:dev-)?dependencies\.criterion\]/m;
const LIBTEST_BENCH = /#\[bench\]/;

/**
 * `cargo bench`: criterion.rs (a `criterion` dependency in a Cargo.toml of the project), read
 * from criterion's own files with every sample; else libtest's `#[bench]` (nightly Rust),
 * read from its `bench:` lines. One benchmark at a time in both versions (`--exact NAME`).
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
    if (libtest.length > 0) return libtestPlan(libtest.map((c) => c.file));
    return null;
  },
};

/** `--bench NAME` when the root package has exactly one bench target, else `--benches`. */
async function benchTargets(project: ProjectFiles): Promise<string> {
  const manifest = (await project.read('Cargo.toml')) ?? '';
  const declared = [...manifest.matchAll(/\[\[bench\]\][^[]*?\bname\s*=\s*"([^"]+)"/g)].map(
    (m) => m[1]!,
  );
  const files = project.matching(/^benches\/[^/]+\.rs$/).map((f) => path.basename(f, '.rs'));
  const names = new Set(declared.length > 0 ? declared : files);
  const isWorkspace = /^\s*\[workspace\]/m.test(manifest) && !/^\s*\[package\]/m.test(manifest);
  if (isWorkspace) return '--workspace --benches';
  return names.size === 1 ? `--bench ${[...names][0]}` : '--benches';
}

async function criterionPlan(project: ProjectFiles, manifests: string[]): Promise<ToolPlan> {
  const targets = await benchTargets(project);
  return {
    tool: 'cargo',
    evidence: `criterion in ${describeFiles(manifests)}`,
    workload: {
      command: `cargo bench -q ${targets} -- --noplot --warm-up-time 0.5 --measurement-time 1`,
      format: 'criterion',
      perBenchmark: true,
    },
    setup: `cargo bench -q ${targets} --no-run`,
    timeout: '2m',
    steps: [rustToolchain('stable')],
    comments: [
      'criterion runs one benchmark at a time in both versions (perBenchmark); every sample it',
      'takes is read from target/criterion. Short warm-up and measurement times: the duet',
      'repeats the run instead.',
    ],
    notes: [],
  };
}

function libtestPlan(files: string[]): ToolPlan {
  return {
    tool: 'cargo',
    evidence: `#[bench] in ${describeFiles(files)} (libtest, nightly Rust)`,
    workload: { command: 'cargo bench -q', format: 'cargo', perBenchmark: true },
    setup: 'cargo bench -q --no-run',
    timeout: '2m',
    steps: [rustToolchain('nightly')],
    comments: [
      "libtest's #[bench] needs nightly Rust; each run reports one ns/iter per benchmark.",
    ],
    notes: [
      '#[bench] needs nightly Rust: the workflow installs it; locally use rustup default nightly.',
    ],
  };
}

function rustToolchain(channel: 'stable' | 'nightly'): ToolPlan['steps'][number] {
  return { uses: `dtolnay/rust-toolchain@${channel}` };
}
