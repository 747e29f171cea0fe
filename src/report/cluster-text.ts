import type { ClusterRecord } from '../contracts/cluster-record.js';

/**
 * Where a cluster run ran and what it cost, in plain sentences for the terminal and the PR
 * comment's method section. Pure.
 */
export function clusterLines(c: ClusterRecord): string[] {
  const instance = [c.instanceType, c.instanceId].filter((x) => x !== null).join(' ');
  const cpus =
    c.cpuset === null
      ? `${c.cpus} CPU${c.cpus === 1 ? '' : 's'}`
      : `${c.cpus} CPU${c.cpus === 1 ? '' : 's'} (${c.cpuset}${c.exclusive === true ? ', exclusive: static CPU manager' : ', shared with other pods'})`;
  const lines = [
    `cluster ${c.name} (${c.provider}, ${c.kept ? 'kept' : 'created for this run and deleted'}): node ${c.nodeName ?? '?'}${instance === '' ? '' : ` (${instance})`}, pod ${c.pod ?? '?'} with ${cpus}, image ${c.image}`,
  ];
  const t = c.timings;
  const timing = [
    t.provision !== null && t.provision > 0 ? `provisioning ${t.provision} s` : null,
    t.podStart === null ? null : `pod start ${t.podStart} s`,
    t.copy === null ? null : `copy in ${t.copy} s`,
    t.toFirstPair === null ? null : `first pair ${t.toFirstPair} s after the start`,
  ].filter((x) => x !== null);
  const cost =
    c.cost === null
      ? null
      : `${c.cost.nodeHours} node-hours (${c.cost.nodes} node${c.cost.nodes === 1 ? '' : 's'})` +
        (c.cost.estimate === null
          ? ''
          : `, about ${c.cost.estimate.toFixed(2)} at ${c.cost.pricePerNodeHour} per node-hour`);
  if (cost !== null || timing.length > 0) {
    lines.push(
      `cluster ${[cost === null ? null : `cost ${cost}`, ...timing].filter(Boolean).join('; ')}`,
    );
  }
  return lines;
}
