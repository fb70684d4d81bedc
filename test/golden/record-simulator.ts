/**
 * Records what the built-in simulator streams while applying an example manifest, as a golden
 * stream: `node --import tsx test/golden/record-simulator.ts` rewrites test/golden/sim-*.
 * Then `UPDATE_GOLDEN=1 npx mocha test/unit/journey/golden.test.ts` refreshes the expectations.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseManifest } from '../../src/core/manifest';
import { formatStreamRecord, type StreamRecord } from '../../src/core/journey/stream';
import type { ResourceKind } from '../../src/core/k8s';
import { Simulator } from '../../src/sim/simulator';
import { TRACEABLE_KIND_NAMES, isTraceableKind } from '../../src/common/traceable-kinds';

const RECORDINGS: { name: string; file: string; virtualMs: number }[] = [
  { name: 'sim-nginx-deployment', file: 'examples/nginx-deployment.yaml', virtualMs: 20_000 },
  { name: 'sim-too-big', file: 'examples/too-big.yaml', virtualMs: 5_000 },
  { name: 'sim-statefulset', file: 'examples/statefulset.yaml', virtualMs: 15_000 },
  { name: 'sim-statefulset-storage', file: 'examples/statefulset-storage.yaml', virtualMs: 20_000 },
  { name: 'sim-daemonset', file: 'test/corpus/docs/controllers/daemonset.yaml', virtualMs: 15_000 },
  { name: 'sim-job', file: 'test/corpus/docs/controllers/job.yaml', virtualMs: 40_000 },
  { name: 'sim-cronjob', file: 'examples/cronjob.yaml', virtualMs: 75_000 },
  { name: 'sim-memory-oom', file: 'examples/memory-limit-oom.yaml', virtualMs: 60_000 },
  { name: 'sim-exec-liveness', file: 'test/corpus/docs/pods/probe/exec-liveness.yaml', virtualMs: 120_000 },
  { name: 'sim-http-liveness', file: 'test/corpus/docs/pods/probe/http-liveness.yaml', virtualMs: 60_000 },
  { name: 'sim-sidecar-deployment', file: 'test/corpus/docs/application/deployment-sidecar.yaml', virtualMs: 20_000 },
  { name: 'sim-init-containers', file: 'test/corpus/docs/pods/init-containers.yaml', virtualMs: 30_000 },
  { name: 'sim-pod-affinity', file: 'test/corpus/docs/pods/pod-with-pod-affinity.yaml', virtualMs: 15_000 },
  { name: 'sim-topology-spread', file: 'test/corpus/docs/pods/topology-spread-constraints/one-constraint.yaml', virtualMs: 15_000 },
];

// Claims: a pod's journey shows its claims binding (core/journey/claims.ts).
const KINDS: readonly ResourceKind[] = [...TRACEABLE_KIND_NAMES, 'Event', 'Node', 'PersistentVolumeClaim'];

for (const recording of RECORDINGS) {
  const simulator = new Simulator({ nodes: 3, seed: 1 });
  const records: StreamRecord[] = [];
  for (const kind of KINDS) {
    simulator.store.subscribe(kind, (change) => {
      // Node heartbeats say nothing about the journey and would dominate the file.
      if (kind === 'Node' && change.type === 'MODIFIED') return;
      records.push({ receivedAt: simulator.clock.now(), event: { type: change.type, object: structuredClone(change.object) } });
    });
  }
  simulator.internals.onStep((step) => {
    if (step.type !== 'watchDelivered') records.push({ receivedAt: step.time, internal: structuredClone(step) });
  });
  for (const document of parseManifest(readFileSync(recording.file, 'utf8')).documents) {
    const object = document.object!;
    if (isTraceableKind(object.kind)) {
      records.push({ receivedAt: simulator.clock.now(), begin: { kind: object.kind, namespace: object.metadata?.namespace ?? 'default', name: object.metadata?.name ?? '' } });
    }
    simulator.apply(object);
  }
  simulator.runUntil(() => false, recording.virtualMs);
  const dir = join('test', 'golden', recording.name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'stream.ndjson'), `${records.map(formatStreamRecord).join('\n')}\n`);
  process.stdout.write(`${dir}/stream.ndjson: ${records.length} records\n`);
}
