import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { stringify } from 'yaml';
import { cpuManagerSettings } from '../../../src/cluster/manifests.js';
import { DEFAULT_IMAGE } from '../../../src/cluster/schema.js';
import { buildImageTar, importImage } from './image.js';

/**
 * A real single-node Kubernetes for the cluster tests, "the hard way" as in
 * ../shared/LAB-kubernetes.md: etcd, kube-apiserver, kube-controller-manager, kube-scheduler
 * and a kubelet with the static CPU manager (k8s/kubelet-cpu-manager.yaml), on containerd and
 * runc with a bridge CNI, all bound to this machine. The binaries come from .ci/setup-k8s.sh.
 * `stop()` undoes everything: processes (in the order that lets each exit), mounts, cgroups,
 * bridges and the iptables rule — also after a failed start.
 */
export const ROOT = path.resolve(import.meta.dirname, '../../..');
export const BIN = path.join(ROOT, '.tools/k8s/bin');
const NODE_IP = '10.200.0.1';
const NODE_BRIDGE = 'dknode0';
const CNI_BRIDGE = 'dkcni0';
const NODE_NAME = 'duetkit-node';
/** The test node's instance-type label (this machine: 2 vCPUs). */
export const INSTANCE_TYPE = 'local-2vcpu';
export const PAUSE_IMAGE = 'localhost/duetkit-pause:test';
export const NODE_IMAGE = 'localhost/duetkit-node:test';
/** duetkit's default `cluster.image`, as containerd names it. */
const DEFAULT_IMAGE_REF = `docker.io/library/${DEFAULT_IMAGE}`;

export interface TestCluster {
  dir: string;
  server: string;
  /** Admin bearer token (system:masters). */
  adminToken: string;
  /** The CA of the API server's certificate (PEM). */
  caPem: string;
  containerdSocket: string;
  nodeName: string;
  /** The port the token webhook must listen on (kube-apiserver asks it about unknown tokens). */
  webhookPort: number;
  kubeConfig(token?: string): KubeConfig;
  /** A kubeconfig file for the admin, for `cluster.existing.kubeconfig`. */
  kubeconfigFile: string;
  /** Kills the API server (the "unreachable" failure) and starts it again. */
  stopApiServer(): Promise<void>;
  startApiServer(): Promise<void>;
  stop(): Promise<void>;
  log(name: string): string;
}

