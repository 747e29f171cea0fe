import { splitArgv } from '../scenario/argv.js';
import {
  parseLevel,
  parseSeconds,
  parseThreshold,
  parseThresholdItems,
} from '../scenario/values.js';
import { InputError, valueInput } from './input-error.js';

/**
 * Parsers of single action input values, shared by every mode's inputs (`inputs.ts`,
 * `bisect-inputs.ts`); each error names the input, its value and what is accepted.
 */

export function got(value: string): string {
  return `got ${JSON.stringify(value)}`;
}

export function choice<T extends string>(value: string, name: string, accepted: readonly T[]): T {
  if ((accepted as readonly string[]).includes(value)) return value as T;
  throw new InputError(name, `${got(value)}; accepted: ${accepted.join(', ')}`);
}

export function integer(min: number, max: number): (value: string, name: string) => number {
  return (value, name) => {
    const n = /^\d+$/.test(value) ? Number(value) : NaN;
    if (Number.isSafeInteger(n) && n >= min && n <= max) return n;
    throw new InputError(name, `${got(value)}; expected an integer from ${min} to ${max}`);
  };
}

export function command(value: string, name: string): string[] {
  let words: string[];
  try {
    words = splitArgv(value);
  } catch (error) {
    throw new InputError(name, `${got(value)}: ${(error as Error).message}`);
  }
  if (words.length === 0) throw new InputError(name, `${got(value)}; expected a command`);
  return words;
}

export const duration = valueInput(parseSeconds);
export const threshold = valueInput(parseThreshold);
/** `5%`, or with thresholds of their own: `2%, memory=5%` (the CLI's `--threshold` rule). */
export const thresholds = valueInput(parseThresholdItems);
export const level = valueInput(parseLevel);

export function gitRef(value: string, name: string): string {
  // Any revision git understands (`main`, `origin/main`, `HEAD~1`, a commit id), but never
  // something git would read as an option, nor text with spaces or control characters.
  const printable = [...value].every((c) => c.charCodeAt(0) > 0x20 && c.charCodeAt(0) !== 0x7f);
  if (!value.startsWith('-') && printable) return value;
  throw new InputError(name, `${got(value)}; expected a branch, tag or commit id`);
}
