import path from 'node:path';
import { filesContaining, type ProjectFiles } from '../project.js';
import type { Detector, WorkflowStep } from '../types.js';
import { describeFiles } from './describe.js';

/** A test function taking pytest-benchmark's `benchmark` fixture. */
const USES_FIXTURE = /def\s+test\w*\s*\([^)]*\bbenchmark\b[^)]*\)/;
const TEST_FUNCTION = /def\s+test\w*\s*\(([^)]*)\)/g;
const DEPENDENCY = /pytest[-_]benchmark/i;
const DEPENDENCY_FILES =
  /^(requirements[^/]*\.(txt|in)|[^/]*requirements[^/]*\.txt|requirements\/[^/]+\.(txt|in)|pyproject\.toml|setup\.cfg|setup\.py|Pipfile|tox\.ini|environment\.ya?ml)$/;
/** Requirement files the workflow installs, when they exist. */
const REQUIREMENTS =
  /^(requirements[^/]*\.txt|[^/]*requirements[^/]*\.txt|requirements\/[^/]+\.txt)$/;
const OUTPUT = 'duetkit-pytest.json';

/**
 * pytest-benchmark: tests taking the `benchmark` fixture, or pytest-benchmark among the
 * dependencies. Its `--benchmark-json` file is read with every round. When the files that hold
 * benchmarks hold nothing else, each benchmark runs alone in both versions (per-benchmark
 * duet); otherwise the suite runs whole with `--benchmark-only`, which skips the other tests.
 */
export const pytestDetector: Detector = {
  id: 'pytest',
  aliases: ['pytest-benchmark', 'python'],
  lookedFor: 'pytest: tests taking the benchmark fixture, or pytest-benchmark in the dependencies',
  async detect(project) {
    const benchFiles = await filesContaining(project, project.matching(/\.py$/), USES_FIXTURE);
    const declared = await filesContaining(project, project.matching(DEPENDENCY_FILES), DEPENDENCY);
    if (benchFiles.length === 0 && declared.length === 0) return null;
    const files = benchFiles.map((f) => f.file);
    const targets = testTargets(files);
    // --collect-only lists every test of the targets: only benchmarks may be among them.
    const onlyBenchmarks =
      files.length > 0 &&
      benchFiles.every(({ text }) =>
        [...text.matchAll(TEST_FUNCTION)].every((m) => /\bbenchmark\b/.test(m[1]!)),
      );
    const evidence =
      files.length > 0
        ? `the benchmark fixture in ${describeFiles(files)}`
        : `pytest-benchmark in ${describeFiles(declared.map((d) => d.file))}`;
    return {
      tool: 'pytest',
      evidence,
      workload: {
        command: [
          'python3 -m pytest -q -p no:cacheprovider --benchmark-only',
          `--benchmark-json=${OUTPUT}`,
          ...targets,
        ].join(' '),
        format: 'pytest',
        output: OUTPUT,
        ...(onlyBenchmarks ? { perBenchmark: true } : {}),
      },
      // one interpreter start per stage for all its benchmarks: docs/suites.md, granularity
      ...(onlyBenchmarks
        ? {
            suite: {
              fields: { granularity: 'group' as const },
              benchmarks: benchFiles.reduce((n, f) => n + countBenchmarks(f.text), 0),
              counted:
                'tests taking the benchmark fixture, times their parametrize lists, an estimate',
            },
          }
        : {}),
      timeout: '5m',
      steps: pythonSteps(project),
      comments: [
        ...(onlyBenchmarks
          ? [
              'A suite (below): each stage runs its benchmarks in one pytest process in both versions',
              '(granularity: group: one interpreter start for all), each benchmark judged alone;',
            ]
          : [
              'The benchmark files hold other tests too, so the suite runs whole (--benchmark-only);',
            ]),
        `every round pytest-benchmark times is read from ${OUTPUT}.`,
      ],
      notes: onlyBenchmarks
        ? []
        : [
            'pytest: the files with benchmarks hold other tests too, so each run is the whole suite; move the benchmarks into files of their own and set workload.perBenchmark: true to pair benchmark with benchmark',
          ],
    };
  },
};

/**
 * The benchmarks of a file: each test taking the fixture, times the values of each
 * `@pytest.mark.parametrize(names, [...])` right above it whose list is written out (a list
 * named by a variable counts once).
 */
export function countBenchmarks(text: string): number {
  let total = 0;
  let factor = 1;
  let offset = 0;
  for (const line of text.split('\n')) {
    const at = offset;
    offset += line.length + 1;
    const trimmed = line.trim();
    if (/^@pytest\.mark\.parametrize\s*\(/.test(trimmed)) {
      factor *= parametrizeCount(text, at);
    } else if (/^(async\s+)?(def|class)\s/.test(trimmed)) {
      const m = /^(?:async\s+)?def\s+test\w*\s*\(([^)]*)\)/.exec(trimmed);
      if (m !== null && /\bbenchmark\b/.test(m[1]!)) total += factor;
      factor = 1;
    }
  }
  return total;
}

/** Values of the parametrize call starting at `at`: the top-level items of its list argument. */
function parametrizeCount(text: string, at: number): number {
  const open = text.indexOf('(', at);
  let depth = 0;
  let items = 0;
  let inList = false;
  let listDepth = 0;
  let sawItem = false;
  let quote: string | null = null;
  let commas = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i]!;
    if (quote !== null) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
      if (inList && depth === listDepth) sawItem = true;
      continue;
    }
    if (c === '"' || c === "'") {
      quote = c;
      if (inList && depth === listDepth) sawItem = true;
      continue;
    }
    if (c === '(' || c === '[' || c === '{') {
      depth++;
      if (!inList && depth === 2 && commas === 1 && (c === '[' || c === '(')) {
        inList = true;
        listDepth = depth;
        continue;
      }
    } else if (c === ')' || c === ']' || c === '}') {
      if (inList && depth === listDepth) return items + (sawItem ? 1 : 0) || 1;
      depth--;
      if (depth === 0) return 1;
    } else if (c === ',') {
      if (depth === 1) commas++;
      else if (inList && depth === listDepth) {
        if (sawItem) items++;
        sawItem = false;
      }
    } else if (inList && depth === listDepth && !/\s/.test(c)) {
      sawItem = true;
    }
    if (inList && depth > listDepth) sawItem = true;
  }
  return 1;
}

/** The files to collect: each file, or their common directory when there are many. */
function testTargets(files: readonly string[]): string[] {
  if (files.length === 0) return [];
  if (files.length <= 4) return [...files];
  const dirs = files.map((f) => path.posix.dirname(f));
  let common = dirs[0]!;
  while (common !== '.' && !dirs.every((d) => d === common || d.startsWith(`${common}/`))) {
    common = path.posix.dirname(common);
  }
  return common === '.' ? [] : [common];
}

function pythonSteps(project: ProjectFiles): WorkflowStep[] {
  const versionFile = project.files.includes('.python-version');
  const requirements = project.matching(REQUIREMENTS);
  const install = [
    'python -m pip install --upgrade pip',
    ...requirements.map((r) => `python -m pip install -r ${r}`),
    'python -m pip install pytest pytest-benchmark',
  ];
  return [
    {
      uses: 'actions/setup-python@v5',
      with: versionFile
        ? { 'python-version-file': '.python-version' }
        : { 'python-version': '3.x' },
    },
    {
      name: 'Install the benchmark dependencies (not the project: each version imports its own checkout)',
      run: install.join('\n'),
    },
  ];
}