export function requireBinaries(): void {
  const missing = [
    'kube-apiserver',
    'kube-controller-manager',
    'kube-scheduler',
    'kubelet',
    'etcd',
    'pause',
  ].filter((b) => !existsSync(path.join(BIN, b)));
  if (missing.length > 0) {
    throw new Error(
      `${missing.join(', ')} missing in ${BIN}: run bash .ci/setup-k8s.sh (npm run test:all runs it first)`,
    );
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

function sh(cmd: string, args: string[], quiet = false): string {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    if (quiet) return '';
    throw error;
  }
}

const PREFIX = path.join(os.tmpdir(), 'duetkit-k8s-');

export async function startCluster(): Promise<TestCluster> {
  requireBinaries();
  await waitForOtherClusters();
  const dir = mkdtempSync(PREFIX);
  writeFileSync(path.join(dir, 'owner.pid'), String(process.pid));
  const procs = new Map<string, ChildProcess>();
  const logFile = (name: string): string => path.join(dir, `${name}.log`);
  const launch = (name: string, cmd: string, args: string[]): ChildProcess => {
    const out = openSync(logFile(name), 'a');
    const child = spawn(cmd, args, { stdio: ['ignore', out, out], detached: true });
    procs.set(name, child);
    return child;
  };
  const ports = await Promise.all(Array.from({ length: 6 }, freePort));
  const [etcdPort, etcdPeer, apiPort, kubeletPort, healthzPort, webhookPort] = ports as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const server = `https://127.0.0.1:${apiPort}`;
  const adminToken = randomBytes(16).toString('hex');
  const nodeToken = randomBytes(16).toString('hex');
  let cleaned = false;
  const stop = async (): Promise<void> => {
    if (cleaned) return;
    cleaned = true;
    await stopAll(dir, procs, socket);
  };
  const socket = path.join(dir, 'containerd.sock');
  try {
    // Certificates: a CA and the API server's serving certificate for 127.0.0.1.
    const pki = path.join(dir, 'pki');
    mkdirSync(pki);
    const ssl = (...args: string[]): string => sh('openssl', args);
    ssl(
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      `${pki}/ca.key`,
      '-out',
      `${pki}/ca.crt`,
      '-days',
      '2',
      '-subj',
      '/CN=duetkit-test-ca',
    );
    ssl(
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      `${pki}/api.key`,
      '-out',
      `${pki}/api.csr`,
      '-subj',
      '/CN=kube-apiserver',
    );
    writeFileSync(`${pki}/san.ext`, 'subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:kubernetes\n');
    ssl(
      'x509',
      '-req',
      '-in',
      `${pki}/api.csr`,
      '-CA',
      `${pki}/ca.crt`,
      '-CAkey',
      `${pki}/ca.key`,
      '-CAcreateserial',
      '-out',
      `${pki}/api.crt`,
      '-days',
      '2',
      '-extfile',
      `${pki}/san.ext`,
    );
    ssl('genrsa', '-out', `${pki}/sa.key`, '2048');
    ssl('rsa', '-in', `${pki}/sa.key`, '-pubout', '-out', `${pki}/sa.pub`);
    writeFileSync(
      `${pki}/tokens.csv`,
      `${adminToken},admin,admin,"system:masters"\n${nodeToken},system:node:${NODE_NAME},node,"system:nodes"\n`,
    );
    const kubeconfigFor = (token: string, file: string): string => {
      writeFileSync(
        file,
        stringify({
          apiVersion: 'v1',
          kind: 'Config',
          clusters: [
            { name: 'test', cluster: { server, 'certificate-authority': `${pki}/ca.crt` } },
          ],
          users: [{ name: 'u', user: { token } }],
          contexts: [{ name: 'test', context: { cluster: 'test', user: 'u' } }],
          'current-context': 'test',
        }),
      );
      return file;
    };
    const adminConfig = kubeconfigFor(adminToken, path.join(dir, 'admin.kubeconfig'));
    const nodeConfig = kubeconfigFor(nodeToken, path.join(dir, 'kubelet.kubeconfig'));
    // The token webhook: how EKS checks its `k8s-aws-v1.` tokens; tests serve it when needed.
    const webhookConfig = path.join(dir, 'webhook.kubeconfig');
    writeFileSync(
      webhookConfig,
      stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [
          { name: 'webhook', cluster: { server: `http://127.0.0.1:${webhookPort}/authenticate` } },
        ],
        users: [{ name: 'apiserver', user: {} }],
        contexts: [{ name: 'webhook', context: { cluster: 'webhook', user: 'apiserver' } }],
        'current-context': 'webhook',
      }),
    );

    // Networking: the node's address on a port-less bridge, unreachable from outside.
    sh('ip', ['link', 'add', NODE_BRIDGE, 'type', 'bridge']);
    sh('ip', ['addr', 'add', `${NODE_IP}/32`, 'dev', NODE_BRIDGE]);
    sh('ip', ['link', 'set', NODE_BRIDGE, 'up']);
    sh('iptables', ['-I', 'INPUT', '!', '-i', 'lo', '-d', NODE_IP, '-j', 'DROP']);
    const cni = path.join(dir, 'cni');
    mkdirSync(cni);
    writeFileSync(
      path.join(cni, '10-duetkit.conflist'),
      JSON.stringify({
        cniVersion: '0.4.0',
        name: 'duetkit',
        plugins: [
          {
            type: 'bridge',
            bridge: CNI_BRIDGE,
            isGateway: true,
            ipMasq: false,
            ipam: {
              type: 'host-local',
              ranges: [[{ subnet: '10.244.0.0/24' }]],
              dataDir: path.join(dir, 'ipam'),
            },
          },
        ],
      }),
    );
    writeFileSync(
      path.join(cni, '99-loopback.conf'),
      JSON.stringify({ cniVersion: '0.4.0', name: 'lo', type: 'loopback' }),
    );

    // containerd with the CRI settings this machine needs.
    const containerdConfig = path.join(dir, 'containerd.toml');
    writeFileSync(
      containerdConfig,
      [
        'version = 2',
        `root = "${dir}/containerd/root"`,
        `state = "${dir}/containerd/state"`,
        '[grpc]',
        `  address = "${socket}"`,
        '[plugins."io.containerd.grpc.v1.cri"]',
        `  sandbox_image = "${PAUSE_IMAGE}"`,
        '  restrict_oom_score_adj = true',
        '  stream_server_address = "127.0.0.1"',
        '  [plugins."io.containerd.grpc.v1.cri".containerd]',
        '    snapshotter = "overlayfs"',
        '    default_runtime_name = "runc"',
        '    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]',
        '      runtime_type = "io.containerd.runc.v2"',
        '      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]',
        '        SystemdCgroup = false',
        '  [plugins."io.containerd.grpc.v1.cri".cni]',
        '    bin_dir = "/usr/lib/cni"',
        `    conf_dir = "${cni}"`,
        '',
      ].join('\n'),
    );
    launch('containerd', 'containerd', ['--config', containerdConfig]);
    launch('etcd', path.join(BIN, 'etcd'), [
      '--data-dir',
      path.join(dir, 'etcd'),
      '--listen-client-urls',
      `http://127.0.0.1:${etcdPort}`,
      '--advertise-client-urls',
      `http://127.0.0.1:${etcdPort}`,
      '--listen-peer-urls',
      `http://127.0.0.1:${etcdPeer}`,
      '--initial-advertise-peer-urls',
      `http://127.0.0.1:${etcdPeer}`,
      '--initial-cluster',
      `default=http://127.0.0.1:${etcdPeer}`,
      '--unsafe-no-fsync',
    ]);
    const apiArgs = [
      `--etcd-servers=http://127.0.0.1:${etcdPort}`,
      '--bind-address=127.0.0.1',
      '--advertise-address=127.0.0.1',
      `--secure-port=${apiPort}`,
      `--tls-cert-file=${pki}/api.crt`,
      `--tls-private-key-file=${pki}/api.key`,
      `--token-auth-file=${pki}/tokens.csv`,
      `--authentication-token-webhook-config-file=${webhookConfig}`,
      '--authentication-token-webhook-version=v1',
      '--authentication-token-webhook-cache-ttl=1s',
      '--authorization-mode=Node,RBAC',
      `--service-account-key-file=${pki}/sa.pub`,
      `--service-account-signing-key-file=${pki}/sa.key`,
      '--service-account-issuer=https://kubernetes.default.svc',
      '--service-cluster-ip-range=10.96.0.0/24',
      '--kubelet-preferred-address-types=InternalIP',
      '--allow-privileged=true',
      '--anonymous-auth=false',
    ];
    const startApiServer = async (): Promise<void> => {
      launch('kube-apiserver', path.join(BIN, 'kube-apiserver'), apiArgs);
      await waitFor(
        'kube-apiserver ready',
        60_000,
        async () => {
          const response = await fetchInsecure(
            `${server}/readyz`,
            adminToken,
            readFileSync(`${pki}/ca.crt`, 'utf8'),
          );
          return response === 'ok';
        },
        () => readLog(logFile('kube-apiserver')),
      );
    };
    await startApiServer();
    launch('kube-controller-manager', path.join(BIN, 'kube-controller-manager'), [
      `--kubeconfig=${adminConfig}`,
      '--controllers=*,-nodeipam',
      '--leader-elect=false',
      '--bind-address=127.0.0.1',
      '--secure-port=0',
      `--service-account-private-key-file=${pki}/sa.key`,
      `--root-ca-file=${pki}/ca.crt`,
    ]);
    launch('kube-scheduler', path.join(BIN, 'kube-scheduler'), [
      `--kubeconfig=${adminConfig}`,
      '--leader-elect=false',
      '--bind-address=127.0.0.1',
      '--secure-port=0',
    ]);

    // Images: the pause program, and Node.js with busybox and taskset (like node:*-slim).
    await waitFor(
      'containerd socket',
      20_000,
      async () => existsSync(socket),
      () => readLog(logFile('containerd')),
    );
    const images = path.join(dir, 'images');
    mkdirSync(images);
    importImage(
      socket,
      buildImageTar(
        { name: PAUSE_IMAGE, files: { '/pause': path.join(BIN, 'pause') }, entrypoint: ['/pause'] },
        images,
      ),
    );
    const node = execFileSync('readlink', ['-f', path.join(ROOT, 'node_modules/.bin/node')], {
      encoding: 'utf8',
    }).trim();
    importImage(
      socket,
      buildImageTar(
        {
          name: NODE_IMAGE,
          files: { '/usr/local/bin/node': node, '/usr/bin/taskset': '/usr/bin/taskset' },
          withLibraries: [node, '/usr/bin/taskset'],
          busybox: true,
        },
        images,
      ),
    );
    rmSync(images, { recursive: true, force: true });
    // Under the name of duetkit's default image too, so scenarios that name it run unchanged
    // (IfNotPresent finds it; nothing is pulled).
    sh('ctr', [
      '--address',
      socket,
      '-n',
      'k8s.io',
      'images',
      'tag',
      NODE_IMAGE,
      DEFAULT_IMAGE_REF,
    ]);

    const kubeletConfig = path.join(dir, 'kubelet.yaml');
    writeFileSync(
      kubeletConfig,
      stringify({
        apiVersion: 'kubelet.config.k8s.io/v1beta1',
        kind: 'KubeletConfiguration',
        cgroupDriver: 'cgroupfs',
        failCgroupV1: false,
        failSwapOn: false,
        containerRuntimeEndpoint: `unix://${socket}`,
        address: NODE_IP,
        port: kubeletPort,
        readOnlyPort: 0,
        healthzBindAddress: '127.0.0.1',
        healthzPort,
        evictionHard: {},
        imageGCHighThresholdPercent: 100,
        imageGCLowThresholdPercent: 99,
        clusterDNS: [],
        resolvConf: '',
        authentication: { anonymous: { enabled: true }, webhook: { enabled: false } },
        authorization: { mode: 'AlwaysAllow' },
        // What a cloud's node carries, so the run's infrastructure identity is filled in.
        providerID: `duetkit-test:///local/${NODE_NAME}`,
        ...cpuManagerSettings(),
      }),
    );
    launch('kubelet', path.join(BIN, 'kubelet'), [
      `--config=${kubeletConfig}`,
      `--kubeconfig=${nodeConfig}`,
      `--root-dir=${path.join(dir, 'kubelet')}`,
      `--cert-dir=${path.join(dir, 'kubelet-pki')}`,
      `--node-ip=${NODE_IP}`,
      `--hostname-override=${NODE_NAME}`,
      `--node-labels=node.kubernetes.io/instance-type=${INSTANCE_TYPE}`,
    ]);
    const caPem = readFileSync(`${pki}/ca.crt`, 'utf8');
    const kubeConfig = (token = adminToken): KubeConfig => {
      const config = new KubeConfig();
      config.loadFromOptions({
        clusters: [{ name: 'test', server, caData: Buffer.from(caPem).toString('base64') }],
        users: [{ name: 'u', token }],
        contexts: [{ name: 'test', cluster: 'test', user: 'u' }],
        currentContext: 'test',
      });
      return config;
    };
    await waitFor(
      'node Ready',
      60_000,
      async () => {
        const text = await fetchInsecure(`${server}/api/v1/nodes/${NODE_NAME}`, adminToken, caPem);
        const node =
          text === null
            ? null
            : (JSON.parse(text) as {
                status?: { conditions?: { type: string; status: string }[] };
              });
        return (
          node?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false
        );
      },
      () => readLog(logFile('kubelet')),
    );
    return {
      dir,
      server,
      adminToken,
      caPem,
      containerdSocket: socket,
      nodeName: NODE_NAME,
      webhookPort,
      kubeConfig,
      kubeconfigFile: adminConfig,
      stopApiServer: async () => {
        await kill(procs.get('kube-apiserver'));
        procs.delete('kube-apiserver');
      },
      startApiServer,
      stop,
      log: (name) => readLog(logFile(name)),
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Stops a test cluster: kubelet first (it stops the pods' bookkeeping), then the control
 * plane, etcd last (stopping etcd with the API server leaves the API server hung); then the
 * containers and containerd, mounts, the kubelet's cgroups, the bridges and the iptables rule.
 */
async function stopAll(
  dir: string,
  procs: Map<string, ChildProcess>,
  socket: string,
): Promise<void> {
  // kubelet first (it stops the pods' bookkeeping), then the control plane, etcd last:
  // stopping etcd with the API server leaves the API server hung.
  for (const name of [
    'kubelet',
    'kube-scheduler',
    'kube-controller-manager',
    'kube-apiserver',
    'etcd',
  ]) {
    await kill(procs.get(name));
  }
  // The pods' containers, then containerd.
  if (procs.has('containerd')) {
    for (const id of sh('ctr', ['--address', socket, '-n', 'k8s.io', 'tasks', 'ls', '-q'], true)
      .split('\n')
      .filter(Boolean)) {
      sh('ctr', ['--address', socket, '-n', 'k8s.io', 'tasks', 'kill', '-s', 'SIGKILL', id], true);
    }
    await kill(procs.get('containerd'));
  }
  killRuncLeftovers(dir);
  unmountUnder(dir);
  removeKubeCgroups();
  sh('ip', ['link', 'del', NODE_BRIDGE], true);
  sh('ip', ['link', 'del', CNI_BRIDGE], true);
  sh('iptables', ['-D', 'INPUT', '!', '-i', 'lo', '-d', NODE_IP, '-j', 'DROP'], true);
  removeKubeletChains();
  if (process.env.DUETKIT_KEEP_K8S_DIR === undefined) rmSync(dir, { recursive: true, force: true });
}

/**
 * A test cluster whose owner died (a killed test run) is stopped before a new one starts: the
 * bridges and the iptables rule are the machine's, so there is only ever one. Returns the
 * owner of one still in use (another test run's), else null.
 */
function cleanStaleClusters(): number | null {
  for (const name of readdirSync(os.tmpdir())) {
    const dir = path.join(os.tmpdir(), name);
    if (!dir.startsWith(PREFIX)) continue;
    let owner = NaN;
    try {
      owner = Number(readFileSync(path.join(dir, 'owner.pid'), 'utf8'));
    } catch {
      // no owner file: a cluster from before owners were recorded, or a half-made one
    }
    if (Number.isInteger(owner) && owner !== process.pid && alive(owner)) return owner;
    for (const pid of processesUsing(dir)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
    execFileSync('sleep', ['0.5']);
    unmountUnder(dir);
    rmSync(dir, { recursive: true, force: true });
  }
  removeKubeCgroups();
  sh('ip', ['link', 'del', NODE_BRIDGE], true);
  sh('ip', ['link', 'del', CNI_BRIDGE], true);
  const rule = ['INPUT', '!', '-i', 'lo', '-d', NODE_IP, '-j', 'DROP'];
  for (let i = 0; i < 10 && ruleExists(rule); i++) sh('iptables', ['-D', ...rule], true);
  removeKubeletChains();
  return null;
}

/** The words of one `iptables -S` rule: double-quoted ones (comments) kept whole. */
function ruleWords(rule: string): string[] {
  return [...rule.matchAll(/"((?:[^"\\]|\\.)*)"|(\S+)/g)].map((m) =>
    m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : m[2]!,
  );
}

/** The iptables tables the kubelet writes its chains into (KUBE-FIREWALL, KUBE-KUBELET-CANARY…). */
const KUBELET_TABLES = ['filter', 'nat', 'mangle'];

/**
 * The kubelet's own chains, in IPv4 and IPv6: KUBE-FIREWALL (jumped to from INPUT and OUTPUT),
 * KUBE-KUBELET-CANARY and KUBE-IPTABLES-HINT. It never removes them itself, and the machine's
 * firewall is not the test's to leave changed. The jumps to them first, then the chains.
 */
export function removeKubeletChains(): void {
  for (const command of ['iptables', 'ip6tables']) {
    for (const table of KUBELET_TABLES) {
      const rules = sh(command, ['-t', table, '-S'], true).split('\n');
      for (const rule of rules) {
        if (rule.startsWith('-A ') && / -j KUBE-/.test(rule)) {
          sh(command, ['-t', table, '-D', ...ruleWords(rule.slice(3))], true);
        }
      }
      for (const rule of rules) {
        const chain = /^-N (KUBE-\S+)$/.exec(rule)?.[1];
        if (chain !== undefined) {
          sh(command, ['-t', table, '-F', chain], true);
          sh(command, ['-t', table, '-X', chain], true);
        }
      }
    }
  }
}

/**
 * Waits (at most 20 minutes) while another test run's cluster is up — the bridges, the rule
 * and the kubelet's cgroups are the machine's, so there is one at a time — cleaning up after
 * a dead one.
 */
async function waitForOtherClusters(): Promise<void> {
  const started = Date.now();
  for (;;) {
    const owner = cleanStaleClusters();
    if (owner === null) return;
    if (Date.now() - started > 20 * 60_000) {
      throw new Error(`another test cluster (owner pid ${owner}) has been running for 20 minutes`);
    }
    await new Promise((r) => setTimeout(r, 2000));
  }
}

function ruleExists(rule: string[]): boolean {
  try {
    execFileSync('iptables', ['-C', ...rule], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Processes whose command line names `dir` (our daemons, and the shims they left). */
function processesUsing(dir: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(dir)) found.push(Number(entry));
    } catch {
      // gone
    }
  }
  return found;
}

function readLog(file: string): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-30).join('\n');
  } catch {
    return '';
  }
}

