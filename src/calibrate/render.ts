import type { CalibrationResult } from './calibrate.js';
import { describeChange } from './calibrate.js';
import type { CellSummary } from './summary.js';

/** The human report of `duetkit calibrate`: one table of methods × changes, then the advice. Pure. */
export function renderCalibration(result: CalibrationResult): string {
  const s = result.settings;
  const out: string[] = [];
  const w = result.workload;
  const what =
    w.kind === 'reference'
      ? `reference workload, ${w.units} chunks per iteration`
      : w.kind === 'custom'
        ? w.description
        : `A/A of ${w.file ?? 'the scenario'}`;
  out.push(`calibration on ${result.machine.cpuModel} (${result.machine.cores} CPUs), ${what}`);
  out.push(
    `condition: ${result.condition}${s.noise === null ? '' : ` (noise: ${s.noise.threads} ${s.noise.kind} thread(s) at ${Math.round(s.noise.load * 100)}%)`}; ${s.windows} comparisons per cell, budget ${s.budget} s each, CI level ${s.level}`,
  );
  for (const [kind, report] of Object.entries(result.isolation)) {
    out.push(
      `isolation of ${kind} runs: ${report.kind}${report.slots.length > 0 ? ` [${report.slots.map((x) => x ?? 'any').join(' | ')}]` : ''}${report.cpuWeight === undefined ? '' : `, CPU weight ${report.cpuWeight}`}`,
    );
  }
  out.push('');
  const header = [
    'method',
    'change',
    'n',
    'FPR / power',
    '95% CI',
    'median CI width',
    'median MDE',
    'CV',
    's/comparison',
  ];
  const rows = result.cells.map((c) => [
    c.method,
    describeChange(c.change),
    String(c.comparisons),
    `${c.change === 0 ? 'FPR' : 'power'} ${percent(c.rate.estimate)}`,
    `[${percent(c.rate.lower)}, ${percent(c.rate.upper)}]`,
    optionalPercent(c.medianCiWidth),
    optionalPercent(c.medianMde),
    optionalPercent(c.medianCv),
    c.secondsPerComparison === null ? '–' : c.secondsPerComparison.toFixed(1),
  ]);
  out.push(...table([header, ...rows]));
  out.push('');
  const r = result.recommendation;
  if (r === null) {
    out.push(
      'recommendation: none (no method with a confidence interval kept its A/A false-positive rate at the level)',
    );
  } else {
    out.push(
      `recommendation: ${r.method} with a budget of ${Math.ceil(r.budgetSeconds)} s per comparison (~${r.iterations} iterations) to detect changes ≥ ${percent(r.targetMde)} (observed MDE ${percent(r.observedMde)} in ${r.observedSeconds.toFixed(1)} s)`,
    );
  }
  const short = result.cells.filter((c) => c.comparisons < s.windows);
  for (const c of short)
    out.push(
      `warning: ${c.method} ${describeChange(c.change)}: only ${c.comparisons} of ${s.windows} comparisons fitted in the recordings`,
    );
  return `${out.join('\n')}\n`;
}

function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) =>
    r
      .map((cell, i) => (i < 2 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join('  ')
      .trimEnd(),
  );
}

function percent(x: number): string {
  if (!Number.isFinite(x)) return '–';
  return `${(x * 100).toFixed(x !== 0 && Math.abs(x) < 0.1 ? 2 : 1)}%`;
}

function optionalPercent(x: number | null): string {
  return x === null ? '–' : percent(x);
}

export type { CellSummary };
