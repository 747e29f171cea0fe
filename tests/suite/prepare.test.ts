import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  copyBinary,
  goGroupArgv,
  goGroupClasses,
  goParts,
  goUnitArgv,
  parseGoTest,
  partIterations,
  fixedIterations,
  calibrationEnv,
} from '../../src/suite/prepare-go.js';
import { suiteSchema } from '../../src/suite/schema.js';
import { cargoGroupArgv, cargoUnitArgv, parseCargoBench } from '../../src/suite/prepare-cargo.js';

describe('a go test command for a prebuilt binary', () => {
  it('sends build flags to go test -c and test flags to the binary as -test.*', () => {
    const go = parseGoTest([
      'go',
      'test',
      '-tags',
      'fast',
      '-run',
      '^$',
      '-bench',
      'Hash',
      '-benchmem',
      '-count=3',
      './hash',
    ]);
    expect(go).toEqual({
      build: ['-tags=fast'],
      test: ['-test.benchmem', '-test.count=3'],
      bench: 'Hash',
      benchtime: null,
      pkg: './hash',
    });
    expect(goUnitArgv('/b/x.test', go, 'BenchmarkHash/4KB', 1200)).toEqual([
      '/b/x.test',
      '-test.run=^$',
      '-test.bench=^BenchmarkHash$/^4KB$',
      '-test.benchtime=1200x',
      '-test.benchmem',
      '-test.count=3',
    ]);
  });

  it('refuses, naming it, what a prebuilt binary cannot do', () => {
    expect(() => parseGoTest(['make', 'bench'])).toThrow(
      'a prebuilt Go benchmark needs the command "go test ..."',
    );
    expect(() => parseGoTest(['go', 'test', '-bench', '.', './a', './b'])).toThrow(
      'a prebuilt Go benchmark is one package, got ./a, ./b',
    );
    expect(() => parseGoTest(['go', 'test', '-json'])).toThrow(
      'go test flag "-json" is not one duetkit knows',
    );
  });

  it('sizes the fixed iteration count from the calibrated time per op', () => {
    expect(fixedIterations(4, 0.02)).toBe(5_000_000);
    expect(fixedIterations(1e6, 0.02)).toBe(20);
    // never 1x: go test would report its first, cold run (b.N = 1)
    expect(fixedIterations(1e9, 0.02)).toBe(2);
    expect(fixedIterations(15e6, 0.02)).toBe(2);
  });

  it("splits a process's work into timed parts of at least 20 operations, at most 10", () => {
    const auto = suiteSchema.parse({});
    expect(auto.parts).toBe('auto');
    expect(auto.within).toBe('fastest');
    // 5,000,000 operations: ten parts of 500,000
    expect(goParts(5_000_000, auto)).toBe(10);
    expect(partIterations(5_000_000, 10)).toBe(500_000);
    // 100 operations: five parts of 20; 39: one part (two of 19 would be under 20)
    expect(goParts(100, auto)).toBe(5);
    expect(goParts(39, auto)).toBe(1);
    expect(goParts(2, auto)).toBe(1);
    // a number is taken as given, but never below 2 operations a part
    expect(goParts(100, suiteSchema.parse({ parts: 4 }))).toBe(4);
    expect(goParts(5, suiteSchema.parse({ parts: 4 }))).toBe(2);
    expect(partIterations(5, 2)).toBe(3);
    expect(partIterations(3, 2)).toBe(2);
    // whole repetitions paired by position are not split
    expect(goParts(5_000_000, suiteSchema.parse({ repetitions: 4 }))).toBe(1);
    expect(goParts(5_000_000, suiteSchema.parse({ repetitions: 'auto' }))).toBe(1);
  });

  it("runs the parts as -test.count with each part's iterations", () => {
    const go = parseGoTest(['go', 'test', '-bench', '.', '-benchmem', '-count=3']);
    expect(goUnitArgv('/b/x.test', go, 'BenchmarkA', 500_000, null, 10)).toEqual([
      '/b/x.test',
      '-test.run=^$',
      '-test.bench=^BenchmarkA$',
      '-test.benchtime=500000x',
      '-test.benchmem',
      '-test.count=10',
    ]);
  });

  it('refuses parts and repetitions together, naming both', () => {
    const result = suiteSchema.safeParse({ parts: 10, repetitions: 4 });
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]!.path).toEqual(['parts']);
    expect(result.error!.issues[0]!.message).toBe(
      "parts (10) or repetitions (4), not both: parts split one repetition's work, repetitions repeat it whole",
    );
    expect(suiteSchema.safeParse({ parts: 0 }).error!.issues[0]!.message).toBe(
      '"auto" or a whole number of parts from 1 to 100',
    );
    expect(suiteSchema.safeParse({ within: 'min' }).success).toBe(false);
    // 1 part is no split: repetitions may have it
    expect(suiteSchema.safeParse({ parts: 1, repetitions: 4 }).success).toBe(true);
  });
});

