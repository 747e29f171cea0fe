import type { AnalysisSpec } from '../scenario/schema.js';
import type { SamplesFile } from '../runner/samples.js';
import { getMode } from '../runner/modes/registry.js';
import { compare } from '../stats/compare.js';
import { adjustFamily } from '../stats/family.js';
import { NotComparableError } from '../stats/ratio.js';
import type { Comparison } from '../stats/types.js';
import { comparisonInput } from './blocks.js';
import {
  COMPARISON_REPORT_SCHEMA_VERSION,
  type AnalysisSettings,
  type BenchmarkResult,
  type ComparisonReport,
  type ReportSummary,
} from './report.js';
import { collectSeries } from './series.js';

/** Settings that may be changed when re-analysing (`duetkit analyze --level ...`). */
export type AnalysisOverrides = Partial<Omit<AnalysisSettings, 'baseline'>> & { baseline?: string };

/**
 * Samples → comparisons: every benchmark of every version against the baseline, paired by
 * round for duet and RMIT, unpaired for the weaker designs; then the whole run is one family
 * for the multiple-comparison adjustment. A benchmark whose values form no ratio (a base of
 * 0...) is `notComparable`, one that cannot be compared for any other reason (too few values,
 * not run) an `error`. Pure apart from the seeded bootstrap.
 */
export function analyzeSamples(
  samples: SamplesFile,
  overrides: AnalysisOverrides = {},
): ComparisonReport {
  const settings = resolveSettings(samples, overrides);
  const paired = getMode(samples.mode).paired;
  const baseIndex = samples.versions.findIndex((v) => v.name === settings.baseline);
  if (baseIndex < 0) {
    const names = samples.versions.map((v) => v.name).join(', ');
    throw new RangeError(
      `baseline "${settings.baseline}" is not a version of this run; accepted: ${names}`,
    );
  }
  const results: BenchmarkResult[] = [];
  for (const series of collectSeries(samples)) {
    samples.versions.forEach((version, headIndex) => {
      if (headIndex === baseIndex) return;
      const entry: BenchmarkResult = {
        benchmark: series.name,
        unit: series.unit,
        biggerIsBetter: series.biggerIsBetter,
        valueKind: series.valueKind,
        baseline: settings.baseline,
        version: version.name,
        comparison: null,
        notComparable: null,
        error: null,
      };
      try {
        const input = comparisonInput(series, baseIndex, headIndex, paired);
        entry.comparison = compare(input.base, input.head, {
          paired,
          level: settings.level,
          resamples: settings.resamples,
          seed: settings.seed,
          method: settings.method,
          threshold: settings.threshold,
          biggerIsBetter: series.biggerIsBetter,
          blockLength: settings.blockLength,
          ...(settings.statistic === null ? {} : { statistic: settings.statistic }),
        });
      } catch (error) {
        if (error instanceof NotComparableError) entry.notComparable = error.notComparable;
        else entry.error = explain(error as Error, samples.mode);
      }
      results.push(entry);
    });
  }
  results.push(...unlisted(samples, baseIndex, settings.baseline));
  adjust(results, settings);
  const summary: ReportSummary = {
    regression: 0,
    improvement: 0,
    unchanged: 0,
    inconclusive: 0,
    notComparable: 0,
    error: 0,
  };
  for (const r of results) {
    summary[r.comparison?.verdict ?? (r.notComparable === null ? 'error' : 'notComparable')]++;
  }
  return {
    schemaVersion: COMPARISON_REPORT_SCHEMA_VERSION,
    scenario: samples.scenario.name,
    mode: samples.mode,
    paired,
    complete: samples.complete,
    stopReason: samples.stopReason,
    isolation: samples.isolation,
    ...(samples.timing === undefined ? {} : { timing: samples.timing }),
    ...(samples.cluster === undefined ? {} : { cluster: samples.cluster }),
    settings,
    results,
    summary,
  };
}

/**
 * Largest CI half-width (relative change) over all comparisons of the trials so far, for
 * precision-based stopping; null until every benchmark can be compared. Benchmarks that are
 * not comparable (a base of 0...) have no interval to narrow and do not hold it up.
 */
export function largestHalfWidth(
  samples: SamplesFile,
  overrides: AnalysisOverrides = {},
): number | null {
  const report = analyzeSamples(samples, overrides);
  if (report.results.some((r) => r.error !== null)) return null;
  const widths = report.results.flatMap((r) =>
    r.comparison === null ? [] : [(r.comparison.ci.upper - r.comparison.ci.lower) / 2],
  );
  return widths.length === 0 ? null : Math.max(...widths);
}

function resolveSettings(samples: SamplesFile, overrides: AnalysisOverrides): AnalysisSettings {
  const spec: AnalysisSpec = samples.scenario.analysis;
  return {
    level: overrides.level ?? spec.level,
    statistic: overrides.statistic ?? spec.statistic ?? null,
    method: overrides.method ?? spec.method,
    threshold: overrides.threshold ?? spec.threshold,
    resamples: overrides.resamples ?? spec.resamples,
    adjustment: overrides.adjustment ?? spec.adjustment,
    blockLength: overrides.blockLength ?? spec.blockLength,
    seed: overrides.seed ?? samples.seed,
    baseline: overrides.baseline ?? spec.baseline ?? samples.versions[0]!.name,
  };
}

function adjust(results: BenchmarkResult[], settings: AnalysisSettings): void {
  const compared = results.filter((r) => r.comparison !== null);
  if (compared.length === 0) return;
  const adjusted: Comparison[] = adjustFamily(
    compared.map((r) => r.comparison!),
    settings.adjustment,
  );
  compared.forEach((r, i) => (r.comparison = adjusted[i]!));
}

/** Benchmarks a per-benchmark run never ran because some version does not list them. */
function unlisted(samples: SamplesFile, baseIndex: number, baseline: string): BenchmarkResult[] {
  const results: BenchmarkResult[] = [];
  for (const { benchmark, versions: lacking } of samples.perBenchmark?.missing ?? []) {
    samples.versions.forEach((version, i) => {
      if (i === baseIndex) return;
      results.push({
        benchmark,
        unit: '',
        biggerIsBetter: false,
        valueKind: null,
        baseline,
        version: version.name,
        comparison: null,
        notComparable: null,
        error: `not run: ${lacking.join(' and ')} ${lacking.length === 1 ? 'does' : 'do'} not list it (added or removed by the change?), so it cannot be compared`,
      });
    });
  }
  return results;
}

function explain(error: Error, mode: SamplesFile['mode']): string {
  if (/at least 2 values/.test(error.message) && (mode === 'single' || mode === 'mct')) {
    return `${error.message} (in ${mode} mode each version needs at least two values: more iterations, or a format whose output has several samples)`;
  }
  return error.message;
}
