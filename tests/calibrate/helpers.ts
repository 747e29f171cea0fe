/** A CLI context that collects what a command prints. */
export { fakeContext as context } from '../helpers/cli.js';
