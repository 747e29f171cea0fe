/** The environment variable that carries a kubeconfig's content (the action's `kubeconfig`). */
export const KUBECONFIG_CONTENT_ENV = 'DUETKIT_KUBECONFIG';
