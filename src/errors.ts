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
