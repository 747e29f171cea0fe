import { UserError } from '../errors.js';
import { splitArgv } from '../scenario/argv.js';
import { parseLevel, parseSeconds, parseThreshold, ValueError } from '../scenario/values.js';

/**
 * Parsers of single action input values, shared by every mode's inputs (`inputs.ts`, and the
 * bisect and variability rooms'); each error names the input, its value and what is accepted.
 */

/** An action input that is missing or malformed; the message names the input. */
export class InputError extends UserError {
  constructor(name: string, message: string) {
    super(`Input "${name}": ${message}`);
    this.name = 'InputError';
  }
}

/** Reads one input as the runner passed it (`core.getInput`); '' when not given. */
export type GetInput = (name: string) => string;

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

/**
 * A parser of `src/scenario/values.ts` as an input parser: its `got …; expected …` follows
 * the input's name, as the CLI's and the scenario's follow theirs.
 */
export function valueInput<T>(parse: (value: string) => T): (value: string, name: string) => T {
  return (value, name) => {
    try {
      return parse(value);
    } catch (error) {
      if (error instanceof ValueError) throw new InputError(name, error.message);
      throw error;
    }
  };
}

export const duration = valueInput(parseSeconds);
export const threshold = valueInput(parseThreshold);
export const level = valueInput(parseLevel);

export function gitRef(value: string, name: string): string {
  // Any revision git understands (`main`, `origin/main`, `HEAD~1`, a commit id), but never
  // something git would read as an option, nor text with spaces or control characters.
  const printable = [...value].every((c) => c.charCodeAt(0) > 0x20 && c.charCodeAt(0) !== 0x7f);
  if (!value.startsWith('-') && printable) return value;
  throw new InputError(name, `${got(value)}; expected a branch, tag or commit id`);
}
