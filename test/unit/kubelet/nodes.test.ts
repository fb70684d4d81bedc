import assert from 'node:assert/strict';
import { makeNode, makeNodes, zoneNames } from '../../../src/sim/nodes';

function quantity(value: string | undefined): number {
  const match = /^(\d+)(m|Ki)?$/.exec(value ?? '');
  assert.ok(match, `unexpected quantity ${value}`);
  return Number(match[1]) / (match[2] === 'm' ? 1000 : 1);
}

describe('nodes', () => {
  const node = makeNode('node-1', { now: Date.UTC(2026, 0, 1, 12) });

  it('carries the labels kind gives its nodes: no zone, region or instance type', () => {
    assert.deepEqual(node.metadata?.labels, {
      'beta.kubernetes.io/arch': 'amd64',
      'beta.kubernetes.io/os': 'linux',
      'kubernetes.io/arch': 'amd64',
      'kubernetes.io/hostname': 'node-1',
      'kubernetes.io/os': 'linux',
    });
  });

  it('with zones, carries a cloud\'s topology labels', () => {
    assert.deepEqual(makeNode('node-2', { zones: zoneNames(3) }).metadata?.labels, {
      'beta.kubernetes.io/arch': 'amd64',
      'beta.kubernetes.io/instance-type': 'm5.xlarge',
      'beta.kubernetes.io/os': 'linux',
      'kubernetes.io/arch': 'amd64',
      'kubernetes.io/hostname': 'node-2',
      'kubernetes.io/os': 'linux',
      'node.kubernetes.io/instance-type': 'm5.xlarge',
      'topology.kubernetes.io/region': 'us-east-1',
      'topology.kubernetes.io/zone': 'us-east-1b',
    });
  });

  it('reports capacity, and a smaller allocatable', () => {
    const { capacity, allocatable } = node.status!;
    assert.equal(capacity?.cpu, '4');
    assert.equal(capacity?.pods, '110');
    assert.equal(allocatable?.cpu, '3920m');
    assert.equal(allocatable?.pods, '110');
    assert.ok(quantity(allocatable?.memory) < quantity(capacity?.memory));
    const gib = quantity(capacity?.memory) / 1024 / 1024;
    assert.ok(gib > 15 && gib <= 16, `${gib} GiB`);
  });

  it('is Ready with the kubelet condition reasons and messages', () => {
    assert.deepEqual(
      node.status?.conditions?.map((c) => [c.type, c.status, c.reason, c.message, c.lastHeartbeatTime]),
      [
        ['MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available', '2026-01-01T12:00:00Z'],
        ['DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure', '2026-01-01T12:00:00Z'],
        ['PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available', '2026-01-01T12:00:00Z'],
        ['Ready', 'True', 'KubeletReady', 'kubelet is posting ready status', '2026-01-01T12:00:00Z'],
      ],
    );
  });

  it('has addresses, node info, a pod CIDR and its system images', () => {
    assert.deepEqual(node.status?.addresses, [
      { type: 'InternalIP', address: '172.18.0.2' },
      { type: 'Hostname', address: 'node-1' },
    ]);
    assert.equal(node.status?.nodeInfo?.kubeletVersion, 'v1.32.2');
    assert.match(node.status?.nodeInfo?.containerRuntimeVersion ?? '', /^containerd:\/\/1\.7\.\d+$/);
    assert.equal(node.status?.nodeInfo?.operatingSystem, 'linux');
    assert.equal(node.spec?.podCIDR, '10.244.0.0/24');
    const names = node.status?.images?.flatMap((i) => i.names ?? []) ?? [];
    assert.ok(names.includes('registry.k8s.io/pause:3.10'));
    assert.ok(names.some((n) => /^registry\.k8s\.io\/pause@sha256:[0-9a-f]{64}$/.test(n)));
    const sizes = node.status?.images?.map((i) => i.sizeBytes ?? 0) ?? [];
    assert.deepEqual(sizes, [...sizes].sort((a, b) => b - a));
  });

  it('takes taints, extra labels and preloaded images', () => {
    const tainted = makeNode('gpu-1', {
      taints: [{ key: 'nvidia.com/gpu', value: 'present', effect: 'NoSchedule' }],
      labels: { accelerator: 'nvidia' },
      images: ['nginx:1.25'],
      cpu: 8,
      memoryGiB: 32,
    });
    assert.deepEqual(tainted.spec?.taints, [{ key: 'nvidia.com/gpu', value: 'present', effect: 'NoSchedule' }]);
    assert.equal(tainted.metadata?.labels?.accelerator, 'nvidia');
    assert.equal(tainted.status?.capacity?.cpu, '8');
    assert.ok(tainted.status?.images?.some((i) => i.names?.includes('docker.io/library/nginx:1.25')));
    assert.equal(makeNode('node-2').spec?.taints, undefined);
  });

  it('makes a cluster of nodes spread over zones, each with its own IP and pod CIDR', () => {
    const nodes = makeNodes(5000, { zones: zoneNames(3) });
    assert.deepEqual(nodes.slice(0, 4).map((n) => n.metadata?.name), ['node-1', 'node-2', 'node-3', 'node-4']);
    assert.deepEqual(nodes.slice(0, 4).map((n) => n.metadata?.labels?.['topology.kubernetes.io/zone']), ['us-east-1a', 'us-east-1b', 'us-east-1c', 'us-east-1a']);
    assert.equal(new Set(nodes.map((n) => n.spec?.podCIDR)).size, 5000);
    assert.equal(new Set(nodes.map((n) => n.status?.addresses?.[0].address)).size, 5000);
    assert.equal(nodes[1].spec?.podCIDR, '10.244.1.0/24');
    for (const n of nodes) assert.match(n.spec?.podCIDR ?? '', /^10\.(\d{1,3})\.(\d{1,3})\.0\/24$/);
  });
});
