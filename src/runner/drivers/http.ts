import { startGenerator, type GeneratorProcess } from '../../load/generator-process.js';
import { phaseOutcomes, type PhaseOutcome } from '../../load/phase-metrics.js';
import { describeGenerator, planGenerator } from '../../load/placement.js';
import type { GeneratorRecord } from '../../contracts/load.js';
import { buildSchedule, phaseLength, requestTable } from '../../load/schedule.js';
import { replicaName, startServers, type ServerSet } from '../../load/servers.js';
import type { LoadSpec } from '../../scenario/service-schema.js';
import { RunError } from '../../process/errors.js';
import type { Driver, IterationResult, Side, SideContext } from './types.js';

/** Slack over a phase's own length before it counts as hung, s. */
const PHASE_SLACK_S = 30;

/**
 * The `http` driver (docs/services.md): every version's servers run for the whole experiment,
 * each in its CPU slot (moved with it when a duet swaps the slots), and one load generator
 * process, on CPUs of its own where there are any, offers each iteration's load. The sides of
 * one step share one phase: in a duet both versions get the same arrivals at the same moments
 * (requests to the two are sent back to back, in a random order per arrival), so a pair is
 * (base p99, head p99) of the same phase; in RMIT each version gets its own phase, with the
 * same schedule as the other versions' phases of that round (it comes from the seed and the
 * round).
 */
export const httpDriver: Driver = {
  name: 'http',
  open() {
    return Promise.reject(new Error('the http driver opens all versions at once (openAll)'));
  },
  async openAll(workload, contexts, opened) {
    const load = workload.load!;
    const server = workload.server!;
    try {
      requestTable(load);
      if (load.arrival !== 'closed') buildSchedule(load, 0);
    } catch (error) {
      throw new RunError(`workload.load: ${(error as Error).message}`);
    }
    const sets: ServerSet[] = [];
    const phases = new PhaseCoordinator(load, sets, contexts[0]!.seed);
    for (const [index, ctx] of contexts.entries()) {
      if (ctx.signal.aborted) throw new RunError('interrupted');
      const set = await startServers(server, {
        version: ctx.version,
        cwd: ctx.cwd,
        env: ctx.env,
        placement: ctx.placements[ctx.slot]!,
        signal: ctx.signal,
      });
      sets.push(set);
      opened(serviceSide(index, set, ctx, phases));
    }
    await phases.start(contexts[0]!);
  },
};

function serviceSide(
  index: number,
  servers: ServerSet,
  ctx: SideContext,
  phases: PhaseCoordinator,
): Side {
  let slot = ctx.slot;
  let stopping: Promise<void> | null = null;
  return {
    async arm({ slot: to }) {
      if (to !== slot) {
        await servers.move(ctx.placements[to]!);
        slot = to;
      }
      phases.arm(index);
    },
    async prime() {},
    fire: (round) => phases.fire(index, round),
    kill() {
      stopping ??= servers.stop();
      phases.kill();
    },
    async close() {
      await (stopping ??= servers.stop());
      await phases.release();
    },
    async stopped() {
      await (stopping ??= servers.stop());
      await phases.release();
    },
  };
}

/**
 * Groups the sides armed for one step into one phase of the shared generator, and hands each
 * side its own share of the result.
 */
class PhaseCoordinator {
  private generator: GeneratorProcess | null = null;
  private record: GeneratorRecord | null = null;
  private group: number[] = [];
  private running: Promise<PhaseOutcome[]> | null = null;
  private nextId = 0;
  private closing: Promise<void> | null = null;

  constructor(
    private readonly load: LoadSpec,
    private readonly sets: readonly ServerSet[],
    private readonly seed: number,
  ) {}

  async start(ctx: SideContext): Promise<void> {
    const plan = planGenerator(ctx.isolation);
    this.generator = await startGenerator(plan.prefix, process.env);
    // The ticker's last 50 µs of busy-waiting cost a few percent of a CPU at 1,000 QPS, and
    // take sends from within ~60 µs of their time (Atomics.wait's overshoot) to a few µs.
    const spin = true;
    await this.generator.request({
      type: 'configure',
      load: this.load,
      targets: this.sets.map((set) => ({
        version: set.version,
        origins: set.replicas.map((r) => r.origin),
      })),
      spin,
    });
    const cpus = this.generator.cpus();
    this.record = {
      cpus,
      ownCpus: plan.ownCpus,
      spin,
      description: describeGenerator(cpus, ctx.isolation),
    };
  }

  /** A side joins the next phase; the first arm after a phase has run starts a new group. */
  arm(index: number): void {
    if (this.running !== null) {
      this.group = [];
      this.running = null;
    }
    this.group.push(index);
  }

  async fire(index: number, round: number): Promise<IterationResult> {
    if (this.running === null) this.running = this.run(round, [...this.group]);
    const position = this.group.indexOf(index);
    const start = process.hrtime.bigint();
    const outcomes = await this.running;
    const outcome = outcomes[position]!;
    return {
      start,
      end: process.hrtime.bigint(),
      metrics: outcome.metrics,
      load: outcome.load,
      ...(outcome.invalid === undefined ? {} : { invalid: outcome.invalid }),
    };
  }

  private async run(round: number, targets: number[]): Promise<PhaseOutcome[]> {
    const generator = this.generator;
    if (generator === null) throw new RunError('interrupted');
    const limit = this.phaseLimitSeconds();
    let watchdog: NodeJS.Timeout | undefined;
    const hung = new Promise<never>((_, reject) => {
      watchdog = setTimeout(() => {
        generator.kill();
        reject(new RunError(`the load phase of iteration ${round} did not end within ${limit} s`));
      }, limit * 1000);
    });
    try {
      const result = await Promise.race([
        generator.phase({
          type: 'phase',
          id: this.nextId++,
          targets,
          seed: phaseSeed(this.seed, round),
        }),
        hung,
      ]);
      for (const i of targets) await this.sets[i]!.checkAlive();
      return phaseOutcomes(result, this.load, this.record!, round, (version, replica) => {
        const r = this.sets.find((s) => s.version === version)!.replicas[replica]!;
        return replicaName(r);
      });
    } finally {
      clearTimeout(watchdog);
    }
  }

  private phaseLimitSeconds(): number {
    return Math.ceil(phaseLength(this.load) + this.load.timeout + PHASE_SLACK_S);
  }

  kill(): void {
    this.generator?.kill();
  }

  /** Ends the generator once; every side calls it when it closes. */
  release(): Promise<void> {
    this.closing ??= this.generator?.close() ?? Promise.resolve();
    return this.closing;
  }
}

/** The seed of round `round`'s arrival schedule: the same for every version of the round. */
export function phaseSeed(seed: number, round: number): number {
  let x = (seed ^ Math.imul(round + 1, 0x9e3779b1)) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b) >>> 0;
  return (x ^ (x >>> 13)) >>> 0;
}
