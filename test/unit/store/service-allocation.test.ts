import assert from 'node:assert/strict';
import type { KubeObject } from '../../../src/core/k8s';
import { Simulator } from '../../../src/sim/simulator';
import { ApiError } from '../../../src/sim/store/types';

type ServiceSpec = { type?: string; clusterIP?: string; clusterIPs?: string[]; ports?: { port: number; nodePort?: number; name?: string; protocol?: string }[] };

function service(name: string, spec: Record<string, unknown>): KubeObject {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'default' }, spec: { selector: { app: name }, ports: [{ port: 80, protocol: 'TCP' }], ...spec } };
}

function specOf(sim: Simulator, name: string): ServiceSpec {
  return sim.store.get<KubeObject & { spec: ServiceSpec }>('Service', 'default', name)!.spec;
}

function refusal(action: () => unknown): ApiError {
  try {
    action();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  assert.fail('expected the API server to refuse');
}

function ipValue(ip: string): number {
  return ip.split('.').reduce((value, part) => value * 256 + Number(part), 0);
}

describe('Service ClusterIP and NodePort allocation', () => {
  it('starts with default/kubernetes on 10.96.0.1 and kube-system/kube-dns on 10.96.0.10, as kind', () => {
    const sim = new Simulator({ nodes: 1 });
    assert.equal(specOf(sim, 'kubernetes').clusterIP, '10.96.0.1');
    const dns = sim.store.get<KubeObject & { spec: ServiceSpec }>('Service', 'kube-system', 'kube-dns')!.spec;
    assert.equal(dns.clusterIP, '10.96.0.10');
    assert.deepEqual(dns.ports?.map((port) => `${port.port}/${port.protocol}`), ['53/UDP', '53/TCP', '9153/TCP']);
    assert.equal(sim.serviceAllocation.allocatedIPs, 2);
  });

  it('allocates a ClusterIP from 10.96.0.0/12 above the static band, keeps it on re-apply and releases it on delete', () => {
    const sim = new Simulator({ nodes: 1 });
    sim.apply(service('web', {}));
    const ip = specOf(sim, 'web').clusterIP!;
    assert.ok(ipValue(ip) >= ipValue('10.96.1.1') && ipValue(ip) <= ipValue('10.111.255.254'), ip);
    assert.deepEqual(specOf(sim, 'web').clusterIPs, [ip]);
    assert.equal(sim.apply(service('web', {})).action, 'unchanged');
    assert.equal(specOf(sim, 'web').clusterIP, ip);

    const taken = refusal(() => sim.apply(service('copy', { clusterIP: ip })));
    assert.equal(taken.code, 422);
    assert.equal(taken.message, `Service "copy" is invalid: spec.clusterIPs: Invalid value: []string{"${ip}"}: failed to allocate IP ${ip}: provided IP is already allocated`);
    const outside = refusal(() => sim.apply(service('outside', { clusterIP: '192.168.0.1' })));
    assert.match(outside.message, /failed to allocate IP 192\.168\.0\.1: the provided IP \(192\.168\.0\.1\) is not in the valid range\. The range of valid IPs is 10\.96\.0\.0\/12$/);

    sim.store.delete('Service', 'default', 'web');
    sim.apply(service('copy', { clusterIP: ip }));
    assert.equal(specOf(sim, 'copy').clusterIP, ip);
  });

  it('gives headless Services None and ExternalName Services no IP', () => {
    const sim = new Simulator({ nodes: 1 });
    sim.apply(service('headless', { clusterIP: 'None' }));
    assert.deepEqual(specOf(sim, 'headless').clusterIPs, ['None']);
    sim.apply({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'db', namespace: 'default' }, spec: { type: 'ExternalName', externalName: 'db.example.com' } });
    assert.equal(specOf(sim, 'db').clusterIP, undefined);
    assert.equal(sim.serviceAllocation.allocatedIPs, 2);
  });

  it('allocates NodePorts in 30000-32767 for NodePort and LoadBalancer Services and refuses a taken or out-of-range one', () => {
    const sim = new Simulator({ nodes: 1 });
    sim.apply(service('np', { type: 'NodePort', ports: [{ name: 'http', port: 80 }, { name: 'https', port: 443 }] }));
    sim.apply(service('lb', { type: 'LoadBalancer' }));
    const ports = [...(specOf(sim, 'np').ports ?? []), ...(specOf(sim, 'lb').ports ?? [])].map((port) => port.nodePort!);
    assert.equal(new Set(ports).size, 3);
    for (const port of ports) assert.ok(port >= 30000 && port <= 32767, String(port));
    assert.equal(specOf(sim, 'np').clusterIP !== undefined, true);

    const taken = refusal(() => sim.apply(service('other', { type: 'NodePort', ports: [{ port: 80, nodePort: ports[0] }] })));
    assert.equal(taken.message, `Service "other" is invalid: spec.ports[0].nodePort: Invalid value: ${ports[0]}: provided port is already allocated`);
    const outside = refusal(() => sim.apply(service('other', { type: 'NodePort', ports: [{ port: 80, nodePort: 8080 }] })));
    assert.equal(outside.message, 'Service "other" is invalid: spec.ports[0].nodePort: Invalid value: 8080: provided port is not in the valid range. The range of valid ports is 30000-32767');
    // A refused create holds nothing: the port is still free for a later Service once np lets it go.
    sim.store.delete('Service', 'default', 'np');
    sim.apply(service('other', { type: 'NodePort', ports: [{ port: 80, nodePort: ports[0] }] }));
    assert.equal(specOf(sim, 'other').ports?.[0].nodePort, ports[0]);
  });
});
