/**
 * `hostPort 8081 instead of 8080`: for each host port another workload's pod holds on nodes every
 * other filter passes, the nearest higher port free on all of them (same IP and protocol). A port
 * held by the pod's own siblings is left out: they come from the same template, so a new port would
 * collide again (fewer replicas is the change there, see replicas.ts).
 */
import { BIND_ALL_HOST_IP, type HostPort } from '../host-ports';
import type { NodeInfo } from '../node-info';
import { F_PORTS, rowsBlockedOnlyBy } from './probe';
import type { Candidate, SuggestionInput } from './types';

const HIGHEST_PORT = 65_535;

function freeEverywhere(nodes: readonly NodeInfo[], port: HostPort): boolean {
  return nodes.every((node) => !node.usedPorts.conflicts(port));
}

export function suggestHostPorts(input: SuggestionInput): Candidate[] {
  const { probe, masks, pod } = input;
  const rows = rowsBlockedOnlyBy(masks, F_PORTS);
  if (rows.length === 0) return [];
  const siblings = new Set(input.siblings.map((sibling) => sibling.metadata?.uid));
  const nodes = rows.map((row) => probe.nodes[row]).filter((node) => ![...node.pods.values()].some((placed) => siblings.has(placed.uid) && placed.hostPorts.length > 0));
  if (nodes.length === 0) return [];
  const out: Candidate[] = [];
  (pod.spec?.containers ?? []).forEach((container, i) => {
    (container.ports ?? []).forEach((declared, j) => {
      if (!declared.hostPort || declared.hostPort <= 0) return;
      const port: HostPort = { ip: declared.hostIP || BIND_ALL_HOST_IP, protocol: declared.protocol || 'TCP', port: declared.hostPort };
      if (freeEverywhere(nodes, port)) return;
      let free = port.port + 1;
      while (free <= HIGHEST_PORT && !freeEverywhere(nodes, { ...port, port: free })) free++;
      if (free > HIGHEST_PORT) return;
      const path = `spec.containers[${i}].ports[${j}].hostPort`;
      out.push({ kind: 'hostPort', summary: `hostPort ${free} instead of ${port.port}`, path, edits: [{ op: 'set', path, value: free }] });
    });
  });
  return out;
}