async function kill(child: ChildProcess | undefined): Promise<void> {
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    process.kill(-child.pid!, 'SIGTERM');
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // gone
    }
  }, 10_000);
  await exited;
  clearTimeout(timer);
}

/** containerd-shim processes of our containerd, which outlive it. */
function killRuncLeftovers(dir: string): void {
  for (const pid of processesUsing(dir)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
}

function unmountUnder(dir: string): void {
  const mounts = readFileSync('/proc/mounts', 'utf8')
    .split('\n')
    .map((line) => line.split(' ')[1] ?? '')
    .map((m) => m.replace(/\\040/g, ' '))
    .filter((m) => m.startsWith(`${dir}/`))
    .sort((a, b) => b.length - a.length);
  for (const mount of mounts) sh('umount', ['-l', mount], true);
}

/** The kubelet's cgroups (kubepods…) in every v1 hierarchy, innermost first. */
function removeKubeCgroups(): void {
  const base = '/sys/fs/cgroup';
  for (const hierarchy of readdirSync(base)) {
    const top = path.join(base, hierarchy, 'kubepods');
    if (existsSync(top)) removeTree(top);
  }
}

function removeTree(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) removeTree(path.join(dir, entry.name));
  }
  for (let i = 0; i < 50; i++) {
    try {
      rmdirSync(dir);
      return;
    } catch {
      const procs = (() => {
        try {
          return readFileSync(path.join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean);
        } catch {
          return [];
        }
      })();
      for (const pid of procs) {
        try {
          process.kill(Number(pid), 'SIGKILL');
        } catch {
          // gone
        }
      }
      execFileSync('sleep', ['0.05']);
    }
  }
}

async function waitFor(
  what: string,
  timeoutMs: number,
  check: () => Promise<boolean>,
  log: () => string,
): Promise<void> {
  const started = Date.now();
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      // not yet
    }
    if (Date.now() - started > timeoutMs)
      throw new Error(`test cluster: ${what} timed out; last log lines:\n${log()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** GET with the test CA, through node:https (no global fetch agent needed). */
async function fetchInsecure(url: string, token: string, ca: string): Promise<string | null> {
  const https = await import('node:https');
  return new Promise((resolve) => {
    const request = https.get(
      url,
      { ca, headers: { Authorization: `Bearer ${token}` } },
      (response) => {
        let body = '';
        response.on('data', (c: Buffer) => (body += c.toString()));
        response.on('end', () => resolve(response.statusCode === 200 ? body : null));
      },
    );
    request.on('error', () => resolve(null));
  });
}
