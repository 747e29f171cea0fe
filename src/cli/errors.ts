import { UserError } from '../errors.js';

export { UserError };

/** Errors whose message is meant for the user as it is (no stack trace needed). */
export function isUserFacing(error: unknown): error is Error {
  return (
    error instanceof UserError ||
    error instanceof RangeError ||
    (error instanceof Error &&
      ['FormatError', 'ScenarioError', 'RunError', 'ZodError'].includes(error.name))
  );
}
