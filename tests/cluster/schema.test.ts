import { EKSClient } from '@aws-sdk/client-eks';
import { parseScenario } from '../../src/scenario/load.js';
import { podCpus } from '../../src/cluster/schema.js';
import { podScenario } from '../../src/pipeline/pod-run.js';
import { costOf, nodeIdentity } from '../../src/cluster/record.js';
import { eksToken, TOKEN_PREFIX } from '../../src/cluster/eks-token.js';
import { nodeUserDataText } from '../../src/cluster/eks-node-config.js';
import { isEmpty } from '../../src/cluster/state.js';

const base = {
  versions: [
    { name: 'base', ref: 'main' },
    { name: 'head', ref: 'HEAD', setup: 'make' },
  ],
  workload: { command: 'make bench' },
};
const eks = {
  subnets: ['subnet-0a', 'subnet-0b'],
  clusterRole: 'arn:aws:iam::123456789012:role/c',
  nodeRole: 'arn:aws:iam::123456789012:role/n',
};

describe('the scenario cluster: field', () => {
  it('fills the defaults; without it nothing changes', () => {
    expect(parseScenario(base).cluster).toBeUndefined();
    const s = parseScenario({ ...base, cluster: { provider: 'existing' } });
    expect(s.cluster).toMatchObject({
      provider: 'existing',
      image: 'node:24-bookworm-slim',
      imagePullPolicy: 'IfNotPresent',
      memory: '2Gi',
      namespace: 'duetkit',
      maxLifetime: 7200,
    });
    expect(podCpus(s.cluster!, 'duet')).toBe(3);
    expect(podCpus(s.cluster!, 'rmit')).toBe(2);
    expect(
      parseScenario({ ...base, cluster: { provider: 'eks', eks } }).cluster?.eks,
    ).toMatchObject({
      instanceType: 'm5.xlarge',
      nodes: 1,
      amiType: 'AL2023_x86_64_STANDARD',
    });
  });

  it.each([
    [
      { provider: 'gke' },
      /cluster\.provider: got "gke"; expected one of "existing", "eks", "kind"/,
    ],
    [
      { provider: 'eks' },
      /cluster\.eks: got nothing; expected the EKS settings with provider: eks/,
    ],
    [
      { provider: 'eks', eks: { ...eks, clusterRole: 'admin' } },
      /cluster\.eks\.clusterRole: got "admin"; expected an IAM role ARN/,
    ],
    [
      { provider: 'eks', eks: { ...eks, subnets: ['subnet-0a'] } },
      /cluster\.eks\.subnets: got \["subnet-0a"\]; expected at least two subnets/,
    ],
    [
      { provider: 'existing', reuse: 'nightly' },
      /cluster\.reuse: got "nightly"; expected reuse only with provider eks or kind/,
    ],
    [{ provider: 'existing', cpus: 0 }, /cluster\.cpus: got 0/],
    [{ provider: 'existing', maxLifetime: 'forever' }, /cluster\.maxLifetime: got "forever"/],
    [
      { provider: 'existing', gpu: true },
      /cluster: unknown field "gpu"; accepted: provider, image/,
    ],
  ])('%j is refused, naming the field', (cluster, message) => {
    expect(() => parseScenario({ ...base, cluster })).toThrow(message);
  });
});

it('the scenario run inside the pod: copied directories as paths, setup kept, no cluster', () => {
  const s = parseScenario({ ...base, cluster: { provider: 'existing' } });
  const inPod = podScenario(s, [
    { name: 'base', source: { ref: 'main' }, commit: 'a', dirty: false, dir: '/tmp/x' },
    { name: 'head', source: { ref: 'HEAD' }, commit: 'b', dirty: false, dir: '/tmp/y' },
  ]) as ReturnType<typeof parseScenario>;
  expect(inPod.cluster).toBeUndefined();
  expect(inPod.versions).toEqual([
    { name: 'base', env: {}, path: '/duetkit/versions/base' },
    { name: 'head', env: {}, setup: ['make'], path: '/duetkit/versions/head' },
  ]);
  // It is a valid scenario as it stands.
  expect(parseScenario(inPod).versions[1]!.path).toBe('/duetkit/versions/head');
});

it("node identity from the cloud's providerID and labels; cost in node-hours", () => {
  expect(
    nodeIdentity({
      metadata: { labels: { 'node.kubernetes.io/instance-type': 'm5.xlarge' } },
      spec: { providerID: 'aws:///us-east-1a/i-0abc123' },
      status: { capacity: { cpu: '4' } },
    }),
  ).toEqual({ instanceId: 'i-0abc123', instanceType: 'm5.xlarge', cpus: 4 });
  expect(nodeIdentity({ metadata: {}, spec: {} })).toEqual({
    instanceId: null,
    instanceType: null,
    cpus: null,
  });
  const cost = costOf(2, new Date(0), new Date(90 * 60_000), 0.192);
  expect(cost).toEqual({ nodes: 2, nodeHours: 3, estimate: 0.576, pricePerNodeHour: 0.192 });
});

it('an EKS token is k8s-aws-v1. + the base64url of a presigned STS GetCallerIdentity URL', async () => {
  const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' };
  const sha256 = new EKSClient({ region: 'eu-west-1', credentials }).config.sha256;
  const token = await eksToken(
    'my-cluster',
    { region: 'eu-west-1', credentials, sha256 },
    new Date('2026-01-02T03:04:05Z'),
  );
  expect(token.startsWith(TOKEN_PREFIX)).toBe(true);
  expect(token).not.toMatch(/[=+/]/);
  const url = new URL(Buffer.from(token.slice(TOKEN_PREFIX.length), 'base64url').toString());
  expect(url.host).toBe('sts.eu-west-1.amazonaws.com');
  expect(Object.fromEntries(url.searchParams)).toMatchObject({
    Action: 'GetCallerIdentity',
    Version: '2011-06-15',
    'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
    'X-Amz-Credential': 'AKIDEXAMPLE/20260102/eu-west-1/sts/aws4_request',
    'X-Amz-Date': '20260102T030405Z',
    'X-Amz-Expires': '60',
    'X-Amz-SignedHeaders': 'host;x-k8s-aws-id',
    'X-Amz-Signature': expect.stringMatching(/^[0-9a-f]{64}$/),
  });
});

it('the launch template user data: a MIME part of type application/node.eks.aws', () => {
  const text = nodeUserDataText();
  expect(text).toMatch(
    /^MIME-Version: 1\.0\nContent-Type: multipart\/mixed; boundary="(.+)"\n\n--\1\nContent-Type: application\/node\.eks\.aws\n\napiVersion: node\.eks\.aws\/v1alpha1\nkind: NodeConfig\n/,
  );
  expect(text).toMatch(/--DUETKIT-NODECONFIG--\n$/);
});

it('a state with nothing left to delete is empty; a reused cluster is kept', () => {
  expect(
    isEmpty({ schemaVersion: 1, runId: 'r', provider: 'eks', eks: { region: 'x', reuse: false } }),
  ).toBe(true);
  expect(
    isEmpty({
      schemaVersion: 1,
      runId: 'r',
      provider: 'eks',
      eks: { region: 'x', reuse: false, cluster: 'c' },
    }),
  ).toBe(false);
  expect(
    isEmpty({
      schemaVersion: 1,
      runId: 'r',
      provider: 'eks',
      eks: { region: 'x', reuse: true, cluster: 'c' },
    }),
  ).toBe(true);
  expect(
    isEmpty({ schemaVersion: 1, runId: 'r', provider: 'existing', namespace: { name: 'n' } }),
  ).toBe(false);
});
