import { DeleteLaunchTemplateCommand, DescribeLaunchTemplatesCommand } from '@aws-sdk/client-ec2';
import {
  DeleteClusterCommand,
  DeleteNodegroupCommand,
  DescribeClusterCommand,
  DescribeNodegroupCommand,
  ListNodegroupsCommand,
} from '@aws-sdk/client-eks';
import {
  aws,
  awsCode,
  describeAwsError,
  describeCluster,
  isNotFound,
  pollMs,
  TAGS,
  waitFor,
  type AwsClients,
} from './eks-api.js';
import type { ClusterState } from './state.js';
import { sleep } from './pod.js';
import { ClusterError, type CleanupContext } from './types.js';

/**
 * Deletes the EKS resources a state names, in dependency order: node groups, cluster, launch
 * template; each waited for until gone. A cluster is deleted only while it carries this run's
 * `duetkit:run-id` tag. A reused cluster is kept. Returns warnings.
 */
export async function deleteEks(
  state: ClusterState,
  clients: AwsClients,
  context: CleanupContext,
): Promise<string[]> {
  const eks = state.eks;
  if (eks === undefined || eks.reuse) return [];
  const warnings: string[] = [];
  const poll = context.pollMs ?? pollMs(context.env);
  const timeoutMs = 30 * 60 * 1000;
  const progress = (): void => context.onProgress?.(state);
  if (eks.cluster !== undefined) {
    try {
      const cluster = await describeCluster(clients, eks.cluster);
      if (cluster === null) {
        context.log(`cluster ${eks.cluster}: already gone`);
      } else if (cluster.tags?.[TAGS.runId] !== state.runId) {
        warnings.push(
          `cluster ${eks.cluster} does not carry ${TAGS.runId}=${state.runId}: not deleted (not this run's)`,
        );
      } else {
        await deleteCluster(clients, eks.cluster, { ...context, pollMs: poll }, timeoutMs);
      }
      delete eks.cluster;
      delete eks.nodegroup;
      progress();
    } catch (error) {
      warnings.push(`cluster ${eks.cluster}: ${(error as Error).message}`);
    }
  }
  if (eks.launchTemplate !== undefined && eks.cluster === undefined) {
    try {
      await deleteLaunchTemplate(clients, eks.launchTemplate);
      context.log(`deleted launch template ${eks.launchTemplate}`);
      delete eks.launchTemplate;
      progress();
    } catch (error) {
      warnings.push(`launch template ${eks.launchTemplate}: ${(error as Error).message}`);
    }
  }
  return warnings;
}

/** Deletes a cluster's node groups (waiting until each is gone), then the cluster itself. */
export async function deleteCluster(
  clients: AwsClients,
  name: string,
  context: CleanupContext & { pollMs: number },
  timeoutMs: number,
): Promise<void> {
  const { eks } = clients;
  // A node group whose creation was still landing when the list was taken makes EKS refuse
  // the cluster's deletion (ResourceInUseException): list and delete again, a few times.
  for (let attempt = 1; ; attempt++) {
    await deleteNodegroups(clients, name, context, timeoutMs);
    context.log(`deleting cluster ${name}`);
    try {
      await eks.send(new DeleteClusterCommand({ name }));
      break;
    } catch (error) {
      if (isNotFound(error)) break;
      if (awsCode(error) !== 'ResourceInUseException' || attempt >= 5) {
        throw new ClusterError(describeAwsError(error));
      }
      await sleep(context.pollMs);
    }
  }
  await waitGone(`cluster ${name}`, context, timeoutMs, () =>
    eks.send(new DescribeClusterCommand({ name })).then((r) => r.cluster?.status ?? 'UNKNOWN'),
  );
}

async function deleteNodegroups(
  clients: AwsClients,
  name: string,
  context: CleanupContext & { pollMs: number },
  timeoutMs: number,
): Promise<void> {
  const { eks } = clients;
  const groups =
    (await aws('ListNodegroups', () => eks.send(new ListNodegroupsCommand({ clusterName: name }))))
      .nodegroups ?? [];
  for (const group of groups) {
    context.log(`deleting node group ${group}`);
    await gone(() =>
      eks.send(new DeleteNodegroupCommand({ clusterName: name, nodegroupName: group })),
    );
  }
  for (const group of groups) {
    await waitGone(`node group ${group}`, context, timeoutMs, () =>
      eks
        .send(new DescribeNodegroupCommand({ clusterName: name, nodegroupName: group }))
        .then((r) => r.nodegroup?.status ?? 'UNKNOWN'),
    );
  }
}

/**
 * Deletes a launch template by name. Found first with a filter (an empty answer, not an error,
 * when it is gone — moto answers a delete of a missing name with MissingParameter), then
 * deleted by id.
 */
export async function deleteLaunchTemplate(clients: AwsClients, name: string): Promise<void> {
  const found = await aws('DescribeLaunchTemplates', () =>
    clients.ec2.send(
      new DescribeLaunchTemplatesCommand({
        Filters: [{ Name: 'launch-template-name', Values: [name] }],
      }),
    ),
  );
  for (const template of found.LaunchTemplates ?? []) {
    await gone(() =>
      clients.ec2.send(
        new DeleteLaunchTemplateCommand({ LaunchTemplateId: template.LaunchTemplateId }),
      ),
    );
  }
}

/** Runs a delete call; a resource that is already gone is fine. */
async function gone(call: () => Promise<unknown>): Promise<void> {
  try {
    await call();
  } catch (error) {
    if (isNotFound(error)) return;
    throw new ClusterError(describeAwsError(error));
  }
}

/** Waits until describing the resource answers "not found". */
async function waitGone(
  what: string,
  context: CleanupContext & { pollMs: number },
  timeoutMs: number,
  status: () => Promise<string>,
): Promise<void> {
  await waitFor({
    what,
    describe: async () => {
      try {
        return await status();
      } catch (error) {
        if (isNotFound(error)) return 'GONE';
        throw new ClusterError(describeAwsError(error));
      }
    },
    status: (s) => s,
    done: (s) => s === 'GONE',
    failed: (s) => (s === 'DELETE_FAILED' || s === 'FAILED' ? `deletion ${s}` : null),
    timeoutMs,
    pollMs: context.pollMs,
    log: context.log,
  });
}