describe('go benchmarks run several to a process (granularity: group)', () => {
  const unit = (name: string, nsPerOp: number) => ({ name, nsPerOp });
  it('groups siblings of like cost only, in the order of their first member', () => {
    const classes = goGroupClasses([
      unit('BenchmarkA', 100),
      unit('BenchmarkP/x/fast', 10),
      unit('BenchmarkP/x/slow', 50),
      unit('BenchmarkB', 300),
      unit('BenchmarkP/x/mid', 30),
      unit('BenchmarkP/y/fast', 10),
      unit('BenchmarkC', 500),
    ]);
    expect(classes.map((c) => c.map((u) => u.name))).toEqual([
      // top-level benchmarks without sub-benchmarks are siblings too; 500 > 4 × 100
      ['BenchmarkA', 'BenchmarkB'],
      // 30 ≤ 4 × 10, 50 > 40: a class of its own; never with P/y's
      ['BenchmarkP/x/fast', 'BenchmarkP/x/mid'],
      ['BenchmarkP/x/slow'],
      ['BenchmarkP/y/fast'],
      ['BenchmarkC'],
    ]);
  });

  it('runs them with one pattern per level, one count and the parts as -test.count', () => {
    const go = parseGoTest(['go', 'test', '-bench', '.', '-benchmem', '-count=3']);
    expect(
      goGroupArgv(
        '/b/x.test',
        go,
        ['BenchmarkParse/canada/fast.json', 'BenchmarkParse/canada/std'],
        2000,
        5,
      ),
    ).toEqual([
      '/b/x.test',
      '-test.run=^$',
      '-test.bench=^BenchmarkParse$/^canada$/^(fast\\.json|std)$',
      '-test.benchtime=2000x',
      '-test.benchmem',
      '-test.count=5',
    ]);
    expect(goGroupArgv('/b/x.test', go, ['BenchmarkA', 'BenchmarkB'], 20, 1)[2]).toBe(
      '-test.bench=^(BenchmarkA|BenchmarkB)$',
    );
    expect(goGroupArgv('/b/x.test', go, ['BenchmarkP/a'], 20, 1)[2]).toBe(
      '-test.bench=^BenchmarkP$/^a$',
    );
    expect(() => goGroupArgv('/b/x.test', go, ['BenchmarkA/x', 'BenchmarkB/y'], 20, 1)).toThrow(
      /not siblings/,
    );
  });
});

describe('the environment a go calibration runs in', () => {
  it('gives Go the CPUs of a measured slot, as a pinned process sizes GOMAXPROCS', () => {
    expect(calibrationEnv({ PATH: '/bin' }, '1')).toEqual({ PATH: '/bin', GOMAXPROCS: '1' });
    expect(calibrationEnv({}, '2-3')).toEqual({ GOMAXPROCS: '2' });
    expect(calibrationEnv({}, '0,2,4-5')).toEqual({ GOMAXPROCS: '4' });
  });

  it("keeps the scenario's own GOMAXPROCS, and leaves it alone when processes run anywhere", () => {
    expect(calibrationEnv({ GOMAXPROCS: '8' }, '1')).toEqual({ GOMAXPROCS: '8' });
    expect(calibrationEnv({ A: 'b' }, null)).toEqual({ A: 'b' });
    expect(calibrationEnv({}, undefined)).toEqual({});
  });
});

