/**
 * One writer of benchmarks/history-concurrency.ts: publishes RUNS runs of a suite to REMOTE,
 * one after another, and prints one JSON line per publish (its time, attempts, retries).
 * Run: node --import tsx benchmarks/history/publisher.ts REMOTE WRITER RUNS BENCHMARKS
 */
import { publishEntry } from '../../src/history/publish.js';
import { syntheticHistory } from '../../tests/support/synthetic-history.js';

const [remote, writerText, runsText, benchmarksText] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
];
const writer = Number(writerText);
const runs = Number(runsText);
const entries = syntheticHistory({
  suite: 'concurrency',
  benchmarks: Number(benchmarksText),
  runs,
  seed: writer + 1,
  // Each writer's runs interleave in time with the others'.
  start: new Date(Date.parse('2026-01-01T00:00:00Z') + writer * 60_000).toISOString(),
  every: 3600_000,
});
for (const [i, { entry }] of entries.entries()) {
  entry.runId = `w${writer}-r${i}`;
  const started = performance.now();
  try {
    // The defaults of the action and the CLI (attempts, backoff).
    const result = await publishEntry({ remote, entry, dashboard: null });
    console.log(
      JSON.stringify({
        writer,
        run: i,
        ms: performance.now() - started,
        attempts: result.attempts,
        retries: result.retries,
        status: result.status,
      }),
    );
  } catch (error) {
    console.log(
      JSON.stringify({
        writer,
        run: i,
        ms: performance.now() - started,
        error: (error as Error).message,
      }),
    );
  }
}
