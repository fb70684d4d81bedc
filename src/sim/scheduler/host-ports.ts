/** Host ports in use on a node (framework `HostPortInfo`), where 0.0.0.0 conflicts with every IP. */
import type { PodSpec } from '../../core/k8s';

export const BIND_ALL_HOST_IP = '0.0.0.0';

export interface HostPort {
  ip: string;
  protocol: string;
  port: number;
}

/** Ports with a hostPort from containers and restartable init containers (`schedutil.GetHostPorts`). */
export function podHostPorts(spec: PodSpec | undefined): HostPort[] {
  const out: HostPort[] = [];
  if (!spec) return out;
  const containers = [...(spec.initContainers ?? []).filter((c) => c.restartPolicy === 'Always'), ...(spec.containers ?? [])];
  for (const container of containers) {
    for (const port of container.ports ?? []) {
      if (!port.hostPort || port.hostPort <= 0) continue;
      out.push({ ip: port.hostIP || BIND_ALL_HOST_IP, protocol: port.protocol || 'TCP', port: port.hostPort });
    }
  }
  return out;
}

export class HostPortInfo {
  /** ip → "protocol/port" → how many pods hold it (counted, so removing one of two holders keeps it). */
  private readonly byIp = new Map<string, Map<string, number>>();

  get size(): number {
    let total = 0;
    for (const ports of this.byIp.values()) total += ports.size;
    return total;
  }

  isEmpty(): boolean {
    return this.byIp.size === 0;
  }

  add(port: HostPort): void {
    let ports = this.byIp.get(port.ip);
    if (!ports) this.byIp.set(port.ip, (ports = new Map()));
    const key = `${port.protocol}/${port.port}`;
    ports.set(key, (ports.get(key) ?? 0) + 1);
  }

  remove(port: HostPort): void {
    const ports = this.byIp.get(port.ip);
    if (!ports) return;
    const key = `${port.protocol}/${port.port}`;
    const count = (ports.get(key) ?? 0) - 1;
    if (count > 0) ports.set(key, count);
    else ports.delete(key);
    if (ports.size === 0) this.byIp.delete(port.ip);
  }

  conflicts(port: HostPort): boolean {
    if (this.byIp.size === 0) return false;
    const key = `${port.protocol}/${port.port}`;
    if (port.ip === BIND_ALL_HOST_IP) {
      for (const ports of this.byIp.values()) if (ports.has(key)) return true;
      return false;
    }
    return (this.byIp.get(BIND_ALL_HOST_IP)?.has(key) ?? false) || (this.byIp.get(port.ip)?.has(key) ?? false);
  }
}
