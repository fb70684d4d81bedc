/** Taints and tolerations as `k8s.io/api/core/v1` `Toleration.ToleratesTaint` defines them. */
import type { Taint, Toleration } from '../../core/k8s';

export function toleratesTaint(toleration: Toleration, taint: Taint): boolean {
  if (toleration.effect && toleration.effect !== taint.effect) return false;
  if (toleration.key && toleration.key !== taint.key) return false;
  switch (toleration.operator ?? '') {
    case '':
    case 'Equal':
      return (toleration.value ?? '') === (taint.value ?? '');
    case 'Exists':
      return true;
    default:
      return false;
  }
}

export function tolerationsTolerateTaint(tolerations: readonly Toleration[], taint: Taint): boolean {
  for (const toleration of tolerations) if (toleratesTaint(toleration, taint)) return true;
  return false;
}

/** The first taint (in node order) with one of `effects` that no toleration tolerates. */
export function findUntoleratedTaint(taints: readonly Taint[], tolerations: readonly Toleration[], effects: (effect: string) => boolean): Taint | undefined {
  for (const taint of taints) {
    if (effects(taint.effect) && !tolerationsTolerateTaint(tolerations, taint)) return taint;
  }
  return undefined;
}
