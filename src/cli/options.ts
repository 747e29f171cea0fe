import { InvalidArgumentError } from 'commander';
import * as values from '../scenario/values.js';
import { ValueError } from '../scenario/values.js';

/**
 * Parsers for option values shared by commands. Each throws commander's InvalidArgumentError,
 * which commander reports as `error: option '--x <v>' argument 'bad' is invalid. <reason>`.
 */

/**
 * A parser of `src/scenario/values.ts` as a commander option parser: its `got …; expected …`
 * becomes commander's reason, after commander's own naming of the option.
 */
export function optionParser<T>(parse: (text: string) => T): (text: string) => T {
  return (text) => {
    try {
      return parse(text);
    } catch (error) {
      if (error instanceof ValueError) throw new InvalidArgumentError(error.message);
      throw error;
    }
  };
}

/** "0.99" or "99%" → 0.99 (`parseLevel` of src/scenario/values.ts). */
export const parseLevel = optionParser(values.parseLevel);

/** "5%", "150%" or "0.05" → 0.05 (`parseThreshold` of src/scenario/values.ts). */
export const parseThreshold = optionParser(values.parseThreshold);

/** What repeated `--threshold` options give: the run's threshold and those of their own. */
export type ThresholdOptions = values.ThresholdItems;

/**
 * `--threshold 5%` (the run's threshold) or `--threshold memory=5%`, `time=2%`,
 * `BenchmarkParse=3%` (one kind of metric's, or one benchmark's: `analysis.thresholds`);
 * repeatable, each adding to the ones before (`addThresholdItem`, the action's rule too).
 */
export function collectThreshold(text: string, previous?: ThresholdOptions): ThresholdOptions {
  return optionParser((t: string) => values.addThresholdItem(t, previous))(text);
}

/** "90s", "10m", "500ms" or seconds → seconds (`parseSeconds` of src/scenario/values.ts). */
export const parseSeconds = optionParser(values.parseSeconds);

/** "all", "90d", "12w" or a date (`parseSince` of src/scenario/values.ts). */
export const parseSince = optionParser(values.parseSince);

/** A positive integer within [min, max]. */
export function integerParser(min: number, max: number): (text: string) => number {
  return (text) => {
    const value = /^\s*\d+\s*$/.test(text) ? Number(text) : NaN;
    if (!(Number.isSafeInteger(value) && value >= min && value <= max)) {
      throw new InvalidArgumentError(`Expected an integer from ${min} to ${max}.`);
    }
    return value;
  };
}

/** One of the listed words. */
export function choiceParser<T extends string>(choices: readonly T[]): (text: string) => T {
  return (text) => {
    if (!(choices as readonly string[]).includes(text)) {
      throw new InvalidArgumentError(`Expected one of: ${choices.join(', ')}.`);
    }
    return text as T;
  };
}
