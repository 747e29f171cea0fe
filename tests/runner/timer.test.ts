import { spawn, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { runScenario } from '../../src/pipeline/local-run.js';
import type { SamplesFile, Trial } from '../../src/contracts/samples.js';
import { buildTimer } from '../../src/runner/timer/build.js';
import { createBarrier } from '../../src/runner/barrier.js';
import { commandDriver } from '../../src/runner/drivers/command.js';
import { createTimerPool } from '../../src/runner/drivers/timer-pool.js';
import type { SideContext } from '../../src/runner/drivers/types.js';
import type { Placement } from '../../src/isolation/types.js';
import { parseScenario } from '../../src/scenario/load.js';
import { parseTimerLine } from '../../src/runner/timer/report.js';
import type { ScenarioInput } from '../../src/scenario/schema.js';
import { pathToFileURL } from 'node:url';
import { waitUntil } from '../isolation/helpers.js';
import { loadedScenario, makeWorkspace, never, removeWorkspace } from './helpers.js';

const BIN = path.resolve('src/cli/bin.ts');
const TSX = pathToFileURL(path.resolve('node_modules/tsx/dist/loader.mjs')).href;

/**
 * Blocks the harness's event loop for `ms` out of every `every` ms while `work` runs: the
 * harness then learns late that an iteration ended, as it does on a busy machine, where it
 * shares the CPUs it measures and is outweighed by them.
 */
async function withLateHarness<T>(ms: number, every: number, work: () => Promise<T>): Promise<T> {
  const timer = setInterval(() => {
    const until = Date.now() + ms;
    while (Date.now() < until) {
      // busy: nothing else runs in this process meanwhile
    }
  }, every);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}

const measured = (samples: SamplesFile, version: number): Trial[] =>
  samples.trials.filter((t) => !t.warmup && t.version === version);

describe('the command timer', () => {
  let root: string;
  beforeAll(async () => {
    root = await makeWorkspace({
      fast: { 'run.sh': 'sleep 0.1\n' },
      plain: { 'run.sh': '/bin/sleep 0.05\n' },
      slow: { 'run.sh': 'sleep 0.15\n' },
      slowout: { 'run.sh': 'sleep 0.15\necho \'{"name": "v", "value": 1}\' > out.json\n' },
      busy: { 'run.sh': 'i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done\n' },
      // Counts its runs; the measured run (stdout is the harness's socket) writes 1 into the
      // output file, an extra run that keeps the CPU busy (stdout is /dev/null) writes 999.
      filler: {
        'run.sh':
          'if [ -c /dev/stdout ]; then v=999; sleep 0.02; else v=1; fi\necho run >> runs.log\necho "{\\"name\\": \\"v\\", \\"value\\": $v}" > out.json\n',
      },
      // Its extra runs (stdout is /dev/null) sleep long, under a name to look for afterwards.
      longfill: { 'run.sh': 'if [ -c /dev/stdout ]; then exec sleep 31.4159; fi\nsleep 0.05\n' },
      long: { 'run.sh': 'sleep 3\n' },
      // Kills its own parent (duetkit's timer) once it has started.
      killer: { 'run.sh': 'kill -9 $PPID\nsleep 0.2\n' },
      // a duration no other process on the machine is likely to sleep for: looked for below
      sleepy: { 'run.sh': 'sleep 5.271828\n' },
      // An executable in one version only: the other's spawn fails.
      exe: { run: '#!/bin/sh\nsleep 0.05\n' },
      noexe: { README: 'nothing to run here\n' },
      server: {
        'server.sh':
          'echo \'{"ready": true}\'\nwhile read cmd; do [ "$cmd" = exit ] && exit 0; sleep 0.1; echo \'{"ok": true}\'; done\n',
      },
    });
  });
  afterAll(() => removeWorkspace(root));
  beforeEach(async () => {
    await rm(path.join(root, 'filler', 'runs.log'), { force: true });
  });

  const run = (input: Partial<ScenarioInput> & Pick<ScenarioInput, 'versions' | 'workload'>) =>
    runScenario(loadedScenario({ iterations: 4, warmup: 1, seed: 3, ...input }, root), {
      signal: never,
      env: process.env,
    });

  it('is built once into the cache directory and reused', async () => {
    const cache = await mkdtemp(path.join(os.tmpdir(), 'duetkit-cache-'));
    try {
      const env = { ...process.env, DUETKIT_CACHE: cache };
      const first = await buildTimer(env);
      expect(first.path).not.toBeNull();
      expect(first.path!.startsWith(cache)).toBe(true);
      const built = (await stat(first.path!)).mtimeMs;
      expect((await buildTimer(env)).path).toBe(first.path);
      expect((await stat(first.path!)).mtimeMs).toBe(built);
    } finally {
      await rm(cache, { recursive: true, force: true });
    }
  });

  it('says why when no compiler can build it', async () => {
    const cache = await mkdtemp(path.join(os.tmpdir(), 'duetkit-cache-'));
    try {
      const built = await buildTimer({ DUETKIT_CACHE: cache, PATH: cache });
      expect(built.path).toBeNull();
      expect(built).toMatchObject({
        reason: expect.stringMatching(/no C compiler.*cc -static: not found/),
      });
    } finally {
      await rm(cache, { recursive: true, force: true });
    }
  });

  it('reads its report lines: times, exit status, signals, CPU time, spawn failures', () => {
    expect(parseTimerLine('done 100 2000100 0 1500 500 1234 0')).toEqual({
      startNs: 100n,
      endNs: 2000100n,
      code: 0,
      signal: null,
      userMs: 1.5,
      systemMs: 0.5,
      maxRssKb: 1234,
      timedOut: false,
    });
    expect(parseTimerLine('done 1 2 768 0 0 0 0')).toMatchObject({ code: 3, signal: null });
    expect(parseTimerLine('done 1 2 9 0 0 0 1')).toMatchObject({
      code: null,
      signal: 'SIGKILL',
      timedOut: true,
    });
    expect(parseTimerLine('done 1 2 0 0 0 0')).toBeInstanceOf(Error);
    expect(parseTimerLine(`fail ${os.constants.errno.ENOENT}`)).toEqual(
      new Error('command not found'),
    );
    expect(parseTimerLine('garbage')).toBeInstanceOf(Error);
  });

  it('times each side where it runs, however late the harness wakes', async () => {
    const samples = await withLateHarness(300, 320, () =>
      run({
        versions: [
          { name: 'base', path: 'fast' },
          { name: 'head', path: 'slow' },
        ],
        workload: { command: 'sh run.sh' },
      }),
    );
    expect(samples.error).toBeNull();
    expect(samples.timing).toEqual({
      driver: 'command',
      clock: 'timer',
      keepBusy: 'spin',
      // a tenth of the median iteration (~100 ms), at most 2 ms
      staggerMs: 2,
      warnings: [],
    });
    for (const [version, ms] of [
      [0, 100],
      [1, 150],
    ] as const) {
      for (const trial of measured(samples, version)) {
        // sleep's own time plus a process start or two; never the harness's lateness.
        expect(trial.wallMs).toBeGreaterThanOrEqual(ms);
        expect(trial.wallMs).toBeLessThan(ms + 40);
        expect(trial.metrics[0]!.values[0]).toBeCloseTo(trial.wallMs, 2);
        expect(trial.cpuMs).toBeLessThan(30);
      }
    }
    // The harness did learn late, most of the time.
    const lags = samples.trials.map((t) => t.seenEndMs! - t.endMs).sort((a, b) => a - b);
    expect(lags[lags.length - 1]).toBeGreaterThan(50);
  });

  it('measures CPU time (user + system) from wait4', async () => {
    const samples = await run({
      mode: 'mct',
      versions: [
        { name: 'base', path: 'busy' },
        { name: 'head', path: 'busy' },
      ],
      workload: { command: 'sh run.sh' },
    });
    expect(samples.error).toBeNull();
    for (const trial of samples.trials) {
      expect(trial.cpuMs).toBeGreaterThan(5);
      // A CPU-bound loop: CPU time close to the wall time (the rest is waiting for a CPU).
      expect(trial.cpuMs!).toBeLessThanOrEqual(trial.wallMs + 1);
      expect(trial.cpuMs! / trial.wallMs).toBeGreaterThan(0.4);
    }
  });

  it('reports the CPU time as a metric of its own with metric: cpu or both', async () => {
    const samples = await run({
      mode: 'rmit',
      versions: [
        { name: 'base', path: 'busy' },
        { name: 'head', path: 'fast' },
      ],
      workload: { command: 'sh run.sh', metric: 'both' },
    });
    expect(samples.error).toBeNull();
    for (const trial of samples.trials) {
      expect(trial.metrics.map((m) => m.name)).toEqual(['wall-time', 'cpu-time']);
      expect(trial.metrics[0]!.values[0]).toBeCloseTo(trial.wallMs, 2);
      expect(trial.metrics[1]!.values[0]).toBeCloseTo(trial.cpuMs!, 2);
    }
    // `fast` sleeps: 100 ms of wall time, next to no CPU time.
    for (const trial of measured(samples, 1)) {
      expect(trial.metrics[0]!.values[0]).toBeGreaterThanOrEqual(100);
      expect(trial.metrics[1]!.values[0]).toBeLessThan(20);
    }
    const named = await run({
      mode: 'rmit',
      versions: [
        { name: 'base', path: 'busy' },
        { name: 'head', path: 'busy' },
      ],
      workload: { command: 'sh run.sh', metric: 'cpu', name: 'loop' },
    });
    expect(named.trials[0]!.metrics.map((m) => m.name)).toEqual(['loop']);
    expect(named.trials[0]!.metrics[0]!.values[0]).toBeCloseTo(named.trials[0]!.cpuMs!, 2);
  });

  it('keeps the early side busy by repeating its command, without touching its output', async () => {
    const samples = await run({
      versions: [
        { name: 'base', path: 'filler' },
        { name: 'head', path: 'slowout' },
      ],
      workload: {
        command: 'sh run.sh',
        format: 'jsonl',
        output: 'out.json',
        keepBusy: 'repeat',
      },
    });
    expect(samples.error).toBeNull();
    // Every measured value is the measured run's own (1), never an extra run's (999)...
    const values = measured(samples, 0).map((t) => t.metrics[0]!.values[0]);
    expect(values).toEqual([1, 1, 1, 1]);
    // ...and there were extra runs, beyond the 1 warm-up + 4 measured ones (about 7 per
    // iteration: the other side takes 130 ms longer, an extra run 20 ms).
    const runs = (await readFile(path.join(root, 'filler', 'runs.log'), 'utf8')).split('\n');
    expect(runs.length - 1).toBeGreaterThan(5);
  });

  it('leaves the early side idle with keepBusy: off', async () => {
    const samples = await run({
      versions: [
        { name: 'base', path: 'filler' },
        { name: 'head', path: 'slowout' },
      ],
      workload: { command: 'sh run.sh', format: 'jsonl', output: 'out.json', keepBusy: 'off' },
    });
    expect(samples.error).toBeNull();
    expect(samples.timing?.keepBusy).toBe('off');
    const runs = (await readFile(path.join(root, 'filler', 'runs.log'), 'utf8')).split('\n');
    expect(runs.length - 1).toBe(5); // 1 warm-up + 4 iterations, nothing else
  });

  it('kills the extra runs too when the run is interrupted', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort('SIGINT'), 1500);
    const samples = await runScenario(
      loadedScenario(
        {
          versions: [
            { name: 'base', path: 'longfill' },
            { name: 'head', path: 'long' },
          ],
          workload: { command: 'sh run.sh' },
          iterations: 4,
          warmup: 0,
          // Not a cgroup, whose removal would kill whatever is left in it anyway.
          isolation: 'taskset',
        },
        root,
      ),
      { signal: controller.signal, env: process.env },
    );
    expect(samples.stopReason).toBe('interrupted');
    const left = spawnSync('pgrep', ['-f', 'sleep 31.4159'], { encoding: 'utf8' }).stdout;
    expect(left.trim()).toBe('');
  });

  it('a side that cannot be spawned fails the run, naming the version', async () => {
    const samples = await run({
      versions: [
        { name: 'base', path: 'exe' },
        { name: 'head', path: 'noexe' },
      ],
      workload: { command: './run' },
    });
    expect(samples.stopReason).toBe('failed');
    expect(samples.error).toMatch(
      /\.\/run \(version head, iteration 0.*could not start: command not found/,
    );
  });

  it('a side whose timer dies fails the run, and releases the other side from the end line', async () => {
    const started = Date.now();
    const samples = await run({
      versions: [
        { name: 'base', path: 'fast' },
        { name: 'head', path: 'killer' },
      ],
      workload: { command: 'sh run.sh', keepBusy: 'spin' },
    });
    expect(samples.stopReason).toBe('failed');
    expect(samples.error).toMatch(/version head.*lost duetkit's timer/);
    // Not stuck: the base side, spinning until every side was done, was told to stop.
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('kills a command at the time limit and says so', async () => {
    const samples = await run({
      versions: [
        { name: 'base', path: 'sleepy' },
        { name: 'head', path: 'sleepy' },
      ],
      workload: { command: 'sh run.sh' },
      timeout: 1,
      warmup: 0,
    });
    expect(samples.stopReason).toBe('failed');
    expect(samples.error).toMatch(/timed out after 1 s/);
    const left = spawnSync('pgrep', ['-f', 'sleep 5.271828$'], { encoding: 'utf8' }).stdout;
    expect(left.trim()).toBe('');
  });

  it('timers and their commands end when the harness is killed outright', async () => {
    const scenario = path.join(root, 'orphans.yml');
    await writeFile(
      scenario,
      'versions:\n  - {name: base, path: longfill}\n  - {name: head, path: long}\nworkload: {command: sh run.sh, keepBusy: repeat}\niterations: 50\nwarmup: 0\n',
    );
    const child = spawn(process.execPath, ['--import', TSX, BIN, 'run', scenario, '--out', 'out'], {
      cwd: root,
      stdio: 'ignore',
    });
    const pgrep = (): string =>
      spawnSync('pgrep', ['-f', 'sleep 31.4159'], { encoding: 'utf8' }).stdout.trim();
    try {
      // The base side ends 3 s before the head side; its extra runs (`repeat`) sleep under a
      // name to look for until then.
      await waitUntil(() => pgrep() !== '', 30_000);
    } finally {
      child.kill('SIGKILL');
    }
    // The kernel tells each timer that its parent died; it kills what it started.
    await waitUntil(() => pgrep() === '', 5_000);
  });

  it("times a persistent program's round trip where it runs, through the relay", async () => {
    const samples = await withLateHarness(250, 270, () =>
      run({
        versions: [
          { name: 'base', path: 'server' },
          { name: 'head', path: 'server' },
        ],
        workload: { driver: 'persistent', command: 'sh server.sh', name: 'rt' },
      }),
    );
    expect(samples.error).toBeNull();
    expect(samples.timing).toMatchObject({
      driver: 'persistent',
      clock: 'timer',
      keepBusy: 'spin',
      staggerMs: 2,
    });
    for (const trial of samples.trials.filter((t) => !t.warmup)) {
      expect(trial.metrics[0]!.values[0]).toBeGreaterThanOrEqual(100);
      expect(trial.metrics[0]!.values[0]).toBeLessThan(140);
    }
  });

  it('in a duet the relay staggers the go lines and holds each answer until both are in', async () => {
    const samples = await run({
      versions: [
        { name: 'base', path: 'server' },
        { name: 'head', path: 'server' },
      ],
      workload: { driver: 'persistent', command: 'sh server.sh', name: 'rt', stagger: '20ms' },
    });
    expect(samples.error).toBeNull();
    const rounds = new Map<number, Trial[]>();
    for (const t of samples.trials) rounds.set(t.round, [...(rounds.get(t.round) ?? []), t]);
    for (const [a, b] of rounds.values()) {
      // One side's go 20 ms after the other's, as stamped on the programs' CPUs (each relay
      // counts from when it saw the release, which a loaded machine may delay by a little)...
      expect(Math.abs(a!.startMs - b!.startMs)).toBeGreaterThan(15);
      expect(Math.abs(a!.startMs - b!.startMs)).toBeLessThan(40);
      // ...and neither answer reached the harness before the other had been given.
      expect(Math.min(a!.seenEndMs!, b!.seenEndMs!)).toBeGreaterThanOrEqual(
        Math.max(a!.endMs, b!.endMs),
      );
    }
  });

  it('runs each CPU set from a timer of its own, kept in a pool between sides, and draws the program of each process from its copies', async () => {
    const timerPath = (await buildTimer(process.env)).path!;
    const dir = path.join(root, 'copies');
    await mkdir(dir, { recursive: true });
    for (const name of ['a', 'b', 'c'])
      await writeFile(path.join(dir, name), `#!/bin/sh\necho ${name} >> ran.log\n`, {
        mode: 0o755,
      });
    // placements that record attaches and refuse moves: a timer never changes CPU set
    const attached: number[] = [];
    const placements: Placement[] = [0, 1].map((slot) => ({
      prefix: [],
      attach: async () => {
        attached.push(slot);
      },
      move: async () => {
        throw new Error('a timer was moved');
      },
    }));
    const workload = parseScenario({
      versions: [
        { name: 'base', path: '.' },
        { name: 'head', path: '.' },
      ],
      workload: { command: [path.join(dir, 'a')] },
    }).workload;
    const pool = createTimerPool();
    const context: SideContext = {
      version: 'base',
      cwd: dir,
      env: process.env,
      placements,
      slot: 0,
      timeout: 10,
      timer: timerPath,
      keepBusy: 'off',
      seed: 11,
      isolation: {
        requested: 'none',
        kind: 'none',
        slots: ['0', '1'],
        harnessCpus: null,
        cgroup: null,
        warnings: [],
      },
      signal: never,
      timers: pool,
      programs: [path.join(dir, 'b'), path.join(dir, 'c')],
    };
    const barrier = createBarrier();
    const drawn: number[] = [];
    try {
      for (let experiment = 0; experiment < 2; experiment++) {
        // the second experiment another benchmark: the same program, another argument
        const command = [path.join(dir, 'a'), ...(experiment === 0 ? [] : ['-x'])];
        const side = await commandDriver.open({ ...workload, command }, context);
        for (let round = 0; round < 12; round++) {
          const gate = barrier.next(1);
          await side.arm({ round, slot: round % 2, gate, delayNs: 0 });
          await side.prime();
          gate.release();
          drawn.push((await side.fire(round, process.hrtime.bigint())).program!);
        }
        await side.close();
      }
    } finally {
      await pool.close();
      barrier.dispose();
    }
    // two timers for 24 steps in two CPU sets and two experiments: one per set
    expect(attached.sort()).toEqual([0, 1]);
    const ran = (await readFile(path.join(dir, 'ran.log'), 'utf8')).trim().split('\n');
    expect(ran).toHaveLength(24);
    // every process ran one of the copies, both drawn; never argv[0] itself
    expect(new Set(ran)).toEqual(new Set(['b', 'c']));
    // and each trial says which copy it ran
    expect(drawn.map((i) => ['b', 'c'][i])).toEqual(ran);
    // each command draws a sequence of its own: the same seed, another benchmark
    expect(drawn.slice(12)).not.toEqual(drawn.slice(0, 12));
  });

  it('falls back to the harness clock, and says so, when no timer can be built', async () => {
    const cache = await mkdtemp(path.join(os.tmpdir(), 'duetkit-cache-'));
    try {
      const samples = await runScenario(
        loadedScenario(
          {
            versions: [
              { name: 'base', path: 'plain' },
              { name: 'head', path: 'plain' },
            ],
            workload: { command: ['/bin/sh', 'run.sh'] },
            iterations: 2,
            warmup: 0,
            // Nothing that needs a tool from PATH (taskset), which is empty here.
            isolation: 'none',
          },
          root,
        ),
        // No compiler on this PATH (an empty directory) and a cache without a built timer.
        { signal: never, env: { ...process.env, DUETKIT_CACHE: cache, PATH: cache } },
      );
      expect(samples.error).toBeNull();
      expect(samples.timing?.clock).toBe('harness');
      expect(samples.timing?.warnings[0]).toMatch(
        /timed by the harness's clock.*no C compiler.*install a C compiler/,
      );
      for (const trial of samples.trials) {
        expect(trial.wallMs).toBeGreaterThanOrEqual(50);
        expect(trial.cpuMs).toBeUndefined();
      }
      // CPU time only the timer can take: refused, saying why and what to do.
      const cpu = await runScenario(
        loadedScenario(
          {
            versions: [
              { name: 'base', path: 'plain' },
              { name: 'head', path: 'plain' },
            ],
            workload: { command: ['/bin/sh', 'run.sh'], metric: 'cpu' },
            iterations: 2,
            isolation: 'none',
          },
          root,
        ),
        { signal: never, env: { ...process.env, DUETKIT_CACHE: cache, PATH: cache } },
      );
      expect(cpu.error).toMatch(
        /workload\.metric cpu needs the command's CPU time.*install a C compiler/,
      );
    } finally {
      await rm(cache, { recursive: true, force: true });
    }
  });
});
