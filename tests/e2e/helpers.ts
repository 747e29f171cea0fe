import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { analyzeSamples } from '../../src/analyze/analyze.js';
import { describeReport } from '../../src/report/terminal.js';
import type { ComparisonReport } from '../../src/contracts/comparison.js';
import { runScenario } from '../../src/pipeline/local-run.js';
import { writeSamples } from '../../src/pipeline/write-samples.js';
import type { SamplesFile } from '../../src/contracts/samples.js';
import { loadScenarioFile } from '../../src/scenario/load.js';

/**
 * Shared by the end-to-end format tests: each runs a real benchmark tool on the small program
 * in tests/programs/<lang>, base against a head made about twice as slow by DUETKIT_SLOW=1,
 * through what `duetkit run` does (runScenario, analyzeSamples, describeReport). A missing toolchain fails the test (never skips it) and says how to
 * install it. Reports are kept under .duetkit/e2e/<name>/ for a look afterwards.
 */
export const REPO = process.cwd();
export const PROGRAMS = path.join(REPO, 'tests', 'programs');
const SETUP_HINT =
  'run `npm run setup` (bash .ci/setup.sh: it installs every tool these tests use; `npm run test:all` runs it first)';

/** Fails with what is missing and how to get it unless `argv` runs and exits 0. */
export function requireTool(argv: readonly string[], what: string): void {
  const result = spawnSync(argv[0]!, argv.slice(1), { encoding: 'utf8' });
  if (result.error !== undefined || result.status !== 0) {
    const why = result.error?.message ?? `exit code ${result.status}: ${result.stderr.trim()}`;
    throw new Error(`${what} is missing here (\`${argv.join(' ')}\`: ${why}); ${SETUP_HINT}`);
  }
}

/** Fails unless a file built by .ci/setup-formats.sh exists. */
export function requireFile(file: string, what: string): void {
  if (!existsSync(file)) throw new Error(`${what} is missing (${file}); ${SETUP_HINT}`);
}

/** The pytest-benchmark venv made by .ci/setup-formats.sh (or DUETKIT_E2E_PYTHON). */
export function pythonWithPytestBenchmark(): string {
  const python =
    process.env.DUETKIT_E2E_PYTHON ?? path.join(REPO, '.venv', 'formats', 'bin', 'python');
  requireTool([python, '-c', 'import pytest_benchmark'], 'Python with pytest-benchmark');
  return python;
}

/** A temporary directory per version holding copies of the given program files. */
export async function versionDirs(
  files: readonly string[],
  from: string,
): Promise<{ root: string; base: string; head: string }> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'duetkit-e2e-'));
  for (const side of ['base', 'head']) {
    await mkdir(path.join(root, side));
    for (const file of files) await cp(path.join(from, file), path.join(root, side, file));
  }
  return { root, base: path.join(root, 'base'), head: path.join(root, 'head') };
}

export function removeDir(dir: string): Promise<void> {
  return rm(dir, { recursive: true, force: true });
}

export interface E2eResult {
  /** The readable report, as `duetkit run` prints it. */
  out: string;
  report: ComparisonReport;
  samples: SamplesFile;
  /** The verdict of `benchmark` (head vs base), or an error naming what was reported. */
  verdict(benchmark: string): string;
}

/** Runs a scenario (YAML text) and analyses it; files kept under .duetkit/e2e/<name>/. */
export async function runE2e(name: string, scenario: string): Promise<E2eResult> {
  const out = path.join(REPO, '.duetkit', 'e2e', name);
  await rm(out, { recursive: true, force: true });
  await mkdir(out, { recursive: true });
  await writeFile(path.join(out, 'scenario.yml'), scenario);
  const loaded = await loadScenarioFile('scenario.yml', out);
  const samples = await runScenario(loaded, {
    signal: new AbortController().signal,
    env: process.env,
  });
  await writeSamples(path.join(out, 'samples.json'), samples);
  if (!samples.complete) throw new Error(`the run failed: ${samples.error}`);
  const report = analyzeSamples(samples);
  const text = describeReport(report);
  await writeFile(path.join(out, 'comparison.json'), JSON.stringify(report, null, 2));
  await writeFile(path.join(out, 'report.txt'), text);
  const find = (benchmark: string) => {
    const result = report.results.find((r) => r.benchmark === benchmark && r.version === 'head');
    if (result === undefined) {
      const names = report.results.map((r) => r.benchmark).join(', ');
      throw new Error(`no result for "${benchmark}"; the report has: ${names}\n${text}`);
    }
    return result;
  };
  return {
    out: text,
    report,
    samples,
    verdict: (benchmark) =>
      find(benchmark).comparison?.verdict ?? `error: ${find(benchmark).error}`,
  };
}
