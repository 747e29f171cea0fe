import { ZodError } from 'zod';

/**
 * The one root of the errors the user must fix: a bad file, option, input or scenario, a
 * command or tool that failed, something asked for that this machine cannot give. Entry points
 * print its message on one line, without a stack trace; the CLI exits with `exitCode`.
 * Subclasses keep their `name` (several are named `RunError`), which only labels them: what
 * makes an error the user's is `instanceof UserError`.
 */
export class UserError extends Error {
  constructor(
    message: string,
    readonly exitCode = 2,
  ) {
    super(message);
    this.name = 'UserError';
  }
}

/**
 * A file that is not what it should be (a history entry, a github-action-benchmark data.js):
 * names the file, the first bad field (a dotted path, '' for the whole file) and the problem.
 */
export class FileFormatError extends UserError {
  constructor(
    readonly file: string,
    readonly field: string,
    readonly reason: string,
  ) {
    super(`${file}: ${field === '' ? '' : `${field}: `}${reason}`);
    this.name = 'FormatError';
  }
}

/**
 * Errors whose message is meant for the user as it is (no stack trace needed): a `UserError`,
 * a `RangeError` (a value out of its domain, e.g. from `src/stats`), or a `ZodError` from a
 * schema that parsed user data.
 */
export function isUserFacing(error: unknown): error is Error {
  return error instanceof UserError || error instanceof RangeError || error instanceof ZodError;
}
