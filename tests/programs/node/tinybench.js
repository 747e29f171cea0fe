// tinybench has no file reporter of its own: the usual way to keep results is to print each
// task's result as JSON, with retainSamples so the raw latencies are included.
import { Bench } from 'tinybench';
import { joinWords, sumSquares } from './sums.js';

// A fixed, small number of samples keeps the fixture small.
const bench = new Bench({
  time: 1,
  iterations: 40,
  warmupTime: 1,
  warmupIterations: 5,
  retainSamples: true,
});
bench.add('sumSquares(1000)', () => sumSquares(1000));
bench.add('joinWords(64)', () => joinWords(64));
await bench.run();
console.log(JSON.stringify(bench.tasks.map((task) => ({ name: task.name, result: task.result }))));
