import { DescribeLaunchTemplatesCommand } from '@aws-sdk/client-ec2';
import { DescribeClusterCommand, paginateListClusters } from '@aws-sdk/client-eks';
import { describeAwsError, isNotFound, type AwsClients } from './eks-api.js';
import { deleteCluster, deleteLaunchTemplate } from './eks-delete.js';
import { TAGS } from './eks-api.js';

/** One duetkit resource `reap` looked at. */
export interface ReapEntry {
  kind: 'cluster' | 'launch-template';
  name: string;
  runId: string;
  repository: string | null;
  expiresAt: string | null;
  /** `deleted`, `would delete` (dry run), `kept` (not expired), or the error. */
  outcome: 'deleted' | 'would delete' | 'kept' | 'failed';
  error?: string;
}

/**
 * `duetkit cluster reap`: deletes every duetkit cluster of the account and region whose
 * `duetkit:expires-at` has passed (node groups first, then the cluster), and expired launch
 * templates (never a live run's: it is made before the cluster). Resources without duetkit's tags are never touched. A tag that
 * cannot be read as a time counts as expired: a leak is worse than a lost cluster that was
 * never meant to live.
 */
export async function reap(
  clients: AwsClients,
  options: { dryRun: boolean; now?: Date; log: (line: string) => void; pollMs: number },
): Promise<ReapEntry[]> {
  const now = options.now ?? new Date();
  const entries: ReapEntry[] = [];
  for await (const page of paginateListClusters({ client: clients.eks }, {})) {
    for (const name of page.clusters ?? []) {
      let cluster;
      try {
        cluster = (await clients.eks.send(new DescribeClusterCommand({ name }))).cluster;
      } catch (error) {
        if (isNotFound(error)) continue;
        throw error;
      }
      const tags = cluster?.tags ?? {};
      if (tags[TAGS.runId] === undefined) continue;
      const entry = entryOf('cluster', name, tags, now);
      entries.push(entry);
      if (entry.outcome === 'kept' || options.dryRun) continue;
      try {
        await deleteCluster(
          clients,
          name,
          { env: {}, log: options.log, pollMs: options.pollMs },
          30 * 60 * 1000,
        );
        entry.outcome = 'deleted';
        options.log(`reaped cluster ${name} (expired ${entry.expiresAt ?? 'unknown'})`);
      } catch (error) {
        entry.outcome = 'failed';
        entry.error = (error as Error).message;
      }
    }
  }
  const templates = await clients.ec2.send(
    new DescribeLaunchTemplatesCommand({ Filters: [{ Name: 'tag-key', Values: [TAGS.runId] }] }),
  );
  for (const template of templates.LaunchTemplates ?? []) {
    const tags = Object.fromEntries((template.Tags ?? []).map((t) => [t.Key!, t.Value ?? '']));
    const entry = entryOf('launch-template', template.LaunchTemplateName!, tags, now);
    entries.push(entry);
    if (entry.outcome === 'kept' || options.dryRun) continue;
    try {
      await deleteLaunchTemplate(clients, entry.name);
      entry.outcome = 'deleted';
      options.log(`reaped launch template ${entry.name}`);
    } catch (error) {
      entry.outcome = 'failed';
      entry.error = describeAwsError(error);
    }
  }
  return entries;
}

function entryOf(
  kind: ReapEntry['kind'],
  name: string,
  tags: Record<string, string>,
  now: Date,
): ReapEntry {
  const expiresAt = tags[TAGS.expiresAt] ?? null;
  const time = expiresAt === null ? NaN : Date.parse(expiresAt);
  const expired = !Number.isFinite(time) || time <= now.getTime();
  return {
    kind,
    name,
    runId: tags[TAGS.runId] ?? '',
    repository: tags[TAGS.repository] ?? null,
    expiresAt,
    outcome: expired ? 'would delete' : 'kept',
  };
}
