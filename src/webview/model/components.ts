/**
 * Which part of the cluster acted, and the colour it gets. Colours are VS Code theme variables
 * (with the Dark+ values as fallbacks for the preview page), so marks follow the user's theme;
 * warnings also get a different shape, so colour is never the only signal.
 */
import type { Component } from '../../core/journey/types';

export type ComponentGroup = 'client' | 'apiServer' | 'controllerManager' | 'scheduler' | 'kubelet' | 'runtime' | 'other';

export interface GroupStyle {
  label: string;
  /** The theme variable, e.g. `--vscode-charts-blue`. */
  cssVar: string;
  /** Used when the variable is not defined (outside VS Code). */
  fallback: string;
}

export const GROUP_STYLES: Readonly<Record<ComponentGroup, GroupStyle>> = {
  client: { label: 'kubectl / client', cssVar: '--vscode-editor-foreground', fallback: '#cccccc' },
  apiServer: { label: 'API server / etcd', cssVar: '--vscode-charts-blue', fallback: '#3794ff' },
  controllerManager: { label: 'controller manager', cssVar: '--vscode-charts-purple', fallback: '#b180d7' },
  scheduler: { label: 'scheduler', cssVar: '--vscode-charts-orange', fallback: '#d18616' },
  kubelet: { label: 'kubelet', cssVar: '--vscode-charts-green', fallback: '#89d185' },
  runtime: { label: 'container runtime', cssVar: '--vscode-charts-yellow', fallback: '#cca700' },
  other: { label: 'other', cssVar: '--vscode-descriptionForeground', fallback: '#9d9d9d' },
};

/** Legend order: the order a request travels. */
export const GROUP_ORDER: readonly ComponentGroup[] = ['client', 'apiServer', 'controllerManager', 'scheduler', 'kubelet', 'runtime', 'other'];

/** Non-component colours the painters need. */
export const UI_COLOURS = {
  warning: { cssVar: '--vscode-charts-red', fallback: '#f14c4c' },
  focus: { cssVar: '--vscode-focusBorder', fallback: '#007fd4' },
  foreground: { cssVar: '--vscode-editor-foreground', fallback: '#cccccc' },
  muted: { cssVar: '--vscode-descriptionForeground', fallback: '#9d9d9d' },
  grid: { cssVar: '--vscode-editorWidget-border', fallback: '#454545' },
  background: { cssVar: '--vscode-editor-background', fallback: '#1e1e1e' },
  selection: { cssVar: '--vscode-list-activeSelectionBackground', fallback: '#04395e' },
  hover: { cssVar: '--vscode-list-hoverBackground', fallback: '#2a2d2e' },
} as const satisfies Record<string, { cssVar: string; fallback: string }>;

const CONTROLLER_MANAGER = /(^|-)controller(-manager)?$|^garbage-collector$|^kube-controller-manager$/;

/**
 * The group of a component as events and the tracer name it. Controllers are named
 * `<thing>-controller` (`node-controller`, `endpoint-slice-controller`); schedulers may carry a
 * profile name (`my-scheduler`); anything else that writes objects is a client (`kubectl`,
 * `kubectl-client-side-apply`, `helm`).
 */
export function componentGroup(component: Component): ComponentGroup {
  const name = component.toLowerCase();
  if (name === 'kube-apiserver' || name === 'etcd' || name === 'apiserver') return 'apiServer';
  // kube-proxy is the other node agent: it acts on the node as the kubelet does.
  if (name === 'kubelet' || name === 'kube-proxy') return 'kubelet';
  if (name === 'container-runtime' || name === 'containerd' || name === 'cri-o' || name === 'docker') return 'runtime';
  if (name.endsWith('scheduler')) return 'scheduler';
  if (CONTROLLER_MANAGER.test(name)) return 'controllerManager';
  if (name === '') return 'other';
  if (name.startsWith('kubectl') || name === 'kube-journey' || name === 'helm' || name === 'argocd' || name === 'flux') return 'client';
  return 'other';
}
