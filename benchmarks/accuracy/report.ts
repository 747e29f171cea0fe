import { describeChange } from '../../src/calibrate/calibrate.js';
import type { CellSummary } from '../../src/calibrate/summary.js';
import type { AccuracyResults } from './run.js';

export const BEGIN = '<!-- accuracy-results:begin -->';
export const END = '<!-- accuracy-results:end -->';

/** The results section of BENCHMARKS.md, from the stored results. Pure. */
export function renderAccuracy(results: AccuracyResults): string {
  const c = results.config;
  const first = results.conditions[0];
  const m = first?.machine;
  const out: string[] = [];
  const label =
    c.kind === 'full'
      ? 'Full run'
      : `${c.kind === 'quick' ? 'Quick' : 'Smoke'} run (\`--${c.kind}\`): a smoke test of the pipeline, NOT the full results`;
  out.push(`### ${label}`, '');
  out.push(
    `Date: ${results.date.slice(0, 10)}. Machine: ${m === undefined ? 'unknown' : `${m.cpuModel}, ${m.cores} CPUs, ${Math.round(m.memoryBytes / 2 ** 30)} GiB, kernel ${m.kernel}, Node ${m.node}, load average at start ${m.loadAverage.join(' ')}`}.`,
    `Budget ${c.budget} s per comparison, ${c.repetitions} comparisons per cell (${c.perRun} per recording), reference workload of ${c.units} chunks per iteration, CI level ${c.level} (${c.resamples} bootstrap resamples), noise condition: \`duetkit noise --threads ${c.noise.threads} --load ${c.noise.load} --kind ${c.noise.kind}\`.`,
    '',
  );
  for (const condition of results.conditions) {
    const iso = Object.entries(condition.isolation)
      .map(
        ([kind, r]) => `${kind}: ${r.kind}${r.cpuWeight === undefined ? '' : ` (${r.cpuWeight})`}`,
      )
      .join(', ');
    out.push(`Isolation in effect (${condition.condition}): ${iso}.`);
  }
  if (results.groundTruth !== null) {
    const g = results.groundTruth;
    const parts = Object.entries(g.changes).map(
      ([k, v]) =>
        `${describeChange(Number(k))} → ${pct(v.measured)} [${pct(v.lower)}, ${pct(v.upper)}]`,
    );
    out.push(
      '',
      `Measured ground truth (${g.rounds} quiet rounds, ${g.date.slice(0, 10)}): ${parts.join('; ')}.`,
    );
  } else {
    out.push('', 'Measured ground truth: not measured for these units yet.');
  }
  const command = results.commandTruth;
  if (command != null) {
    const parts = Object.entries(command.changes).map(
      ([k, v]) =>
        `${describeChange(Number(k))} → ${pct(v.measured)} [${pct(v.lower)}, ${pct(v.upper)}]`,
    );
    out.push(
      '',
      `Command workload (rows marked "(command)", measured ${command.date.slice(0, 10)}): a C program of ${command.units} dependent chain steps per process (~${c.command?.sizeMs ?? '?'} ms), timed by duetkit's command driver (its timer, default keepBusy and stagger); its ground truth, each change alone with hyperfine on one CPU (${command.rounds} runs): ${parts.join('; ')}.`,
    );
  }
  out.push(
    '',
    '| condition | method | change | comparisons | FPR (A/A) / power | 95% Wilson CI | wrong direction | median estimate | median CI width | median MDE | s / comparison |',
    '|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const condition of results.conditions) {
    const command = condition.workload.kind === 'custom';
    for (const cell of condition.cells) out.push(row(cell, command));
  }
  return `${out.join('\n')}\n`;
}

function row(cell: CellSummary, command: boolean): string {
  const what = cell.change === 0 ? 'FPR' : 'power';
  const method = command ? `${cell.method} (command)` : cell.method;
  return `| ${cell.condition} | ${method} | ${describeChange(cell.change)} | ${cell.comparisons} | ${what} ${pct(cell.rate.estimate)} (${cell.hits}/${cell.comparisons}) | [${pct(cell.rate.lower)}, ${pct(cell.rate.upper)}] | ${cell.change === 0 ? '–' : cell.wrongDirection} | ${opt(cell.medianEstimate)} | ${opt(cell.medianCiWidth)} | ${opt(cell.medianMde)} | ${cell.secondsPerComparison === null ? '–' : cell.secondsPerComparison.toFixed(1)} |`;
}

/** Replaces the results section between the markers (or appends one). Pure. */
export function spliceResults(
  document: string,
  section: string,
  markers: { begin: string; end: string } = { begin: BEGIN, end: END },
): string {
  const begin = document.indexOf(markers.begin);
  const end = document.indexOf(markers.end);
  const block = `${markers.begin}\n${section}${markers.end}`;
  if (begin < 0 || end < begin) return `${document.trimEnd()}\n\n${block}\n`;
  return `${document.slice(0, begin)}${block}${document.slice(end + markers.end.length)}`;
}

function pct(x: number): string {
  return Number.isFinite(x) ? `${(x * 100).toFixed(Math.abs(x) < 0.1 && x !== 0 ? 2 : 1)}%` : '–';
}

function opt(x: number | null): string {
  return x === null ? '–' : pct(x);
}
