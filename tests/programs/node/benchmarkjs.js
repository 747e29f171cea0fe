// benchmark.js prints one line per benchmark ("name x 1,234 ops/sec ±1.2% (90 runs sampled)"),
// the text github-action-benchmark's `benchmarkjs` reads. Short maxTime keeps the run quick.
import Benchmark from 'benchmark';
import { joinWords, sumSquares } from './sums.js';

new Benchmark.Suite()
  .add('sumSquares(1000)', () => sumSquares(1000), { maxTime: 0.3 })
  .add('joinWords(64)', () => joinWords(64), { maxTime: 0.3 })
  .on('cycle', (event) => console.log(String(event.target)))
  .run();
