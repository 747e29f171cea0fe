import { ValueError } from './values.js';

/**
 * What a command without a format is measured by (`workload.metric`), each a benchmark of its
 * own: `wall`, the time from its start to its exit; `cpu`, its CPU time (user + system, its own
 * and its waited-for children's); `rss`, its peak resident set size in KiB (the largest of the
 * command's and of each waited-for descendant's, from wait4's `ru_maxrss`), smaller is better.
 */
export const MEASURES = ['wall', 'cpu', 'rss'] as const;
export type Measure = (typeof MEASURES)[number];

/** The single values `workload.metric` (and the action's `metric` input) accept. */
export const METRICS = ['wall', 'cpu', 'rss', 'both'] as const;

export const METRIC_EXPECTED =
  'one of wall, cpu, rss, both (= [wall, cpu]), or a list of wall, cpu, rss without repeats like [wall, cpu, rss]';

/**
 * `workload.metric` as the list of what is measured, in the order given: a single value
 * (`both` is `[wall, cpu]`), a list, or (the action's input) a comma- or space-separated text
 * such as `wall, rss`. Throws a `ValueError` naming what is accepted. Pure.
 */
export function parseMetricList(value: unknown): Measure[] {
  const words =
    typeof value === 'string'
      ? value.split(/[\s,]+/).filter((w) => w !== '')
      : Array.isArray(value)
        ? value
        : null;
  if (words === null || words.length === 0) throw new ValueError(value, METRIC_EXPECTED);
  if (typeof value === 'string' && words.length === 1 && words[0] === 'both')
    return ['wall', 'cpu'];
  const list: Measure[] = [];
  for (const word of words) {
    if (typeof word !== 'string' || !(MEASURES as readonly string[]).includes(word)) {
      throw new ValueError(value, METRIC_EXPECTED);
    }
    if (list.includes(word as Measure)) throw new ValueError(value, METRIC_EXPECTED);
    list.push(word as Measure);
  }
  return list;
}

/** Whether the list measures only the wall time (what the harness's own clock can do). */
export function wallOnly(list: readonly Measure[]): boolean {
  return list.length === 1 && list[0] === 'wall';
}
