/**
 * autoscaling/v1 ⇄ autoscaling/v2 HorizontalPodAutoscalers (pkg/apis/autoscaling/v1/conversion.go).
 * One object is stored (as v2); v1 clients read and write it through this conversion:
 * - `spec.targetCPUUtilizationPercentage` is the v2 Resource metric on `cpu` with a Utilization
 *   target, and `status.currentCPUUtilizationPercentage` the current utilization of that metric;
 * - what v1 cannot say (other metrics, current metrics, conditions, behavior) travels in
 *   upstream's `autoscaling.alpha.kubernetes.io/*` annotations, so a v1 round trip keeps it.
 *   Upstream writes the metrics there in v1's own MetricSpec shape; here they keep v2's.
 */
import type { KubeObject } from '../../../core/k8s';
import { isJsonObject } from '../../../common/json';

type Json = Record<string, unknown>;

const OTHER_METRICS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/metrics';
const CURRENT_METRICS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/current-metrics';
const CONDITIONS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/conditions';
const BEHAVIOR_ANNOTATION = 'autoscaling.alpha.kubernetes.io/behavior';
const V1 = 'autoscaling/v1';
const V2 = 'autoscaling/v2';

function cpuResource(metric: unknown): Json | undefined {
  if (!isJsonObject(metric) || metric.type !== 'Resource' || !isJsonObject(metric.resource) || metric.resource.name !== 'cpu') return undefined;
  return metric.resource;
}

function cpuUtilizationTarget(metric: unknown): number | undefined {
  const target = cpuResource(metric)?.target;
  return isJsonObject(target) && target.type === 'Utilization' && typeof target.averageUtilization === 'number' ? target.averageUtilization : undefined;
}

/** The stored (v2) object as autoscaling/v1 shows it. */
export function horizontalPodAutoscalerToV1(stored: KubeObject): KubeObject {
  const { spec: specV2, status: statusV2, ...rest } = structuredClone(stored) as KubeObject & { spec?: Json; status?: Json };
  const out: KubeObject & { spec?: Json; status?: Json } = { ...rest, apiVersion: V1 };
  const annotations: Record<string, string> = { ...(out.metadata?.annotations ?? {}) };
  if (specV2) {
    const { metrics, behavior, ...specRest } = specV2;
    const spec: Json = { ...specRest };
    const allMetrics = Array.isArray(metrics) ? metrics : [];
    const cpu = allMetrics.find((metric) => cpuResource(metric) !== undefined);
    const target = cpuUtilizationTarget(cpu);
    if (target !== undefined) spec.targetCPUUtilizationPercentage = target;
    const others = allMetrics.filter((metric) => cpuUtilizationTarget(metric) === undefined);
    if (others.length > 0) annotations[OTHER_METRICS_ANNOTATION] = JSON.stringify(others);
    if (behavior !== undefined) annotations[BEHAVIOR_ANNOTATION] = JSON.stringify(behavior);
    out.spec = spec;
  }
  if (statusV2) {
    const { currentMetrics, conditions, ...statusRest } = statusV2;
    const status: Json = { ...statusRest };
    const current = Array.isArray(currentMetrics) ? currentMetrics : [];
    for (const metric of current) {
      const utilization = cpuResource(metric)?.current;
      if (isJsonObject(utilization) && typeof utilization.averageUtilization === 'number') status.currentCPUUtilizationPercentage = utilization.averageUtilization;
    }
    // The raw values are kept even when they map to the CPU percentage.
    if (current.length > 0) annotations[CURRENT_METRICS_ANNOTATION] = JSON.stringify(current);
    if (Array.isArray(conditions) && conditions.length > 0) annotations[CONDITIONS_ANNOTATION] = JSON.stringify(conditions);
    out.status = status;
  }
  if (Object.keys(annotations).length > 0) out.metadata = { ...out.metadata, annotations };
  return out;
}

/** An autoscaling/v1 object as it is stored (v2); a malformed annotation is the error returned. */
export function horizontalPodAutoscalerFromV1(given: KubeObject): KubeObject | string {
  const { spec: specV1, status: statusV1, ...rest } = structuredClone(given) as KubeObject & { spec?: Json; status?: Json };
  const out: KubeObject & { spec?: Json; status?: Json } = { ...rest, apiVersion: V2 };
  const annotations: Record<string, string> = { ...(out.metadata?.annotations ?? {}) };
  const carried = (key: string): unknown => {
    const text = annotations[key];
    delete annotations[key];
    return text === undefined ? undefined : JSON.parse(text);
  };
  try {
    const otherMetrics = carried(OTHER_METRICS_ANNOTATION);
    const behavior = carried(BEHAVIOR_ANNOTATION);
    const currentMetrics = carried(CURRENT_METRICS_ANNOTATION);
    const conditions = carried(CONDITIONS_ANNOTATION);
    if (specV1) {
      const { targetCPUUtilizationPercentage, ...specRest } = specV1;
      const spec: Json = { ...specRest };
      const metrics: unknown[] = [];
      if (targetCPUUtilizationPercentage !== undefined && targetCPUUtilizationPercentage !== null) {
        metrics.push({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: targetCPUUtilizationPercentage } } });
      }
      if (Array.isArray(otherMetrics)) metrics.push(...otherMetrics);
      if (metrics.length > 0) spec.metrics = metrics;
      if (behavior !== undefined) spec.behavior = behavior;
      out.spec = spec;
    }
    if (statusV1) {
      const { currentCPUUtilizationPercentage, ...statusRest } = statusV1;
      const status: Json = { ...statusRest };
      // The annotation's values carry more than the percentage, and win over it.
      if (Array.isArray(currentMetrics)) status.currentMetrics = currentMetrics;
      else if (typeof currentCPUUtilizationPercentage === 'number') status.currentMetrics = [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: currentCPUUtilizationPercentage } } }];
      if (Array.isArray(conditions)) status.conditions = conditions;
      out.status = status;
    }
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  const metadata = { ...out.metadata };
  if (Object.keys(annotations).length > 0) metadata.annotations = annotations;
  else delete metadata.annotations;
  out.metadata = metadata;
  return out;
}
