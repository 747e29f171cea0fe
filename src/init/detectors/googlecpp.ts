import path from 'node:path';
import { filesContaining } from '../project.js';
import type { Detector, ToolPlan } from '../types.js';
import { describeFiles } from './describe.js';

const INCLUDE = /#\s*include\s*[<"]benchmark\/benchmark\.h[>"]/;
const LINKED =
  /target_link_libraries\s*\(\s*([\w.+-]+)[^)]*\bbenchmark(?:::benchmark(?:_main)?)?\b/;
const VENDORED =
  /FetchContent_Declare\s*\(\s*(?:google)?benchmark\b|add_subdirectory\s*\([^)]*benchmark/i;
/** A registration: BENCHMARK(f), BENCHMARK_F(...), BENCHMARK_CAPTURE(...), BENCHMARK_REGISTER_F(...). */
const REGISTRATION = /^\s*BENCHMARK(?:_F|_TEMPLATE\d?|_TEMPLATE_F|_CAPTURE|_REGISTER_F)?\s*\(/gm;
const BUILD_DIR = 'build/duetkit';
const RUN_FLAGS = '--benchmark_format=json --benchmark_repetitions=5 --benchmark_min_time=0.1';

/**
 * Google Benchmark: a CMake target linked with `benchmark::benchmark`, else a source file that
 * includes `benchmark/benchmark.h`, compiled with the system's libbenchmark. Its JSON report
 * is read with every repetition; one benchmark at a time in both versions (`--benchmark_filter`).
 */
export const googlecppDetector: Detector = {
  id: 'googlecpp',
  aliases: ['google-benchmark', 'gbench', 'benchmark-cpp', 'cpp'],
  lookedFor:
    'googlecpp: a CMake target linked with benchmark::benchmark, or #include <benchmark/benchmark.h>',
  async detect(project) {
    const cmakeFiles = project.matching(/(^|\/)CMakeLists\.txt$/);
    const linked = await filesContaining(project, cmakeFiles, LINKED);
    const sources = project.matching(/\.(cc|cpp|cxx|c\+\+)$/);
    const including = await filesContaining(project, sources, INCLUDE);
    // A CMake build is driven from the project's own CMakeLists.txt.
    if (linked.length > 0 && project.files.includes('CMakeLists.txt')) {
      const { file, text } = linked[0]!;
      const target = LINKED.exec(text)![1]!;
      const dir = path.posix.dirname(file);
      const binary = `${BUILD_DIR}/${dir === '.' ? '' : `${dir}/`}${target}`;
      const allCMake = (await Promise.all(cmakeFiles.map((f) => project.read(f)))).join('\n');
      return plan({
        evidence: `the CMake target ${target} linked with benchmark in ${file}`,
        setup: [
          'sh',
          '-c',
          `cmake -S . -B ${BUILD_DIR} -DCMAKE_BUILD_TYPE=Release && cmake --build ${BUILD_DIR} --target ${target}`,
        ],
        binary,
        systemLibrary: !VENDORED.test(allCMake),
        benchmarks: registrations(including),
      });
    }
    if (including.length === 0) return null;
    const source = including[0]!.file;
    const binary = path.posix.join(
      path.posix.dirname(source),
      path.posix.basename(source).replace(/\.[^.]+$/, ''),
    );
    return plan({
      evidence: `#include <benchmark/benchmark.h> in ${describeFiles(including.map((f) => f.file))}`,
      setup: `g++ -O2 -std=c++17 ${source} -o ${binary} -lbenchmark -lpthread`,
      binary,
      systemLibrary: true,
      benchmarks: registrations(including.slice(0, 1)),
      notes:
        including.length > 1
          ? [
              `googlecpp: ${including.length} sources include benchmark.h; the scenario builds ${source} alone`,
            ]
          : [],
    });
  },
};

/** BENCHMARK registrations in the sources that include benchmark.h (their whole text). */
function registrations(sources: readonly { text: string }[]): number {
  return sources.reduce((n, s) => n + (s.text.match(REGISTRATION)?.length ?? 0), 0);
}

function plan(options: {
  evidence: string;
  setup: ToolPlan['setup'];
  binary: string;
  systemLibrary: boolean;
  benchmarks: number;
  notes?: string[];
}): ToolPlan {
  const binary = `./${options.binary}`;
  return {
    tool: 'googlecpp',
    evidence: options.evidence,
    workload: { command: `${binary} ${RUN_FLAGS}`, format: 'googlecpp', perBenchmark: true },
    suite: {
      fields: {},
      benchmarks: options.benchmarks,
      counted: 'BENCHMARK registrations, an estimate (->Args and ranges add more)',
    },
    setup: options.setup,
    timeout: '2m',
    steps: options.systemLibrary
      ? [
          {
            name: 'Install Google Benchmark',
            run: 'sudo apt-get update && sudo apt-get install -y libbenchmark-dev',
          },
        ]
      : [],
    comments: [
      'A suite (below): each benchmark runs alone in both versions at once, every benchmark',
      'first screened, then the budget goes where the doubt is; every repetition is one sample.',
    ],
    notes: options.notes ?? [],
  };
}
