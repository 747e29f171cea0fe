import { selectBenchmarks } from '../runner/benchmark-selection.js';
import { RunError } from '../process/errors.js';
import { listBenchmarks, perBenchmarkSupport } from '../runner/list-benchmarks.js';
import { secondsSince, versionContext, type SuitePreparer } from './preparer.js';

/**
 * The suite of any format that can list its benchmarks and run one (or a chosen set) at a
 * time (pytest-benchmark, Google Benchmark, JMH, ...): nothing is built, the command runs as
 * written with the format's filter; `granularity: group` runs a stage's benchmarks in one
 * process (one interpreter start for all of them).
 */
export const listedSuite: SuitePreparer = {
  async prepare(options) {
    const { scenario, versions } = options;
    const command = scenario.workload.command;
    const started = process.hrtime.bigint();
    const support = perBenchmarkSupport(scenario);
    const lists = new Map<string, string[]>();
    for (const [i, version] of versions.entries()) {
      lists.set(version.name, await listBenchmarks(command, support, versionContext(options, i)));
    }
    const selection = selectBenchmarks(lists, options.baseline, scenario.workload.benchmarks);
    const allNames = [...new Set([...lists.values()].flat())];
    const group = scenario.suite!.granularity === 'group';
    if (group && support.filterSetArgv === undefined) {
      throw new RunError(
        `suite.granularity: group needs a format that runs several chosen benchmarks in one process (pytest); ${scenario.workload.format} runs one at a time`,
      );
    }
    return {
      units: selection.run.map((name) => ({
        name,
        argv: () => support.filterArgv(command, name, allNames),
        cwd: versions.map((v) => v.dir),
        iterations: null,
        nsPerOp: null,
      })),
      lists: Object.fromEntries(lists),
      missing: selection.missing,
      build: { kind: 'none', seconds: 0 },
      calibrationSeconds: secondsSince(started),
      repeats: false,
      startupSeconds: null,
      cleanup: [],
      group: group ? (names) => support.filterSetArgv!(command, names, allNames) : null,
    };
  },
};
