import { durationSeconds } from '../scenario/values.js';
import { formatMinutes, recommendedBudget, SCREENING_PAIRS } from '../suite/budget.js';
import type { ToolPlan } from './types.js';

/** `--budget auto` (the default): sized from the benchmarks found, for a suite. */
export const AUTO_BUDGET = 'auto';
/** The budget of a scenario that runs no suite, when `--budget` is `auto`. */
export const PLAIN_BUDGET = '10m';
/** The runner the written workflow asks for (`ubuntu-latest`). */
const RUNNER_VCPUS = 2;

/** The budget to write: `requested`, or with `auto` the one `recommendedBudget` gives. */
export function resolveBudget(plan: ToolPlan, requested: string): string {
  if (requested.trim().toLowerCase() !== AUTO_BUDGET) return requested;
  if (plan.suite === undefined || plan.workload.format === undefined) return PLAIN_BUDGET;
  return formatMinutes(recommended(plan).seconds);
}

/**
 * The comment above a suite's `budget:`: how many benchmarks were found, what the recommended
 * budget buys, and how the written one compares with it. Empty without a suite.
 */
export function budgetComment(plan: ToolPlan, budget: string): string[] {
  if (plan.suite === undefined || plan.workload.format === undefined) return [];
  const advice = recommended(plan);
  const advised = formatMinutes(advice.seconds);
  const found =
    plan.suite.listed === true
      ? `${plan.suite.benchmarks} benchmarks (${plan.suite.counted});`
      : `~${plan.suite.benchmarks} benchmarks found (${plan.suite.counted});`;
  const buys = `every one its screening (~${SCREENING_PAIRS} pairs) and leaves time for the ones in doubt`;
  const runner = `on a ${RUNNER_VCPUS}-vCPU runner (4 vCPUs are no faster: a duet uses one CPU per side and one for the harness)`;
  const seconds = durationSeconds(budget);
  const same = seconds !== null && Math.abs(seconds - advice.seconds) < 1;
  const text = same
    ? `${found} ${advised} gives ${buys}, ${runner}. Raise it if many stay inconclusive.`
    : `${found} ${advised} would give ${buys}, ${runner}; this budget is ${budget}${seconds !== null && seconds < advice.seconds ? ', and may leave some unscreened' : ''}. Raise it if many stay inconclusive.`;
  return wrap(text, 92);
}

function recommended(plan: ToolPlan): ReturnType<typeof recommendedBudget> {
  return recommendedBudget({
    format: plan.workload.format!,
    benchmarks: plan.suite!.benchmarks,
    vcpus: RUNNER_VCPUS,
    grouped: plan.suite!.fields.granularity === 'group',
  });
}

/** `text` in lines of at most `width` characters, broken at spaces. */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}
