import { execFile, spawn } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { chmod, cp, link, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = process.cwd();

/** Where .ci/setup-vm.sh links the guest: disk.img (raw, read-only), vmlinuz, initrd.img. */
export const VM_DIR = path.join(ROOT, '.tools/vm');

/**
 * GitHub's 4-vCPU Linux runner as QEMU can show it: SMT appears in the guest only with an
 * Intel CPU model and q35 (../shared/LAB-runner-vm.md). TCG, because KVM hangs in this nested
 * guest; `thread=multi` gives each vCPU a host thread.
 */
const MACHINE = [
  '-accel',
  'tcg,thread=multi',
  '-machine',
  'q35',
  '-cpu',
  'Skylake-Server',
  '-smp',
  '4,sockets=1,dies=1,cores=2,threads=2',
];

/**
 * Drivers for q35's own chipset devices (AHCI, LPC, SMBus, watchdog, speaker) and CPU-specific
 * crypto, which udev would load at boot: seconds of emulated CPU that none of the tests use.
 */
const UNUSED_MODULES = [
  'ahci',
  'lpc_ich',
  'i2c_i801',
  'iTCO_wdt',
  'pcspkr',
  'aesni_intel',
  'ghash_clmulni_intel',
];

export interface BootOptions {
  /** The host directory the guest mounts at /host (9p); must hold an executable lab.sh. */
  share: string;
  /** Killed (and rejected) after this long. */
  timeoutMs: number;
  /** Guest memory. Default 2048. */
  memoryMb?: number;
}

export interface BootResult {
  /** Everything the guest wrote to its serial console: the kernel's and the lab's output. */
  console: string;
  seconds: number;
}

/**
 * Boots the guest once on a qcow2 overlay of its own (created instantly over the read-only
 * image, removed afterwards: boots share no state), with `share` at /host, and waits for it
 * to power off. The guest runs /host/lab.sh as root, then powers off whatever it returned.
 */
export async function bootVm(options: BootOptions): Promise<BootResult> {
  for (const file of ['disk.img', 'vmlinuz', 'initrd.img']) {
    if (!existsSync(path.join(VM_DIR, file))) {
      throw new Error(
        `the runner-like VM is not built (${VM_DIR}/${file}): run bash .ci/setup-vm.sh`,
      );
    }
  }
  const work = await mkdtemp(path.join(os.tmpdir(), 'duetkit-vm-'));
  try {
    const overlay = path.join(work, 'overlay.qcow2');
    const base = realpathSync(path.join(VM_DIR, 'disk.img'));
    await run('qemu-img', ['create', '-q', '-f', 'qcow2', '-b', base, '-F', 'raw', overlay]);
    const args = [
      ...MACHINE,
      '-m',
      String(options.memoryMb ?? 2048),
      '-kernel',
      path.join(VM_DIR, 'vmlinuz'),
      '-initrd',
      path.join(VM_DIR, 'initrd.img'),
      '-append',
      `root=/dev/vda rw console=ttyS0 quiet modprobe.blacklist=${UNUSED_MODULES.join(',')}`,
      '-drive',
      `file=${overlay},format=qcow2,if=virtio`,
      '-virtfs',
      `local,path=${options.share},mount_tag=hostshare,security_model=none`,
      // The same directory again, read-only, for the guest to mount with a page cache
      // (cache=loose): Node and duetkit, read once instead of at every start.
      '-virtfs',
      `local,path=${options.share},mount_tag=hostro,security_model=none,readonly=on`,
      // No VGA, CD-ROM, parallel port, network or monitor: devices the guest would probe
      // and load drivers for under emulation. The serial console is the output.
      '-nodefaults',
      '-display',
      'none',
      '-serial',
      'stdio',
      '-no-reboot',
    ];
    return await new Promise<BootResult>((resolve, reject) => {
      const started = Date.now();
      const child = spawn('qemu-system-x86_64', args, { stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      let errors = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
      // TCG warns about each feature of the CPU model it does not emulate: harmless, and many.
      const qemuErrors = (): string =>
        errors
          .split('\n')
          .filter((line) => line !== '' && !line.includes("TCG doesn't support requested feature"))
          .join('\n');
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(
          new Error(
            `the guest did not power off within ${options.timeoutMs / 1000} s; its console ended with:\n${output.slice(-3000)}`,
          ),
        );
      }, options.timeoutMs);
      child.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.on('close', (code) => {
        clearTimeout(timer);
        const result = { console: output, seconds: (Date.now() - started) / 1000 };
        if (code === 0) resolve(result);
        else reject(new Error(`qemu exited with ${code}: ${qemuErrors()}\n${output.slice(-3000)}`));
      });
    });
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * Bundles the guest's runs never load (the Action's, the cluster's, the HTTP load generator's):
 * 16 MB that the guest would copy through 9p under TCG for nothing.
 */
const NOT_IN_THE_GUEST = [
  'dist/index.js',
  'dist/post.js',
  'dist/cluster.js',
  'dist/load-generator.js',
  'dist/k8s',
];

export interface ShareOptions {
  /** The script the guest runs as root (`#!/bin/sh` …). */
  labScript: string;
  /** Further files, by path relative to the share. */
  files?: Record<string, string>;
}

/**
 * A share for one boot: duetkit as it ships (dist/ but the bundles the guest never loads,
 * scenarios/, examples/, package.json) under duetkit/, the Node binary of node_modules/node
 * (bookworm's glibc, as the guest's) under node/bin, lab.sh, and out/, writable by the guest's
 * users (9p with security_model=none shows the host's modes). Copies, except the Node binary
 * (hard-linked where the file system allows): the guest writes nowhere in the clone. The guest
 * copies Node and duetkit to its own disk before it runs anything (tests/vm/runner-vm.test.ts):
 * a program run from the share is read through 9p at each start (node -e 0 took 7 s so, 1–2 s
 * from the disk).
 */
export async function makeShare(options: ShareOptions): Promise<string> {
  const share = await mkdtemp(path.join(os.tmpdir(), 'duetkit-vm-share-'));
  await chmod(share, 0o755);
  const unused = new Set(NOT_IN_THE_GUEST.map((entry) => path.join(ROOT, entry)));
  for (const entry of ['dist', 'scenarios', 'examples', 'package.json']) {
    await cp(path.join(ROOT, entry), path.join(share, 'duetkit', entry), {
      recursive: true,
      filter: (source) => !unused.has(source),
    });
  }
  const node = path.join(share, 'node/bin/node');
  await mkdir(path.dirname(node), { recursive: true });
  const hostNode = path.join(ROOT, 'node_modules/node/bin/node');
  await link(hostNode, node).catch(() => cp(hostNode, node));
  await writeFile(path.join(share, 'lab.sh'), options.labScript, { mode: 0o755 });
  for (const [file, text] of Object.entries(options.files ?? {})) {
    await mkdir(path.dirname(path.join(share, file)), { recursive: true });
    await writeFile(path.join(share, file), text);
  }
  await mkdir(path.join(share, 'out'));
  await chmod(path.join(share, 'out'), 0o777);
  return share;
}
