import { z } from 'zod';
import { splitArgv } from './argv.js';
import { METRIC_EXPECTED, parseMetricList } from './metric-list.js';
import {
  DURATION_EXPECTED,
  LEVEL_EXPECTED,
  parseLevel,
  parseSeconds,
  parseThreshold,
  THRESHOLD_EXPECTED,
  ValueError,
} from './values.js';

/** Field types shared by the scenario schema's parts (schema.ts, service-schema.ts). */

/** An argv array, or a string split like a shell would (never run by a shell). */
export const argv = z
  .union(
    [z.array(z.string()).min(1, 'a non-empty command'), z.string().min(1, 'a non-empty command')],
    {
      error: 'a command: an argv list such as [node, bench.js] or a string such as "node bench.js"',
    },
  )
  .transform((value, ctx) => {
    if (Array.isArray(value)) return value;
    try {
      const words = splitArgv(value);
      if (words.length > 0) return words;
      ctx.addIssue({ code: 'custom', message: 'a non-empty command' });
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: (error as Error).message });
    }
    return z.NEVER;
  });

/**
 * A value of `src/scenario/values.ts` as a field: a number or a string, parsed by `parse`;
 * on failure the issue says what `parse` accepts (the loader adds the field and the value).
 */
export function valueField<T>(parse: (value: string | number) => T, expected: string) {
  return z.union([z.number(), z.string()], { error: expected }).transform((value, ctx) => {
    try {
      return parse(value);
    } catch (error) {
      if (!(error instanceof ValueError)) throw error;
      ctx.addIssue({ code: 'custom', message: error.expected });
      return z.NEVER;
    }
  });
}

/** `workload.metric`: one value or a list, parsed into the list (`parseMetricList`). */
export const metricList = z
  .union([z.string(), z.array(z.string())], { error: METRIC_EXPECTED })
  .transform((value, ctx) => {
    try {
      return parseMetricList(value);
    } catch (error) {
      if (!(error instanceof ValueError)) throw error;
      ctx.addIssue({ code: 'custom', message: error.expected });
      return z.NEVER;
    }
  });

/** Seconds as a number, or a string with a unit: `500ms`, `90s`, `2m`, `1h`. */
export const duration = valueField(parseSeconds, DURATION_EXPECTED);

/** A practical threshold: `0.05`, `5%`, `150%` (`parseThreshold`). */
export const threshold = valueField(parseThreshold, THRESHOLD_EXPECTED);

/** A confidence level: `0.99`, `99%` (`parseLevel`). */
export const level = valueField(parseLevel, LEVEL_EXPECTED);

export const versionName = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'a name of letters, digits, ".", "_" or "-"');
