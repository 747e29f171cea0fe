import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { parse } from 'yaml';
import { kindConfig, kindProvider } from '../../src/cluster/kind.js';
import { clusterSchema } from '../../src/cluster/schema.js';
import { createStateRecorder, type ClusterState } from '../../src/cluster/state.js';

/**
 * provider: kind. kind needs a container engine to make its node containers, and none runs
 * here (../shared/LAB-kubernetes.md), so what is tested is everything up to that point, with
 * kind's real CLI (built by .ci/setup-k8s.sh): the configuration duetkit generates is parsed
 * and validated by kind itself (it goes on to set up its network, which a `docker` stand-in
 * records and refuses; the stand-in claims to have the node image so kind does not retry a
 * pull), a broken one is refused by kind, and the provider's invocation and clean-up around a
 * failed create. Not verified here: a kind cluster actually running, the
 * kubelet patch applied inside kind's node, `kind load docker-image`.
 */
const KIND = path.resolve('.tools/k8s/bin/kind');
let dir: string;
let calls: string;

beforeAll(() => {
  if (!existsSync(KIND)) {
    throw new Error(
      `${KIND} is missing: run bash .ci/setup-k8s.sh (npm run test:all runs it first)`,
    );
  }
  dir = mkdtempSync(path.join(os.tmpdir(), 'duetkit-kind-test-'));
  calls = path.join(dir, 'docker-calls');
  // A docker stand-in that records what kind asks of it and has no images to give.
  writeFileSync(
    path.join(dir, 'docker'),
    `#!/bin/sh\necho "docker $*" >> ${calls}\ncase "$1" in\n  info) echo '{"CgroupDriver":"cgroupfs","CgroupVersion":"2","SecurityOptions":[]}'; exit 0;;\n  ps|-v|inspect) exit 0;;\n  *) echo "no container engine here: docker $1" >&2; exit 1;;\nesac\n`,
  );
  chmodSync(path.join(dir, 'docker'), 0o755);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeEach(() => rmSync(calls, { force: true }));

const env = (): NodeJS.ProcessEnv => ({ ...process.env, PATH: `${dir}:${process.env.PATH}` });

function runKind(args: string[]): { status: number; output: string } {
  try {
    return {
      status: 0,
      output: execFileSync(KIND, args, { env: env(), encoding: 'utf8', stdio: 'pipe' }),
    };
  } catch (error) {
    const e = error as { status: number; stderr: string; stdout: string };
    return { status: e.status, output: `${e.stdout}${e.stderr}` };
  }
}

it('the generated configuration: the name, the node image, the static CPU manager from k8s/', () => {
  const spec = clusterSchema.parse({
    provider: 'kind',
    kind: { nodeImage: 'kindest/node:v1.33.1' },
  });
  const config = parse(kindConfig('duetkit-abc', spec));
  expect(config).toMatchObject({
    kind: 'Cluster',
    apiVersion: 'kind.x-k8s.io/v1alpha4',
    name: 'duetkit-abc',
    nodes: [{ role: 'control-plane', image: 'kindest/node:v1.33.1' }],
  });
  const patch = parse(config.nodes[0].kubeadmConfigPatches[0]);
  const kubelet = parse(readFileSync('k8s/kubelet-cpu-manager.yaml', 'utf8'));
  expect(patch).toEqual({
    kind: 'KubeletConfiguration',
    cpuManagerPolicy: kubelet.cpuManagerPolicy,
    reservedSystemCPUs: kubelet.reservedSystemCPUs,
    cpuManagerReconcilePeriod: kubelet.cpuManagerReconcilePeriod,
  });
});

it("kind's own validation accepts the configuration (it goes on to make its network)", () => {
  const file = path.join(dir, 'good.yaml');
  writeFileSync(file, kindConfig('duetkit-good', clusterSchema.parse({ provider: 'kind' })));
  const result = runKind(['create', 'cluster', '--name', 'duetkit-good', '--config', file]);
  expect(result.status).not.toBe(0);
  expect(result.output).toMatch(/failed to ensure docker network/);
  expect(readFileSync(calls, 'utf8')).toMatch(/^docker inspect --type=image kindest\/node:/m);
});

it('and refuses a broken one before touching the engine', () => {
  const file = path.join(dir, 'bad.yaml');
  const config = parse(kindConfig('duetkit-bad', clusterSchema.parse({ provider: 'kind' })));
  config.nodes[0].role = 'boss';
  writeFileSync(file, JSON.stringify(config));
  const result = runKind(['create', 'cluster', '--name', 'duetkit-bad', '--config', file]);
  expect(result.output).toMatch(/"boss" is not a valid node role/);
  expect(readFileSync(calls, 'utf8')).not.toMatch(/docker (inspect|network)/);
});

it("the provider: a failed create is reported with kind's error, deleted, and the state cleared", async () => {
  const spec = clusterSchema.parse({ provider: 'kind', kind: { command: KIND } });
  let saved: ClusterState = { schemaVersion: 1, runId: 'k1', provider: 'kind' };
  const states: ClusterState[] = [];
  const state = createStateRecorder(saved, (s) => {
    saved = s;
    states.push(s);
  });
  const log: string[] = [];
  await expect(
    kindProvider.acquire({
      spec,
      runId: 'k1',
      baseDir: dir,
      env: env(),
      signal: new AbortController().signal,
      state,
      log: (l) => log.push(l),
      repository: '',
      expiresAt: new Date(Date.now() + 3600_000),
      cpus: 1,
    }),
  ).rejects.toThrow(
    /kind create cluster --name duetkit-k1 --config \S+ --wait 5m failed: .*failed to ensure docker network/,
  );
  // The cluster's name was saved before kind was asked, and cleared after the delete.
  expect(states.some((s) => s.kind?.name === 'duetkit-k1')).toBe(true);
  expect(saved.kind).toBeUndefined();
  const docker = readFileSync(calls, 'utf8');
  // `kind delete cluster` looked for the cluster's containers.
  expect(
    docker.match(/docker ps -a --filter label=io.x-k8s.kind.cluster=duetkit-k1/g)!.length,
  ).toBeGreaterThanOrEqual(2);
  expect(log).toContain('creating kind cluster duetkit-k1');
});

it('a missing kind command names the field and where to get it', async () => {
  const spec = clusterSchema.parse({ provider: 'kind', kind: { command: '/nonexistent/kind' } });
  const state = createStateRecorder(
    { schemaVersion: 1, runId: 'k2', provider: 'kind' },
    () => undefined,
  );
  await expect(
    kindProvider.acquire({
      spec,
      runId: 'k2',
      baseDir: dir,
      env: env(),
      signal: new AbortController().signal,
      state,
      log: () => undefined,
      repository: '',
      expiresAt: new Date(),
      cpus: 1,
    }),
  ).rejects.toThrow('cluster.kind.command: "/nonexistent/kind" is not installed');
});
