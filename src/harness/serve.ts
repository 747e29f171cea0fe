import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';

/** One named result of an iteration, as in duetkit's jsonl format. */
export interface BenchmarkResult {
  name: string;
  value: number;
  unit?: string;
  biggerIsBetter?: boolean;
}

/** Runs one iteration. Return results to report your own numbers; return nothing to be timed. */
export type Iteration = () => void | BenchmarkResult[] | Promise<void | BenchmarkResult[]>;

export interface ServeOptions {
  /** Name of the timed result when the iteration returns nothing. Default `iteration`. */
  name?: string;
  /**
   * When the iteration returns nothing: time it here, in the process (default, precise to
   * the microsecond), or let the harness time the round trip (`false`, includes the pipes).
   */
  selfTimed?: boolean;
  /** Default: process.stdin / process.stdout. */
  input?: Readable;
  output?: Writable;
}

/**
 * Serves duetkit's persistent-process protocol (docs/protocol.md) for a Node.js program:
 * prints `{"ready": true}`, then runs `iteration` once per `go` line and answers with one JSON
 * line, until `exit` or the end of input. Use it as the last statement of a benchmark program:
 *
 *     import { serve } from 'duetkit/harness';
 *     await serve(() => { parse(document); }, { name: 'parse' });
 */
export async function serve(iteration: Iteration, options: ServeOptions = {}): Promise<void> {
  const output = options.output ?? process.stdout;
  const send = (message: object): void => void output.write(`${JSON.stringify(message)}\n`);
  const lines = createInterface({ input: options.input ?? process.stdin, crlfDelay: Infinity });
  send({ ready: true });
  for await (const line of lines) {
    const command = line.trim();
    if (command === 'exit') break;
    if (command !== 'go') {
      send({ error: `unknown command ${JSON.stringify(command)}; expected go or exit` });
      continue;
    }
    try {
      const start = process.hrtime.bigint();
      const results = await iteration();
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (Array.isArray(results)) send({ results });
      else if (options.selfTimed === false) send({ ok: true });
      else send({ results: [{ name: options.name ?? 'iteration', value: ms, unit: 'ms' }] });
    } catch (error) {
      send({ error: error instanceof Error ? error.message : String(error) });
    }
  }
  lines.close();
}