describe('copies of a test binary', () => {
  it('are executable files of the same bytes beside it, the binary first', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'duetkit-copies-'));
    try {
      const binary = path.join(dir, 'base.test');
      await writeFile(binary, '#!/bin/sh\necho hi\n', { mode: 0o755 });
      const files = await copyBinary(binary, 3);
      expect(files).toEqual([binary, path.join(dir, 'base.1.test'), path.join(dir, 'base.2.test')]);
      for (const file of files) {
        expect(await readFile(file, 'utf8')).toBe('#!/bin/sh\necho hi\n');
        expect((await stat(file)).mode & 0o111).toBe(0o111);
        // a file of its own, not a link to the same pages
        if (file !== binary) expect((await stat(file)).ino).not.toBe((await stat(binary)).ino);
      }
      expect(await copyBinary(binary, 1)).toEqual([binary]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('a cargo bench command for a prebuilt binary', () => {
  it('keeps harness options and runs one benchmark in criterion quick mode', () => {
    const cargo = parseCargoBench([
      'cargo',
      'bench',
      '--bench',
      'b',
      '--',
      '--noise-threshold',
      '0.02',
    ]);
    expect(cargo).toEqual({ cargo: ['--bench', 'b'], harness: ['--noise-threshold', '0.02'] });
    expect(cargoUnitArgv('/t/b-1', cargo, 'enc/3', true)).toEqual([
      '/t/b-1',
      '--bench',
      '--noise-threshold',
      '0.02',
      '--quick',
      '--noplot',
      '--nresamples',
      '1000',
      '^enc/3$',
    ]);
  });
});

describe('criterion as a suite runs it', () => {
  it('a fixed list of samples per process (the repetitions paired by position), or --quick', () => {
    const cargo = parseCargoBench(['cargo', 'bench', '--bench', 'spec']);
    expect(
      cargoUnitArgv('/t/spec-1', cargo, 'dedup/fold', {
        kind: 'samples',
        samples: 10,
        seconds: 0.2,
      }),
    ).toEqual([
      '/t/spec-1',
      '--bench',
      '--noplot',
      '--warm-up-time',
      '0.05',
      '--measurement-time',
      '0.2',
      '--sample-size',
      '10',
      '--nresamples',
      '1000',
      '^dedup/fold$',
    ]);
    expect(cargoUnitArgv('/t/spec-1', cargo, 'x', { kind: 'tool' })).toEqual([
      '/t/spec-1',
      '--bench',
      '^x$',
    ]);
  });

  it('granularity group: one process for several benchmarks, the shortest sample list each', () => {
    const cargo = parseCargoBench(['cargo', 'bench', '--bench', 'spec', '--', '--color', 'never']);
    const argv = cargoGroupArgv('/t/spec-1', cargo, ['dedup/fold', 'a+b/nth/0', 'x.y'], 0.02);
    expect(argv).toEqual([
      '/t/spec-1',
      '--bench',
      '--color',
      'never',
      '--noplot',
      '--warm-up-time',
      '0.02',
      '--measurement-time',
      '0.02',
      '--sample-size',
      '10',
      '--nresamples',
      '1000',
      '^(dedup/fold|a\\+b/nth/0|x\\.y)$',
    ]);
    // the filter selects exactly the names given (criterion matches it anywhere in a name)
    const filter = new RegExp(argv.at(-1)!);
    expect(['dedup/fold', 'a+b/nth/0', 'x.y'].every((n) => filter.test(n))).toBe(true);
    expect(['dedup/fold2', 'aab/nth/0', 'xzy', 'dedup/folds'].some((n) => filter.test(n))).toBe(
      false,
    );
  });
});
