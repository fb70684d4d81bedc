/**
 * The values of one topology key across the node rows (`topologyPair`s), numbered: row → domain
 * number (-1 when the node lacks the label) and domain number → value. Rebuilt only when nodes
 * are added, removed or relabelled, so an attempt sums per-domain counts over typed arrays.
 */

export interface TopologyDomains {
  readonly key: string;
  /** Per node row: its domain's number, -1 without the label. */
  readonly domainOf: Int32Array;
  readonly values: readonly string[];
}

export interface LabelledNode {
  readonly index: number;
  readonly labels: Readonly<Record<string, string>>;
}

export function buildDomains(key: string, nodes: readonly LabelledNode[]): TopologyDomains {
  const domainOf = new Int32Array(nodes.length).fill(-1);
  const numbers = new Map<string, number>();
  const values: string[] = [];
  for (const node of nodes) {
    const value = node.labels[key];
    if (value === undefined) continue;
    let number = numbers.get(value);
    if (number === undefined) {
      number = values.length;
      numbers.set(value, number);
      values.push(value);
    }
    domainOf[node.index] = number;
  }
  return { key, domainOf, values };
}

/** Per domain: the sum of `counts` over the rows `include` accepts (all rows without it). */
export function sumByDomain(domains: TopologyDomains, counts: Int32Array, rows: number, include?: (row: number) => boolean): Float64Array {
  const sums = new Float64Array(domains.values.length);
  const { domainOf } = domains;
  for (let row = 0; row < rows; row++) {
    const domain = domainOf[row];
    if (domain < 0 || counts[row] === 0) continue;
    if (include && !include(row)) continue;
    sums[domain] += counts[row];
  }
  return sums;
}
