/**
 * An error caused by what the user gave us (a bad file, option or scenario). Entry points print
 * its message on one line, without a stack trace; the CLI exits with `exitCode`.
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

/** Errors whose message is meant for the user as it is (no stack trace needed). */
export function isUserFacing(error: unknown): error is Error {
  return (
    error instanceof UserError ||
    error instanceof RangeError ||
    (error instanceof Error &&
      ['FormatError', 'ScenarioError', 'RunError', 'ZodError'].includes(error.name))
  );
}
