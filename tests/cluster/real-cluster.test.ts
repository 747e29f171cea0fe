import { jest } from '@jest/globals';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { EKSClient } from '@aws-sdk/client-eks';
import {
  CoreV1Api,
  KubernetesObjectApi,
  RbacAuthorizationV1Api,
  type KubernetesObject,
} from '@kubernetes/client-node';
import { SignatureV4 } from '@smithy/signature-v4';
import { createKube } from '../../src/cluster/kube.js';
import {
  benchJobManifest,
  loadManifests,
  loadGeneratorManifest,
  namespaceManifest,
} from '../../src/cluster/manifests.js';
import { eksKubeConfig, TOKEN_PREFIX } from '../../src/cluster/eks-token.js';
import { runInCluster, type ClusterRunOptions } from '../../src/pipeline/cluster-run.js';
import { analyzeSamples } from '../../src/analyze/analyze.js';
import { describeReport } from '../../src/report/terminal.js';
import { parseScenario } from '../../src/scenario/load.js';
import type { SamplesFile } from '../../src/contracts/samples.js';
import { bundleCli } from '../support/k8s/bundle.js';
import {
  INSTANCE_TYPE,
  NODE_IMAGE,
  ROOT,
  startCluster,
  type TestCluster,
} from '../support/k8s/cluster.js';
import { cleanUpCluster } from '../../src/action/cleanup.js';

/**
 * Cluster runs on a real single-node Kubernetes (tests/support/k8s/cluster.ts: the static CPU
 * manager, containerd, runc), one cluster for every case of this file. Each run goes through
 * the real API: namespace and Job from k8s/, code and bundle copied in by exec, duetkit's runner
 * in the pod, samples copied back, namespace deleted.
 */
jest.setTimeout(120_000);

let cluster: TestCluster;
let work: string;
let bundle: string;
const lines: string[] = [];

beforeAll(async () => {
  work = mkdtempSync(path.join(os.tmpdir(), 'duetkit-cluster-test-'));
  bundle = await bundleCli(path.join(work, 'bundle'));
  cluster = await startCluster();
}, 180_000);

afterAll(async () => {
  await cluster?.stop();
  rmSync(work, { recursive: true, force: true });
});

/** A scenario in `work`, run against the test cluster with the admin kubeconfig. */
function scenarioOf(extra: Record<string, unknown>, cluster$: Record<string, unknown> = {}) {
  return parseScenario({
    name: 'cluster-test',
    versions: [
      { name: 'base', path: path.join(ROOT, 'examples/quickstart/base') },
      { name: 'head', path: path.join(ROOT, 'examples/quickstart/head') },
    ],
    workload: { command: 'node bench.js', format: 'jsonl' },
    iterations: 3,
    warmup: 0,
    ...extra,
    cluster: {
      provider: 'existing',
      image: NODE_IMAGE,
      imagePullPolicy: 'Never',
      cpus: 1,
      existing: { kubeconfig: cluster.kubeconfigFile },
      ...cluster$,
    },
  });
}

async function run(
  scenario: ReturnType<typeof parseScenario>,
  options: Partial<ClusterRunOptions> & { baseDir?: string } = {},
): Promise<SamplesFile> {
  lines.length = 0;
  return runInCluster(
    { scenario, file: null, baseDir: options.baseDir ?? work },
    {
      signal: new AbortController().signal,
      env: { ...process.env },
      bundleDir: bundle,
      pollMs: 200,
      unschedulableMs: 3000,
      log: (line) => lines.push(line),
      ...options,
    },
  );
}

async function namespaceGone(name: string): Promise<boolean> {
  return !(await createKube(cluster.kubeConfig()).namespaceExists(name));
}

