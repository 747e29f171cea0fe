import { cpuShare, startNoiseProcess } from './helpers.js';

// The machine is shared (other jobs compile and test on both CPUs). A duty cycle ends its busy
// part by the wall clock, so a preempted thread uses *less* than its share, never more: the
// upper bound is robust and kept tight (load + 0.1, the 0.1 covering the main thread, GC and
// the 10 ms tick granularity of /proc). The lower bound only holds if the scheduler lets the
// thread run; CFS gives a thread that sleeps half the time its full share unless more than
// about two other runnable tasks compete per CPU, so it is kept loose (half the load).
describe('duetkit noise (measured from /proc/<pid>/stat)', () => {
  it('uses about the CPU share asked for, never more', async () => {
    const noise = await startNoiseProcess(['--threads', '1', '--load', '0.5', '--duration', '6s']);
    const share = await cpuShare(noise.child.pid!, noise.startedAt, 1000, 4000);
    expect(share).toBeLessThanOrEqual(0.5 + 0.1);
    expect(share).toBeGreaterThanOrEqual(0.25);
    expect(await noise.exited).toBe(0);
    expect(noise.stderr()).toMatch(/1 cpu thread\(s\) at 50% for 6 s/);
    expect(noise.stderr()).toMatch(/noise: done/);
  });

  it('is off before and after its schedule and on inside it', async () => {
    const noise = await startNoiseProcess([
      '--threads',
      '1',
      '--load',
      '1',
      '--duration',
      '5s',
      '--schedule',
      '2s-4s',
      '--kind',
      'memory',
    ]);
    const pid = noise.child.pid!;
    const before = await cpuShare(pid, noise.startedAt, 300, 1600);
    const during = await cpuShare(pid, noise.startedAt, 2400, 3600);
    const after = await cpuShare(pid, noise.startedAt, 4200, 4800);
    expect(before).toBeLessThan(0.15);
    expect(during).toBeGreaterThan(0.4);
    expect(during).toBeLessThanOrEqual(1.1);
    expect(after).toBeLessThan(0.15);
    expect(noise.stderr()).toMatch(/MiB buffer each/);
    expect(await noise.exited).toBe(0);
  });

  it('stops promptly on SIGTERM', async () => {
    const noise = await startNoiseProcess(['--threads', '2', '--load', '0.6', '--duration', '60s']);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const t0 = performance.now();
    noise.child.kill('SIGTERM');
    expect(await noise.exited).toBe(0);
    expect(performance.now() - t0).toBeLessThan(1500);
    expect(noise.stderr()).toMatch(/stopped by SIGTERM/);
  });

  it('names the option and the accepted values on bad input', async () => {
    await expect(startNoiseProcess(['--duration', '5s', '--load', '1.5'])).rejects.toThrow(
      /--load <share>' argument '1.5' is invalid. Expected a share of one CPU in \(0, 1\]/,
    );
    await expect(startNoiseProcess(['--duration', '5s', '--schedule', '50s-20s'])).rejects.toThrow(
      /expected START-STOP with STOP after START, like 20s-50s/,
    );
  });
});
