import type { Command } from 'commander';
import { assessDoctor } from '../../doctor/assess.js';
import { probeDoctor } from '../../doctor/probe.js';
import { renderDoctorText } from '../../doctor/render.js';
import type { CliContext } from '../context.js';

export function registerDoctor(program: Command, ctx: CliContext): void {
  program
    .command('doctor')
    .description(
      'Say what duetkit can use on this machine, and why not: cgroups, sudo, exclusive CPUs, the CPU topology and plan, perf, the command timer, the clock source, and the isolation a duet would get.',
    )
    .option('--json', 'print what was probed and the findings as JSON')
    .action(async (flags: { json?: boolean }) => {
      const probe = await probeDoctor({ env: ctx.env });
      const findings = assessDoctor(probe);
      ctx.stdout(
        flags.json === true
          ? `${JSON.stringify({ probe, findings }, null, 2)}\n`
          : renderDoctorText(findings),
      );
    });
}
