import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Container images for the test cluster, made without a registry or a Docker daemon: a root
 * filesystem assembled from this machine's files, written as an OCI image layout and imported
 * into containerd's CRI namespace with `ctr images import` (../shared/LAB-kubernetes.md).
 */
export interface ImageSpec {
  /** `localhost/NAME:TAG`. */
  name: string;
  /** Files to copy: path in the image → path on this machine. */
  files: Record<string, string>;
  /** Executables whose shared libraries (ldd) are copied too. */
  withLibraries?: string[];
  /** Install busybox's applets into /bin (sh, tar, cat, sleep…). */
  busybox?: boolean;
  entrypoint?: string[];
  env?: string[];
}

/** Builds the image's OCI tar in `dir`; returns its path. */
export function buildImageTar(spec: ImageSpec, dir: string): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'duetkit-rootfs-'));
  try {
    for (const d of ['bin', 'etc', 'tmp', 'proc', 'sys', 'dev', 'usr/bin', 'lib64', 'root']) {
      mkdirSync(path.join(root, d), { recursive: true });
    }
    chmodSync(path.join(root, 'tmp'), 0o1777);
    writeFileSync(path.join(root, 'etc/passwd'), 'root:x:0:0:root:/root:/bin/sh\n');
    writeFileSync(path.join(root, 'etc/group'), 'root:x:0:\n');
    const copy = (inImage: string, onHost: string): void => {
      const target = path.join(root, inImage);
      mkdirSync(path.dirname(target), { recursive: true });
      copyFileSync(onHost, target);
      chmodSync(target, statSync(onHost).mode & 0o7777);
    };
    for (const [inImage, onHost] of Object.entries(spec.files)) copy(inImage, onHost);
    for (const binary of spec.withLibraries ?? []) {
      for (const lib of sharedLibraries(binary)) copy(lib, lib);
    }
    if (spec.busybox === true) {
      copy('/bin/busybox', '/bin/busybox');
      const applets = execFileSync('/bin/busybox', ['--list'], { encoding: 'utf8' }).split('\n');
      for (const applet of applets.filter(Boolean)) {
        const link = path.join(root, 'bin', applet);
        try {
          symlinkSync('busybox', link);
        } catch {
          // an applet already provided by a copied file (taskset…)
        }
      }
    }
    return writeLayout(spec, root, dir);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

function sharedLibraries(binary: string): string[] {
  const out = execFileSync('ldd', [binary], { encoding: 'utf8' });
  return [...out.matchAll(/(\/[^\s]+\.so[^\s]*)/g)].map((m) => m[1]!);
}

function writeLayout(spec: ImageSpec, root: string, dir: string): string {
  const layout = mkdtempSync(path.join(os.tmpdir(), 'duetkit-oci-'));
  try {
    const blobs = path.join(layout, 'blobs/sha256');
    mkdirSync(blobs, { recursive: true });
    const layerFile = path.join(layout, 'layer.tar');
    execFileSync('tar', [
      '--numeric-owner',
      '--owner=0',
      '--group=0',
      '-C',
      root,
      '-cf',
      layerFile,
      '.',
    ]);
    const blob = (bytes: Buffer): { digest: string; size: number } => {
      const digest = createHash('sha256').update(bytes).digest('hex');
      writeFileSync(path.join(blobs, digest), bytes);
      return { digest: `sha256:${digest}`, size: bytes.length };
    };
    const layer = blob(readFileSync(layerFile));
    rmSync(layerFile);
    const config = blob(
      Buffer.from(
        JSON.stringify({
          architecture: process.arch === 'arm64' ? 'arm64' : 'amd64',
          os: 'linux',
          config: {
            Env: spec.env ?? ['PATH=/usr/local/bin:/usr/bin:/bin'],
            ...(spec.entrypoint === undefined ? {} : { Entrypoint: spec.entrypoint }),
          },
          rootfs: { type: 'layers', diff_ids: [layer.digest] },
        }),
      ),
    );
    const manifest = blob(
      Buffer.from(
        JSON.stringify({
          schemaVersion: 2,
          mediaType: 'application/vnd.oci.image.manifest.v1+json',
          config: { mediaType: 'application/vnd.oci.image.config.v1+json', ...config },
          layers: [{ mediaType: 'application/vnd.oci.image.layer.v1.tar', ...layer }],
        }),
      ),
    );
    writeFileSync(path.join(layout, 'oci-layout'), JSON.stringify({ imageLayoutVersion: '1.0.0' }));
    writeFileSync(
      path.join(layout, 'index.json'),
      JSON.stringify({
        schemaVersion: 2,
        manifests: [
          {
            mediaType: 'application/vnd.oci.image.manifest.v1+json',
            ...manifest,
            annotations: {
              'io.containerd.image.name': spec.name,
              'org.opencontainers.image.ref.name': spec.name.split(':').at(-1),
            },
          },
        ],
      }),
    );
    const file = path.join(dir, `${spec.name.replace(/[^\w.-]+/g, '_')}.tar`);
    execFileSync('tar', ['-C', layout, '-cf', file, 'oci-layout', 'index.json', 'blobs']);
    return file;
  } finally {
    rmSync(layout, { recursive: true, force: true });
  }
}

/** Imports an OCI tar into containerd's Kubernetes namespace. */
export function importImage(socket: string, tarFile: string): void {
  execFileSync('ctr', ['--address', socket, '-n', 'k8s.io', 'images', 'import', tarFile], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}
