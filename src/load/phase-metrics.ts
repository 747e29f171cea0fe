import type { TrialMetric } from '../contracts/samples.js';
import { RunError } from '../process/errors.js';
import type { LoadSpec } from '../scenario/service-schema.js';
import type { HistogramSummary } from './histogram.js';
import { ERROR_KINDS, type GeneratorRecord, type LoadRecord } from '../contracts/load.js';
import type { PhaseResult, TargetResult } from './protocol.js';

/** One version's share of a phase, ready to become a trial. */
export interface PhaseOutcome {
  metrics: TrialMetric[];
  load: LoadRecord;
  invalid?: string;
}

/** "p99.9", "p50". */
export function percentileLabel(p: number): string {
  return `p${p}`;
}

/**
 * Turns a phase into each version's metrics: every latency percentile and the mean as its own
 * metric (ms, smaller is better), overall and per request of the mix, plus the throughput of
 * a closed loop (where it is what the version decides). Checks the error rate (too many
 * failures fail the run, naming the server) and the generator's honesty (a phase whose
 * requests were not sent on time is marked invalid for every version: never a silently
 * lighter load).
 */
export function phaseOutcomes(
  result: PhaseResult,
  load: LoadSpec,
  generator: GeneratorRecord,
  round: number,
  describeReplica: (version: string, replica: number) => string,
): PhaseOutcome[] {
  const invalid = honesty(result, load);
  return result.targets.map((target) => {
    checkErrors(target, load, round, describeReplica);
    if (target.ok === 0 && target.latency.count === 0) {
      throw new RunError(
        `server ${target.version}: no request of iteration ${round} was answered in its measured stages (${target.sent} sent); nothing to measure`,
      );
    }
    const metrics = latencyMetrics('latency', target.latency, load);
    const requests = Object.entries(target.byRequest);
    if (load.perRequest && requests.length > 1) {
      for (const [name, histogram] of requests) {
        if (histogram.count > 0) metrics.push(...latencyMetrics(name, histogram, load));
      }
    }
    const achievedQps = target.ok / result.measuredSeconds;
    if (load.arrival === 'closed') {
      metrics.push({
        name: 'throughput',
        unit: 'req/s',
        biggerIsBetter: true,
        values: [achievedQps],
        valueKind: 'summary',
      });
    }
    const record: LoadRecord = {
      arrival: result.arrival,
      seconds: result.measuredSeconds,
      intendedQps: result.intended / result.measuredSeconds,
      achievedQps,
      sent: target.sent,
      ok: target.ok,
      errors: target.errors,
      statusCodes: target.statusCodes,
      examples: target.examples,
      sendLagMs:
        result.sendLag === null
          ? null
          : {
              p50: result.sendLag.percentiles['50'] ?? result.sendLag.meanMs,
              p99: lagP99(result.sendLag),
              max: result.sendLag.maxMs,
            },
      sendRate: result.intended === 0 ? 1 : result.sentInWindow / result.intended,
      perReplica: target.perReplica,
      histogram: target.latency.encoded,
      generator,
    };
    return { metrics, load: record, ...(invalid === null ? {} : { invalid }) };
  });
}

function latencyMetrics(prefix: string, h: HistogramSummary, load: LoadSpec): TrialMetric[] {
  const metric = (label: string, value: number): TrialMetric => ({
    name: `${prefix} ${label}`,
    unit: 'ms',
    biggerIsBetter: false,
    values: [value],
    valueKind: 'summary',
  });
  return [
    ...load.percentiles.map((p) => metric(percentileLabel(p), h.percentiles[String(p)]!)),
    metric('mean', h.meanMs),
  ];
}

function lagP99(lag: HistogramSummary): number {
  return lag.percentiles['99'] ?? lag.maxMs;
}

/** Why the generator's load was not the intended one, or null when it was. */
function honesty(result: PhaseResult, load: LoadSpec): string | null {
  const problems: string[] = [];
  if (result.sendLag !== null && result.sendLag.count > 0) {
    const p99 = lagP99(result.sendLag);
    if (p99 > load.maxSendLag * 1000) {
      problems.push(
        `send lag p99 ${p99.toFixed(2)} ms > workload.load.maxSendLag ${+(load.maxSendLag * 1000).toFixed(3)} ms`,
      );
    }
  }
  const rate = result.intended === 0 ? 1 : result.sentInWindow / result.intended;
  if (rate < load.minSendRate) {
    problems.push(
      `only ${(rate * 100).toFixed(1)}% of the requests went out within their stages (workload.load.minSendRate ${load.minSendRate * 100}%)`,
    );
  }
  return problems.length === 0
    ? null
    : `the load generator could not keep up: ${problems.join('; ')}`;
}

/** Too many failed requests fail the run, naming the server, the kinds and an example. */
function checkErrors(
  target: TargetResult,
  load: LoadSpec,
  round: number,
  describeReplica: (version: string, replica: number) => string,
): void {
  const failed = ERROR_KINDS.reduce((sum, kind) => sum + target.errors[kind], 0);
  if (failed === 0 || failed / Math.max(1, target.sentTotal) <= load.maxErrorRate) return;
  const kinds = ERROR_KINDS.filter((k) => target.errors[k] > 0)
    .map((k) => `${target.errors[k]} ${ERROR_WORDS[k]}`)
    .join(', ');
  const codes = Object.entries(target.statusCodes)
    .map(([code, n]) => `HTTP ${code} ×${n}`)
    .join(', ');
  const examples = target.examples
    .map((e) => `\n  ${describeReplica(target.version, e.replica)}, ${e.request}: ${e.detail}`)
    .join('');
  throw new RunError(
    `server ${target.version}: ${failed} of ${target.sentTotal} requests failed in iteration ${round} (${((failed / target.sentTotal) * 100).toFixed(1)}%, more than workload.load.maxErrorRate ${+(load.maxErrorRate * 100).toFixed(3)}%): ${kinds}${codes === '' ? '' : ` (${codes})`}; first of each kind:${examples}`,
  );
}

export const ERROR_WORDS: Record<(typeof ERROR_KINDS)[number], string> = {
  status: 'non-2xx answers',
  timeout: 'timeouts',
  connection: 'connection errors',
  other: 'other errors',
};
