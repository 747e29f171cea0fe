import { type LoadSummary, ERROR_KINDS } from '../contracts/load.js';
import { ERROR_WORDS } from '../load/phase-metrics.js';

const ARRIVAL_WORDS: Record<LoadSummary['arrival'], string> = {
  poisson: 'open loop, Poisson arrivals, latency from each intended send time',
  constant: 'open loop, constant arrivals, latency from each intended send time',
  closed: 'closed loop (each user waits for its answer: stalls are under-counted)',
};

/**
 * Lines on the load of an http run, for the terminal and the PR comment: how it was offered
 * and where the generator ran, what each version's servers did with it (rates, errors by
 * kind, send lag) and which iterations were left out as invalid. Pure.
 */
export function loadLines(load: LoadSummary): { lines: string[]; warnings: string[] } {
  const lines = [`load: ${ARRIVAL_WORDS[load.arrival]}; ${load.generator}`];
  for (const v of load.versions) {
    const failed = ERROR_KINDS.filter((k) => v.errors[k] > 0);
    const errors =
      failed.length === 0
        ? 'no errors'
        : `errors: ${failed.map((k) => `${v.errors[k]} ${ERROR_WORDS[k]}`).join(', ')}${codes(v.statusCodes)}`;
    const lag = v.sendLagP99Ms === null ? '' : `, send lag p99 ≤ ${v.sendLagP99Ms.toFixed(2)} ms`;
    lines.push(
      `load ${v.version}: ${v.iterations} iterations, ${fmt(v.intendedQps)} req/s intended, ${fmt(v.achievedQps)} answered (median per iteration)${lag}, ${v.sent} requests, ${errors}; p99 of all iterations pooled ${v.pooledP99Ms.toFixed(3)} ms`,
    );
  }
  const warnings = load.invalid.map((i) => `iteration ${i.round} is not analysed: ${i.reason}`);
  return { lines, warnings };
}

function codes(statusCodes: Record<string, number>): string {
  const entries = Object.entries(statusCodes);
  return entries.length === 0 ? '' : ` (${entries.map(([c, n]) => `HTTP ${c} ×${n}`).join(', ')})`;
}

function fmt(x: number): string {
  return Number.isFinite(x) ? (x >= 100 ? x.toFixed(0) : x.toFixed(1)) : '–';
}
