/** The Node.js side of duetkit's persistent-process protocol, for users' benchmark programs. */
export { serve, type BenchmarkResult, type Iteration, type ServeOptions } from './serve.js';
