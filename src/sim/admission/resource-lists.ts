/**
 * Resource lists as the admission plugins add them up (k8s.io/component-helpers/resource):
 * exact quantities (nano units), sums keeping the first addend's format, and a pod's effective
 * requests and limits: the larger of its containers' sum and each init container alone.
 */
import type { Container, PodSpec } from '../../core/k8s';
import { formatQuantity, parseQuantity, type Quantity } from '../../core/schema/quantity';

export type ResourceList = Record<string, string>;
export type QuantityMap = Map<string, Quantity>;

export function quantityOf(value: string | number | undefined): Quantity | undefined {
  return value === undefined ? undefined : parseQuantity(value).quantity;
}

/** Quantity.String(). */
export function quantityText(quantity: Quantity): string {
  return formatQuantity(quantity);
}

/** Quantity.Add: the sum keeps the first addend's format, unless that one is zero. */
export function add(a: Quantity | undefined, b: Quantity): Quantity {
  if (!a || a.nano === 0n) return a ? { nano: b.nano, format: b.format } : b;
  return { nano: a.nano + b.nano, format: a.format };
}

export function toQuantities(list: ResourceList | undefined): QuantityMap {
  const out: QuantityMap = new Map();
  for (const [name, value] of Object.entries(list ?? {})) {
    const quantity = quantityOf(value);
    if (quantity) out.set(name, quantity);
  }
  return out;
}

function addInto(total: QuantityMap, list: ResourceList | undefined): void {
  for (const [name, value] of Object.entries(list ?? {})) {
    const quantity = quantityOf(value);
    if (quantity) total.set(name, add(total.get(name), quantity));
  }
}

function maxInto(total: QuantityMap, list: ResourceList | undefined): void {
  for (const [name, value] of Object.entries(list ?? {})) {
    const quantity = quantityOf(value);
    const current = total.get(name);
    if (quantity && (!current || quantity.nano > current.nano)) total.set(name, quantity);
  }
}

/** PodRequests / PodLimits: containers summed, each init container's own need if larger, plus overhead. */
export function podResources(spec: PodSpec | undefined, which: 'requests' | 'limits'): QuantityMap {
  const total: QuantityMap = new Map();
  for (const container of spec?.containers ?? []) addInto(total, container.resources?.[which] as ResourceList | undefined);
  for (const container of spec?.initContainers ?? []) maxInto(total, container.resources?.[which] as ResourceList | undefined);
  addInto(total, spec?.overhead as ResourceList | undefined);
  return total;
}

export function containerList(container: Container, which: 'requests' | 'limits'): ResourceList | undefined {
  return container.resources?.[which] as ResourceList | undefined;
}
