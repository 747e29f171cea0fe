import { UserError } from '../errors.js';
import { ValueError } from '../scenario/values.js';

/** An action input that is missing or malformed; the message names the input. */
export class InputError extends UserError {
  constructor(name: string, message: string) {
    super(`Input "${name}": ${message}`);
    this.name = 'InputError';
  }
}

/** Reads one input as the runner passed it (`core.getInput`); '' when not given. */
export type GetInput = (name: string) => string;

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
