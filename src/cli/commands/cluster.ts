import path from 'node:path';
import type { Command } from 'commander';
import type { ReapEntry } from '../../cluster/eks-reap.js';
import { podCpus } from '../../cluster/schema.js';
import { loadCluster } from '../../pipeline/load-cluster.js';
import {
  createStateRecorder,
  fileSaver,
  isEmpty,
  readStateFile,
  removeStateFile,
} from '../../cluster/state.js';
import { UserError } from '../../errors.js';
import { abortOnSignals } from '../../runner/signals.js';
import { loadScenarioFile } from '../../scenario/load.js';
import type { CliContext } from '../context.js';

/**
 * `duetkit cluster create|delete|reap`: the cluster lifecycle on its own — make a scenario's
 * cluster (e.g. the long-lived one of `cluster.reuse`), delete what a state file names (what
 * the action's post step does), and delete expired duetkit clusters (a scheduled workflow).
 */
export function registerCluster(program: Command, ctx: CliContext): void {
  const cluster = program
    .command('cluster')
    .description('Create, delete and reap the clusters of cluster runs (docs/cluster.md).');
  const log = (line: string): void => ctx.stderr(`cluster: ${line}\n`);

  cluster
    .command('create')
    .description(
      "Create the scenario's cluster (eks or kind) and keep it; the state file names what to delete.",
    )
    .argument('<scenario>', 'scenario file with a cluster: section')
    .option('--state <file>', 'where to record what was created', 'cluster-state.json')
    .action(async (file: string, flags: { state: string }) => {
      const loaded = await loadScenarioFile(file, ctx.cwd);
      const spec = loaded.scenario.cluster;
      if (spec === undefined) throw new UserError(`${file} has no cluster: section`);
      const stateFile = path.resolve(ctx.cwd, flags.state);
      const { newRunId, getProvider } = await loadCluster();
      const runId = newRunId();
      const state = createStateRecorder(
        { schemaVersion: 1, runId, provider: spec.provider },
        fileSaver(stateFile),
      );
      const { signal, dispose } = abortOnSignals();
      try {
        const acquired = await getProvider(spec.provider).acquire({
          spec,
          runId,
          baseDir: loaded.baseDir,
          env: ctx.env,
          signal,
          state,
          log,
          repository: ctx.env.GITHUB_REPOSITORY ?? '',
          expiresAt: new Date(Date.now() + spec.maxLifetime * 1000),
          cpus: podCpus(spec, loaded.scenario.mode),
        });
        ctx.stdout(
          `cluster ${acquired.name} is ready (${acquired.provisionSeconds} s); delete it with: duetkit cluster delete --state ${stateFile}\n`,
        );
      } finally {
        dispose();
      }
    });

  cluster
    .command('delete')
    .description(
      'Delete everything a state file names (namespace, node group, cluster, launch template).',
    )
    .requiredOption('--state <file>', 'the state file a run or `cluster create` wrote')
    .action(async (flags: { state: string }) => {
      const file = path.resolve(ctx.cwd, flags.state);
      let state;
      try {
        state = readStateFile(file);
      } catch (error) {
        throw new UserError(`--state ${flags.state}: ${(error as Error).message}`);
      }
      const { cleanUpState } = await loadCluster();
      const warnings = await cleanUpState(state, {
        env: ctx.env,
        log,
        onProgress: (s) => fileSaver(file)(s),
      });
      if (isEmpty(state)) removeStateFile(file);
      for (const warning of warnings) ctx.stderr(`warning: ${warning}\n`);
      if (warnings.length > 0) ctx.exitCode = 1;
      else ctx.stdout(`deleted everything run ${state.runId} had created\n`);
    });

  cluster
    .command('reap')
    .description(
      'Delete the expired duetkit EKS clusters (duetkit:expires-at passed) of an account and region, node groups first.',
    )
    .option('--region <region>', 'AWS region (default $AWS_REGION)')
    .option('--endpoint <url>', 'EKS API URL (tests)')
    .option('--ec2-endpoint <url>', 'EC2 API URL (tests)')
    .option('--dry-run', 'only list what would be deleted')
    .option('--json', 'print the result as JSON')
    .action(
      async (flags: {
        region?: string;
        endpoint?: string;
        ec2Endpoint?: string;
        dryRun?: boolean;
        json?: boolean;
      }) => {
        const { awsClients, regionOf, reap } = await loadCluster();
        const region = regionOf(flags.region, ctx.env);
        const clients = awsClients(
          {
            region,
            ...(flags.endpoint === undefined ? {} : { endpoint: flags.endpoint }),
            ...(flags.ec2Endpoint === undefined ? {} : { ec2Endpoint: flags.ec2Endpoint }),
          },
          ctx.env,
        );
        const entries = await reap(clients, {
          dryRun: flags.dryRun === true,
          log,
          pollMs: Number(ctx.env.DUETKIT_EKS_POLL_MS) || 15_000,
        });
        if (flags.json === true) ctx.stdout(`${JSON.stringify(entries, null, 2)}\n`);
        else ctx.stdout(renderReap(entries, region));
        if (entries.some((e) => e.outcome === 'failed')) ctx.exitCode = 1;
      },
    );
}

function renderReap(entries: ReapEntry[], region: string): string {
  if (entries.length === 0) return `no duetkit clusters in ${region}\n`;
  const lines = entries.map(
    (e) =>
      `${e.outcome.padEnd(12)} ${e.kind.padEnd(15)} ${e.name}  run ${e.runId}, expires ${e.expiresAt ?? '(no tag)'}${e.repository ? `, ${e.repository}` : ''}${e.error ? `: ${e.error}` : ''}`,
  );
  return `${lines.join('\n')}\n`;
}
