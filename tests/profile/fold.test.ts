import { gzipSync } from 'node:zlib';
import {
  Function as PprofFunction,
  Line,
  Location,
  Profile,
  Sample,
  StringTable,
  ValueType,
} from 'pprof-format';
import { parseFoldedText, sampleCount, StackCounter } from '../../src/profile/fold.js';
import { foldCpuProfile } from '../../src/profile/node.js';
import { parsePerfScript } from '../../src/profile/perf.js';
import { foldPprof } from '../../src/profile/pprof.js';
import { chooseProfiler } from '../../src/profile/registry.js';
import { goArgv } from '../../src/profile/targets.js';
import { safeName } from '../../src/profile/profile-results.js';
import { parseScenario } from '../../src/scenario/load.js';

describe('folding', () => {
  it('StackCounter sums equal stacks, root first, most samples first', () => {
    const counter = new StackCounter();
    counter.add(['main', 'a'], 2);
    counter.add(['main', 'b']);
    counter.add(['main', 'a']);
    counter.add([], 5);
    expect(counter.stacks()).toEqual([
      { frames: ['main', 'a'], count: 3 },
      { frames: ['main', 'b'], count: 1 },
    ]);
  });

  it("perf script's text: header, frames leaf first, blank line between samples", () => {
    const text = [
      'hot 29078 12.5:    1001001 cpu-clock: ',
      '\t            11d5 hot_loop (/tmp/hot)',
      '\t            1050 main (/tmp/hot)',
      '\t           2724a __libc_start_call_main (/usr/lib/x86_64-linux-gnu/libc.so.6)',
      '',
      'hot 29078 12.6:    1001001 cpu-clock: ',
      '\t            11d8 hot_loop+0x18 (/tmp/hot)',
      '\t            1050 main (/tmp/hot)',
      '\t           2724a __libc_start_call_main (/usr/lib/x86_64-linux-gnu/libc.so.6)',
      '',
      'hot 29078 12.7:    1001001 cpu-clock: ',
      '\tffffffff8100 [unknown] ([kernel.kallsyms])',
      '\t            1060 std::vector<int, std::allocator<int> >::push_back(int const&) (/tmp/hot)',
    ].join('\n');
    expect(parsePerfScript(text)).toEqual([
      { frames: ['__libc_start_call_main', 'main', 'hot_loop'], count: 2 },
      {
        frames: ['std::vector<int, std::allocator<int> >::push_back(int const&)', '[unknown]'],
        count: 1,
      },
    ]);
  });

  it("py-spy's raw (folded) lines", () => {
    const stacks = parseFoldedText(
      '<module> (hot.py);hot (hot.py) 59\n<module> (hot.py);cold (hot.py) 6\n\n',
    );
    expect(stacks).toEqual([
      { frames: ['<module> (hot.py)', 'hot (hot.py)'], count: 59 },
      { frames: ['<module> (hot.py)', 'cold (hot.py)'], count: 6 },
    ]);
    expect(sampleCount(stacks)).toBe(65);
  });

  it('a .cpuprofile: samples walk to the root through children; (root) dropped', () => {
    const stacks = foldCpuProfile({
      nodes: [
        { id: 1, callFrame: { functionName: '(root)', url: '' }, children: [2, 4] },
        { id: 2, callFrame: { functionName: '', url: 'file:///x/hot.js' }, children: [3] },
        { id: 3, callFrame: { functionName: 'hotLoop', url: 'file:///x/hot.js' } },
        { id: 4, callFrame: { functionName: '(garbage collector)', url: '' } },
      ],
      samples: [3, 3, 4, 2],
    });
    expect(stacks).toEqual([
      { frames: ['(anonymous) (hot.js)', 'hotLoop (hot.js)'], count: 2 },
      { frames: ['(garbage collector)'], count: 1 },
      { frames: ['(anonymous) (hot.js)'], count: 1 },
    ]);
  });

  it('a pprof profile (built with pprof-format): inlined lines innermost first, samples counted', () => {
    const strings = new StringTable();
    const name = (s: string) => strings.dedup(s);
    const profile = new Profile({
      sampleType: [
        new ValueType({ type: name('samples'), unit: name('count') }),
        new ValueType({ type: name('cpu'), unit: name('nanoseconds') }),
      ],
      function: [
        new PprofFunction({ id: 1, name: name('main.main') }),
        new PprofFunction({ id: 2, name: name('main.hot') }),
        new PprofFunction({ id: 3, name: name('main.inlined') }),
      ],
      location: [
        new Location({ id: 1, line: [new Line({ functionId: 1 })] }),
        new Location({ id: 2, line: [new Line({ functionId: 3 }), new Line({ functionId: 2 })] }),
      ],
      sample: [
        new Sample({ locationId: [2, 1], value: [7, 70_000_000] }),
        new Sample({ locationId: [1], value: [1, 10_000_000] }),
      ],
      stringTable: strings,
    });
    const raw = gzipSync(profile.encode());
    expect(foldPprof(raw)).toEqual([
      { frames: ['main.main', 'main.hot', 'main.inlined'], count: 7 },
      { frames: ['main.main'], count: 1 },
    ]);
  });
});

describe('choosing the profiler', () => {
  const workload = (w: Record<string, unknown>) =>
    parseScenario({
      versions: [
        { name: 'a', path: '.' },
        { name: 'b', path: '.' },
      ],
      workload: w,
    }).workload;

  it.each([
    [{ command: 'go test -bench .', format: 'go' }, 'pprof'],
    [{ command: './pkg.test -test.bench .' }, 'pprof'],
    [{ command: 'pytest --benchmark-json out.json', format: 'pytest' }, 'py-spy'],
    [{ command: 'python3 bench.py' }, 'py-spy'],
    [{ command: 'node bench.js', format: 'tinybench' }, 'node'],
    [{ command: 'npx vitest bench' }, 'node'],
    [{ command: './build/gbench', format: 'googlecpp' }, 'perf'],
    [{ command: 'cargo bench', format: 'cargo' }, 'perf'],
    [{ command: './hot' }, 'perf'],
  ])('%j → %s', (w, expected) => {
    expect(chooseProfiler('auto', workload(w))).toBe(expected);
  });

  it('profile.profiler forces one', () => {
    expect(chooseProfiler('perf', workload({ command: 'python3 x.py' }))).toBe('perf');
  });
});

describe('the go run of a profile', () => {
  it('narrows to one benchmark, level by level, before -args; a test binary gets -test. flags', () => {
    expect(goArgv(['go', 'test', '-bench', '.', '-args', '-x'], 'BenchmarkA/n=1', 10)).toEqual([
      'go',
      'test',
      '-bench',
      '.',
      '-run=^$',
      '-bench=^BenchmarkA$/^n=1$',
      '-benchtime=10x',
      '-count=1',
      '-args',
      '-x',
    ]);
    expect(goArgv(['./x.test', '-test.bench', '.'], 'BenchmarkB', 1)).toEqual([
      './x.test',
      '-test.bench',
      '.',
      '-test.run=^$',
      '-test.bench=^BenchmarkB$',
      '-test.benchtime=1x',
      '-test.count=1',
    ]);
  });

  it('names files safely', () => {
    expect(safeName('BenchmarkA/n=1 (cpu)')).toBe('BenchmarkA_n_1_cpu_');
    expect(safeName('..')).toBe('_');
  });
});
