import { stringify } from 'yaml';
import { cpuManagerSettings, loadManifest } from './manifests.js';

const BOUNDARY = 'DUETKIT-NODECONFIG';

/**
 * The user data of the node group's launch template: a MIME multi-part document whose
 * `application/node.eks.aws` part is k8s/eks-nodeconfig.yaml with the kubelet settings of
 * k8s/kubelet-cpu-manager.yaml (the static CPU manager). nodeadm on Amazon Linux 2023 merges
 * it into the kubelet's configuration. Base64, as EC2 wants it.
 */
export function nodeUserData(): string {
  return Buffer.from(nodeUserDataText()).toString('base64');
}

export function nodeUserDataText(): string {
  const nodeConfig = loadManifest<{ spec: { kubelet: { config: Record<string, unknown> } } }>(
    'eks-nodeconfig.yaml',
  );
  nodeConfig.spec.kubelet.config = { ...nodeConfig.spec.kubelet.config, ...cpuManagerSettings() };
  return [
    'MIME-Version: 1.0',
    `Content-Type: multipart/mixed; boundary="${BOUNDARY}"`,
    '',
    `--${BOUNDARY}`,
    'Content-Type: application/node.eks.aws',
    '',
    stringify(nodeConfig).trimEnd(),
    '',
    `--${BOUNDARY}--`,
    '',
  ].join('\n');
}
