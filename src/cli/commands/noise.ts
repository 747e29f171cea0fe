import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { startNoise } from '../../noise/generator.js';
import {
  NOISE_KINDS,
  parseSchedule,
  type NoiseKind,
  type NoiseSchedule,
} from '../../noise/options.js';
import { abortOnSignals } from '../../runner/signals.js';
import type { CliContext } from '../context.js';
import { choiceParser, integerParser, parseSeconds } from '../options.js';

interface NoiseFlags {
  threads: number;
  load: number;
  duration: number;
  schedule?: NoiseSchedule;
  kind: NoiseKind;
}

export function registerNoise(program: Command, ctx: CliContext): void {
  program
    .command('noise')
    .description(
      'Steal CPU (or memory bandwidth) like a noisy neighbour: N busy threads, each capped by a duty cycle; stops after --duration or on SIGINT/SIGTERM.',
    )
    .option('--threads <n>', 'busy threads', integerParser(1, 1024), 1)
    .option('--load <share>', 'share of one CPU per thread while on, in (0, 1]', parseLoad, 1)
    .requiredOption(
      '--duration <time>',
      'stop by itself after this long: 60, 90s, 2m',
      parseSeconds,
    )
    .option('--schedule <start-stop>', 'on only in this window, like 20s-50s', parseScheduleOption)
    .option('--kind <kind>', `${NOISE_KINDS.join(' | ')}`, choiceParser(NOISE_KINDS), 'cpu')
    .action(async (flags: NoiseFlags) => {
      const { signal, dispose } = abortOnSignals();
      try {
        const noise = startNoise({
          threads: flags.threads,
          load: flags.load,
          duration: flags.duration,
          schedule: flags.schedule ?? null,
          kind: flags.kind,
        });
        const window =
          flags.schedule === undefined
            ? ''
            : `, on from ${flags.schedule.start} s to ${flags.schedule.stop} s`;
        const buffer =
          noise.bufferBytes > 0
            ? `, ${(noise.bufferBytes / 2 ** 20).toFixed(0)} MiB buffer each`
            : '';
        ctx.stderr(
          `noise: ${flags.threads} ${flags.kind} thread(s) at ${Math.round(flags.load * 100)}% for ${flags.duration} s${window}${buffer} (pid ${process.pid})\n`,
        );
        const stopOnSignal = (): void => void noise.stop();
        signal.addEventListener('abort', stopOnSignal);
        await noise.finished;
        signal.removeEventListener('abort', stopOnSignal);
        ctx.stderr(
          signal.aborted ? `noise: stopped by ${String(signal.reason)}\n` : 'noise: done\n',
        );
      } finally {
        dispose();
      }
    });
}

function parseLoad(text: string): number {
  const value = /^\s*(\d+(\.\d*)?|\.\d+)\s*%?\s*$/.test(text) ? Number.parseFloat(text) : NaN;
  const share = text.trim().endsWith('%') ? value / 100 : value;
  if (!(share > 0 && share <= 1)) {
    throw new InvalidArgumentError('Expected a share of one CPU in (0, 1], like 0.6 or 60%.');
  }
  return share;
}

function parseScheduleOption(text: string): NoiseSchedule {
  try {
    return parseSchedule(text);
  } catch (error) {
    throw new InvalidArgumentError(`${(error as Error).message.replace(/^--schedule: /, '')}.`);
  }
}
