import full from './jest.config.js';

/**
 * The test files the unit tier (`npm test`) leaves to the full tier (`npm run test:all`, which
 * runs every file after `.ci/setup.sh`), each for what it needs. The unit tier runs on a fresh
 * clone with nothing but `npm ci`: no root, no tool set-up, no network but the npm registry,
 * and no test that spends its time waiting on real runs. Paths are relative to the root;
 * tests/tiers.test.ts checks that each still names a test file.
 */
export const FULL_TIER_ONLY = {
  // act, actionlint and the bundled action (esbuild, then the action's own runs).
  'the workflows under act, actionlint, the bundle': [
    'tests/action/act-check-dist.test.ts',
    'tests/action/act-e2e.test.ts',
    'tests/action/act-history.test.ts',
    'tests/action/act-nightly-bisect.test.ts',
    'tests/action/act-nightly.test.ts',
    'tests/action/act.test.ts',
    'tests/action/actionlint.test.ts',
    'tests/action/bundle.test.ts',
    'tests/action/cleanup.test.ts',
  ],
  // Debian's Chromium (.ci/setup-browser.sh) and python3's http.server.
  'the dashboard in Chromium': ['tests/dashboard/', 'tests/explain/flame-graph-browser.test.ts'],
  // Benchmark tools and toolchains: Go, cargo, g++/cmake, Java/Maven, pytest, hyperfine, k6;
  // the profilers (perf, py-spy, Go's pprof, Node's) on real programs.
  'benchmark tools and toolchains': [
    'tests/e2e/',
    'tests/init/e2e-',
    'tests/runner/stream-k6.test.ts',
    'tests/profile/routes.test.ts',
    'tests/profile/stage.test.ts',
  ],
  // etcd, the Kubernetes control plane, containerd, kind, moto and cfn-lint (.ci/setup-k8s.sh), root.
  'Kubernetes and AWS stand-ins': [
    'tests/cluster/real-cluster.test.ts',
    'tests/cluster/kind.test.ts',
    'tests/cluster/eks-moto.test.ts',
    'tests/cluster/docs.test.ts',
  ],
  // The runner-like VM (.ci/setup-vm.sh: QEMU, a Debian guest with systemd and cgroup v2):
  // one boot of about two minutes under TCG.
  'a runner-like VM': ['tests/vm/'],
  // cgroups (root, or sudo), and the CPU sets of real duets.
  'cgroups and root': [
    'tests/isolation/cgroup-v1.test.ts',
    'tests/isolation/cgroup-v2.test.ts',
    'tests/isolation/choose.test.ts',
    'tests/runner/duet.test.ts',
    'tests/calibrate/duet-diagnosis.test.ts',
    'tests/cli/interrupt.test.ts',
  ],
  // Real runs that measure or wait for seconds each (the timer, servers under load, calibration).
  'long real runs': [
    'tests/calibrate/accuracy-smoke.test.ts',
    'tests/calibrate/fidelity-smoke.test.ts',
    'tests/runner/timer.test.ts',
    'tests/runner/timer-rss.test.ts',
    'tests/runner/http.test.ts',
    // a duet that must call a 20 ms slowdown a regression: without cpusets (no root) on a
    // loaded machine its 8 pairs can leave it inconclusive
    'tests/cli/compare.test.ts',
    // duetkit bisect on real repositories: a dozen real duets and builds (about 10 s)
    'tests/cli/bisect.test.ts',
    // the CPU share the noise generator takes, measured from /proc: wrong on a loaded machine
    'tests/noise/noise.test.ts',
    'tests/workload/kernel.test.ts',
    'tests/calibrate/calibrate.test.ts',
  ],
  // In-process, but each takes over ~10 s of CPU on a 2-core machine (simulations, many
  // bootstraps, real git histories, whole CLI runs); measured with jest --json.
  'long computations': [
    'tests/stats/coverage.test.ts',
    'tests/stats/rng.test.ts',
    'tests/parallel/compare-parallel.test.ts',
    'tests/stats/bootstrap.test.ts',
    'tests/stats/e-divisive.test.ts',
    'tests/stats/ks.test.ts',
    'tests/stats/one-sample-bootstrap.test.ts',
    'tests/history/read.test.ts',
    'tests/history/publish.test.ts',
    'tests/formats/gab.test.ts',
    'tests/variability/analyze.test.ts',
    'tests/variability/alert.test.ts',
    'tests/readme.test.ts',
    'tests/init/written-files.test.ts',
    'tests/init/init.test.ts',
    'tests/stats/sequential.test.ts',
    // GitHub's OpenAPI description, loaded and compiled for the fake API
    'tests/github/upsert-comment.test.ts',
  ],
  // Real git repositories (histories pushed and read back) and real pipes: many processes each.
  'many git and shell processes': [
    'tests/cli/history.test.ts',
    'tests/action/history-step.test.ts',
    'tests/action/variability-step.test.ts',
    // the nightly's bisect: true, with real duets on a real repository
    'tests/action/variability-bisect.test.ts',
    'tests/variability/cli.test.ts',
    'tests/cluster/transfer.test.ts',
  ],
};

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** @type {import('jest').Config} */
export default {
  ...full,
  // Both cores: on a 2-core machine jest would otherwise use one worker.
  maxWorkers: 2,
  testPathIgnorePatterns: [
    '/node_modules/',
    ...Object.values(FULL_TIER_ONLY)
      .flat()
      .map((p) => `<rootDir>/${escape(p)}`),
  ],
};