it('every template in k8s/ is accepted by the API server (server-side dry run)', async () => {
  const objects = cluster.kubeConfig().makeApiClient(KubernetesObjectApi);
  const ns = namespaceManifest('duetkit-dry-run', 'dry-run', new Date());
  const documents: KubernetesObject[] = [
    ns,
    {
      ...benchJobManifest({
        runId: 'dry-run',
        image: NODE_IMAGE,
        imagePullPolicy: 'Never',
        cpus: 3,
        memory: '2Gi',
        deadlineSeconds: 60,
        nodeSelector: {},
        seed: 1,
      }),
      metadata: {
        name: 'duetkit-bench',
        namespace: 'default',
        labels: { 'duetkit.dev/run-id': 'dry-run' },
      },
    },
    {
      ...loadGeneratorManifest({
        runId: 'dry-run',
        name: 'load',
        image: NODE_IMAGE,
        command: ['sleep', '1'],
        cpus: 1,
        memory: '64Mi',
      }),
      metadata: { name: 'load', namespace: 'default' },
    },
    ...(loadManifests('rbac.yaml') as KubernetesObject[]),
  ];
  for (const doc of documents) {
    await expect(objects.create(doc, undefined, 'All')).resolves.toBeDefined();
  }
  // The kubelet runs k8s/kubelet-cpu-manager.yaml: CPU 0 reserved, 1 allocatable.
  const node = await cluster
    .kubeConfig()
    .makeApiClient(CoreV1Api)
    .readNode({ name: cluster.nodeName });
  expect(node.status?.allocatable?.cpu).toBe(String(os.cpus().length - 1));
});

