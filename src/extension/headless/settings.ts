/**
 * The extension's settings, typed, with their defaults: package.json's `configuration` must
 * declare the same keys and defaults (checked by a plain-Node test). Settings that change what
 * is sent to a cluster are restricted in untrusted workspaces (`restrictedConfigurations`).
 */

import { DEFAULT_MAX_PODS } from '../../common/simulator-defaults';

export const SETTINGS_SECTION = 'kubeJourney';

export interface SettingsShape {
  /** Worker nodes of the built-in simulator. */
  'simulator.nodes': number;
  /** How much faster than a real cluster the simulator's components work. */
  'simulator.speed': number;
  /** The built-in simulator's pod budget (SimulatorOptions.maxPods). */
  'simulator.maxPods': number;
  /** Zones the simulator's nodes are spread over; 0: none (kind's node labels). */
  'simulator.zones': number;
  /** Kubeconfig file(s) to read contexts from; empty means KUBECONFIG, else ~/.kube/config. */
  kubeconfig: string;
  /** Contexts that Apply and Trace applies to without asking first. */
  applyWithoutConfirmation: string[];
  /** Field manager for server-side apply. */
  fieldManager: string;
  /** Hovers on manifest keys. */
  'hover.enabled': boolean;
  /** CodeLenses above each manifest document. */
  'codeLens.enabled': boolean;
}

export type SettingKey = keyof SettingsShape;

export const SETTING_DEFAULTS: SettingsShape = {
  'simulator.nodes': 3,
  'simulator.speed': 1,
  'simulator.maxPods': DEFAULT_MAX_PODS,
  'simulator.zones': 0,
  kubeconfig: '',
  applyWithoutConfirmation: [],
  fieldManager: 'kube-journey',
  'hover.enabled': true,
  'codeLens.enabled': true,
};

/** Settings an untrusted workspace may not set: they decide where manifests go and without which check. */
export const RESTRICTED_SETTINGS: readonly SettingKey[] = ['kubeconfig', 'applyWithoutConfirmation', 'fieldManager'];

/** Reads one setting through any `get(section, default)` (vscode.WorkspaceConfiguration fits). */
export function readSetting<K extends SettingKey>(config: { get<T>(key: string, defaultValue: T): T }, key: K): SettingsShape[K] {
  const value = config.get<SettingsShape[K]>(key, SETTING_DEFAULTS[key]);
  const fallback = SETTING_DEFAULTS[key];
  if (typeof fallback === 'number') return (typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : fallback) as SettingsShape[K];
  if (Array.isArray(fallback)) return (Array.isArray(value) ? value.filter((v) => typeof v === 'string') : fallback) as SettingsShape[K];
  return (typeof value === typeof fallback ? value : fallback) as SettingsShape[K];
}
