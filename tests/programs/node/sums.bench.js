import { bench, describe } from 'vitest';
import { joinWords, sumSquares } from './sums.js';

describe('sums', () => {
  bench('sumSquares(1000)', () => sumSquares(1000), { time: 100, warmupTime: 20 });
  bench('joinWords(64)', () => joinWords(64), { time: 100, warmupTime: 20 });
});