it('a duet Job: exclusive CPU seen from inside the pod, samples back, analysed like runner results, namespace deleted', async () => {
  let sharedPool: string | null = null;
  let placed: Promise<string> | null = null;
  const core = cluster.kubeConfig().makeApiClient(CoreV1Api);
  const samples = await run(scenarioOf({ mode: 'duet' }), {
    log: (line) => {
      lines.push(line);
      // While the pod runs, the kubelet's CPU manager keeps CPU 1 out of the shared pool.
      if (line.startsWith('running the benchmark')) {
        const state = JSON.parse(
          readFileSync(path.join(cluster.dir, 'kubelet/cpu_manager_state'), 'utf8'),
        );
        sharedPool = state.defaultCpuSet;
        // A load generator is never placed beside the duet pod (k8s/load-generator.yaml).
        const namespace = lines[0]!.split(' ')[1]!;
        const load = loadGeneratorManifest({
          runId: 'x',
          name: 'load',
          image: NODE_IMAGE,
          command: ['sleep', '60'],
          cpus: 1,
          memory: '16Mi',
        });
        // BestEffort, so that only its placement rule can keep it off the node.
        load.spec!.containers[0]!.resources = {};
        load.spec!.containers[0]!.imagePullPolicy = 'Never';
        placed = core.createNamespacedPod({ namespace, body: load }).then(async () => {
          for (let i = 0; i < 50; i++) {
            const pod = await core.readNamespacedPod({ namespace, name: 'load' });
            const scheduled = pod.status?.conditions?.find((c) => c.type === 'PodScheduled');
            if (scheduled?.status === 'False') return scheduled.message ?? '';
            if (scheduled?.status === 'True') return 'scheduled beside the duet pod';
            await new Promise((r) => setTimeout(r, 100));
          }
          return 'no decision';
        });
      }
    },
  });
  expect(samples.error).toBeNull();
  expect(samples.complete).toBe(true);
  expect(samples.trials).toHaveLength(2 * 3);
  expect(samples.cluster).toMatchObject({
    provider: 'existing',
    nodeName: cluster.nodeName,
    instanceType: INSTANCE_TYPE,
    instanceId: cluster.nodeName,
    cpus: 1,
    cpuset: '1',
    exclusive: true,
    kept: true,
  });
  expect(sharedPool).toBe('0');
  expect(await placed).toMatch(/didn't match pod anti-affinity rules/);
  // Inside the pod the runner saw one CPU for two sides, and says so.
  expect(samples.isolation.kind).toBe('none');
  expect(samples.isolation.warnings.join(' ')).toMatch(/2 disjoint CPU sets need 2 CPUs/);
  const report = analyzeSamples(samples);
  expect(report.cluster?.nodeName).toBe(cluster.nodeName);
  expect(report.results.map((r) => r.benchmark).sort()).toEqual(['checksum', 'sort']);
  const text = describeReport(report);
  expect(text).toContain(`node ${cluster.nodeName}`);
  expect(text).toContain('exclusive: static CPU manager');
  expect(await namespaceGone(samples.cluster!.namespace)).toBe(true);
});

it('an RMIT Job with the RBAC of k8s/rbac.yaml only (a ServiceAccount token)', async () => {
  const config = cluster.kubeConfig();
  const objects = config.makeApiClient(KubernetesObjectApi);
  for (const doc of loadManifests('rbac.yaml') as KubernetesObject[]) await objects.create(doc);
  const token = await config.makeApiClient(CoreV1Api).createNamespacedServiceAccountToken({
    namespace: 'kube-system',
    name: 'duetkit-runner',
    body: { spec: { expirationSeconds: 600 } } as never,
  });
  const file = path.join(work, 'runner.kubeconfig');
  writeFileSync(
    file,
    readFileSync(cluster.kubeconfigFile, 'utf8').replace(cluster.adminToken, token.status!.token!),
  );
  // Git refs this time: checked out as worktrees here, copied without .git.
  const refs = scenarioOf(
    {
      mode: 'rmit',
      versions: [
        { name: 'base', ref: 'HEAD', dir: 'examples/quickstart/base' },
        { name: 'head', ref: 'HEAD', dir: 'examples/quickstart/head' },
      ],
    },
    { existing: { kubeconfig: file } },
  );
  const samples = await run(refs, { baseDir: ROOT });
  expect(samples.error).toBeNull();
  expect(samples.mode).toBe('rmit');
  expect(samples.versions.map((v) => v.commit)).toEqual([
    expect.stringMatching(/^[0-9a-f]{40}$/),
    expect.stringMatching(/^[0-9a-f]{40}$/),
  ]);
  expect(samples.trials).toHaveLength(2 * 3);
  expect(samples.isolation).toMatchObject({ kind: 'taskset', slots: ['1'] });
  expect(samples.cluster?.exclusive).toBe(true);

  // Without the binding the same identity gets a clear error, and nothing is left.
  await config
    .makeApiClient(RbacAuthorizationV1Api)
    .deleteClusterRoleBinding({ name: 'duetkit-runner' });
  const refused = await run(scenarioOf({ mode: 'rmit' }, { existing: { kubeconfig: file } }));
  expect(refused.complete).toBe(false);
  expect(refused.error).toMatch(
    /could not create the namespace at https:\/\/127\.0\.0\.1:\d+: HTTP 403: .*forbidden/,
  );
});

it('a missing image ends in an error naming it, and the namespace is deleted', async () => {
  const samples = await run(scenarioOf({}, { image: 'localhost/no-such-image:1' }));
  expect(samples.complete).toBe(false);
  expect(samples.error).toMatch(
    /cluster\.image "localhost\/no-such-image:1" cannot be started on node duetkit-node: ErrImageNeverPull/,
  );
  expect(await namespaceGone(samples.cluster!.namespace)).toBe(true);
});

it('more CPUs than the node has: unschedulable, named, and cleaned up', async () => {
  const samples = await run(scenarioOf({}, { cpus: 3 }));
  expect(samples.error).toMatch(
    /no node can run the benchmark pod \(3 whole CPUs, cluster\.cpus\): .*Insufficient cpu/,
  );
  expect(await namespaceGone(samples.cluster!.namespace)).toBe(true);
});

/** A scenario whose iterations take long enough to do something to the pod meanwhile. */
function slowScenario(cluster$: Record<string, unknown> = {}) {
  return scenarioOf(
    { mode: 'rmit', workload: { command: 'sleep 30' }, iterations: 5, timeout: 60 },
    cluster$,
  );
}

it('the Job passes its deadline (cluster.maxLifetime): a clear error, namespace deleted', async () => {
  const samples = await run(slowScenario({ maxLifetime: 12 }));
  expect(samples.complete).toBe(false);
  expect(samples.error).toMatch(
    /passed its deadline of \d+ s \(cluster\.maxLifetime|benchmark pod failed: DeadlineExceeded/,
  );
  expect(await namespaceGone(samples.cluster!.namespace)).toBe(true);
});

it('an evicted pod: a clear error, namespace deleted', async () => {
  const core = cluster.kubeConfig().makeApiClient(CoreV1Api);
  const samples = await run(slowScenario(), {
    log: (line) => {
      lines.push(line);
      // Mid-run: once duetkit runs in the pod.
      const pod = lines.map((l) => /^pod (\S+) on node/.exec(l)?.[1]).find(Boolean);
      if (line.startsWith('running the benchmark') && pod !== undefined) {
        const namespace = lines[0]!.split(' ')[1]!;
        void core.createNamespacedPodEviction({
          namespace,
          name: pod,
          body: { metadata: { name: pod, namespace } },
        });
      }
    },
  });
  expect(samples.complete).toBe(false);
  expect(samples.error).toMatch(
    /the benchmark pod duetkit-bench-\w+ was evicted or disrupted by Kubernetes \(EvictionByEvictionAPI/,
  );
  expect(await namespaceGone(samples.cluster!.namespace)).toBe(true);
});

it('the API server unreachable mid-run: a clear error, and the namespace deleted once it is back', async () => {
  let restarted: Promise<void> | null = null;
  const samples = await run(slowScenario(), {
    unreachableMs: 2000,
    cleanupMs: 90_000,
    log: (line) => {
      lines.push(line);
      if (line.startsWith('running the benchmark')) void cluster.stopApiServer();
      if (line.startsWith('the API server is unreachable') && restarted === null) {
        restarted = cluster.startApiServer();
      }
    },
  });
  await restarted;
  expect(samples.complete).toBe(false);
  expect(samples.error).toMatch(
    /the Kubernetes API server at https:\/\/127\.0\.0\.1:\d+ has been unreachable for \d+ s/,
  );
  expect(await namespaceGone(samples.cluster!.namespace)).toBe(true);
});

it("the action's post step deletes the namespace a killed run left, with the kubeconfig input", async () => {
  const kube = createKube(cluster.kubeConfig());
  await kube.createNamespace(namespaceManifest('duetkit-killed', 'killed', new Date()));
  const state = {
    schemaVersion: 1,
    runId: 'killed',
    provider: 'existing',
    namespace: { name: 'duetkit-killed' },
  };
  const warnings = await cleanUpCluster(
    JSON.stringify(state),
    readFileSync(cluster.kubeconfigFile, 'utf8'),
  );
  expect(warnings).toEqual([]);
  expect(await kube.namespaceExists('duetkit-killed')).toBe(false);
});

it("EKS's token path: a k8s-aws-v1. token signed with the SDK's signer authenticates at the real API server", async () => {
  const credentials = { accessKeyId: 'AKIDDUETKITTEST', secretAccessKey: 'duetkit-test-secret' };
  const region = 'us-east-1';
  const sha256 = new EKSClient({ region, credentials }).config.sha256;
  const reviews: string[] = [];
  // The authenticator EKS runs, in small: it replays nothing, but checks what STS would
  // check — the SigV4 signature of the presigned GetCallerIdentity URL, its expiry, and the
  // cluster name in the signed x-k8s-aws-id header — then answers the TokenReview.
  const webhook = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', async () => {
      const review = JSON.parse(body) as { spec: { token: string } };
      const verdict = await verifyEksToken(
        review.spec.token,
        'duetkit-token-test',
        credentials,
        region,
        sha256,
      );
      reviews.push(verdict ?? 'ok');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          apiVersion: 'authentication.k8s.io/v1',
          kind: 'TokenReview',
          status:
            verdict === null
              ? {
                  authenticated: true,
                  user: {
                    username: 'arn:aws:sts::123456789012:assumed-role/duetkit/ci',
                    groups: ['system:masters'],
                  },
                }
              : { authenticated: false, error: verdict },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => webhook.listen(cluster.webhookPort, '127.0.0.1', resolve));
  try {
    const config = (name: string) =>
      eksKubeConfig({
        cluster: name,
        endpoint: cluster.server,
        caData: Buffer.from(cluster.caPem).toString('base64'),
        source: { region, credentials, sha256 },
      });
    const kube = createKube(config('duetkit-token-test'));
    expect(await kube.namespaceExists('default')).toBe(true);
    expect(reviews).toContain('ok');
    // A token for another cluster is refused by the authenticator, hence by the server.
    const other = createKube(config('another-cluster'));
    await expect(other.namespaceExists('default')).rejects.toThrow(/401|Unauthorized/);
    expect(reviews.some((r) => r.includes('x-k8s-aws-id'))).toBe(true);
  } finally {
    await new Promise<void>((resolve) => webhook.close(() => resolve()));
  }
});

/** What EKS's authenticator checks of a token; null when it is good, else why not. */
async function verifyEksToken(
  token: string,
  clusterName: string,
  credentials: { accessKeyId: string; secretAccessKey: string },
  region: string,
  sha256: ConstructorParameters<typeof SignatureV4>[0]['sha256'],
): Promise<string | null> {
  if (!token.startsWith(TOKEN_PREFIX)) return 'not a k8s-aws-v1. token';
  const url = new URL(Buffer.from(token.slice(TOKEN_PREFIX.length), 'base64url').toString());
  if (url.hostname !== `sts.${region}.amazonaws.com`) return `wrong host ${url.hostname}`;
  const q = Object.fromEntries(url.searchParams);
  if (q.Action !== 'GetCallerIdentity') return 'not GetCallerIdentity';
  if (!q['X-Amz-SignedHeaders']?.split(';').includes('x-k8s-aws-id'))
    return 'x-k8s-aws-id not signed';
  const date = q['X-Amz-Date']!;
  const signedAt = Date.UTC(
    +date.slice(0, 4),
    +date.slice(4, 6) - 1,
    +date.slice(6, 8),
    +date.slice(9, 11),
    +date.slice(11, 13),
    +date.slice(13, 15),
  );
  if (Date.now() - signedAt > 15 * 60 * 1000) return 'expired';
  const signer = new SignatureV4({
    credentials,
    region,
    service: 'sts',
    sha256,
    uriEscapePath: true,
  });
  const expected = await signer.presign(
    {
      method: 'GET',
      protocol: 'https:',
      hostname: url.hostname,
      path: '/',
      query: { Action: 'GetCallerIdentity', Version: q.Version! },
      headers: { host: url.hostname, 'x-k8s-aws-id': clusterName },
    },
    { expiresIn: Number(q['X-Amz-Expires']), signingDate: new Date(signedAt) },
  );
  return expected.query?.['X-Amz-Signature'] === q['X-Amz-Signature']
    ? null
    : 'signature does not match (x-k8s-aws-id names another cluster?)';
}

it('leaves nothing behind after stop: no processes, bridge, rule or kubepods cgroups', async () => {
  const dir = cluster.dir;
  await cluster.stop();
  expect(existsSync(dir)).toBe(false);
  const { execFileSync } = await import('node:child_process');
  expect(execFileSync('ip', ['-o', 'link'], { encoding: 'utf8' })).not.toMatch(/dknode0|dkcni0/);
  expect(execFileSync('iptables', ['-S', 'INPUT'], { encoding: 'utf8' })).not.toContain(
    '10.200.0.1',
  );
  // Nor the kubelet's own chains (KUBE-FIREWALL in INPUT and OUTPUT, the canaries).
  for (const command of ['iptables', 'ip6tables']) {
    for (const table of ['filter', 'nat', 'mangle']) {
      expect(execFileSync(command, ['-t', table, '-S'], { encoding: 'utf8' })).not.toMatch(/KUBE-/);
    }
  }
  expect(existsSync('/sys/fs/cgroup/cpu/kubepods')).toBe(false);
  expect(readFileSync('/proc/mounts', 'utf8')).not.toContain(dir);
});
