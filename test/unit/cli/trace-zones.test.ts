/**
 * `trace --zones`: the nodes get zone labels, so a Deployment spread over zones places its pods
 * evenly; without zones (kind's labels) the same spread constraint leaves the pods Pending.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { runTrace } from '../../../src/cli/trace';
import { parseRecords } from './records';

class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

const ZONE_SPREAD = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 6
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      topologySpreadConstraints:
      - maxSkew: 1
        topologyKey: topology.kubernetes.io/zone
        whenUnsatisfiable: DoNotSchedule
        labelSelector:
          matchLabels: {app: web}
      containers:
      - name: nginx
        image: nginx:1.25
`;

async function trace(zones: number | undefined, json = false): Promise<{ code: number; out: string; err: string }> {
  const file = join(mkdtempSync(join(tmpdir(), 'kj-zones-')), 'web.yaml');
  writeFileSync(file, ZONE_SPREAD);
  const out = new Capture();
  const err = new Capture();
  const code = await runTrace({ file, nodes: 3, zones, seed: 1, timeoutMs: 60_000, json, evidence: false, width: 400, out, err });
  return { code, out: out.text, err: err.text };
}

describe('kube-journey trace --zones', () => {
  it('spreads a Deployment evenly over three zones', async () => {
    const { code, out } = await trace(3, true);
    assert.equal(code, 0, out);
    // Each pod's node, from its record (the text output folds pods past the fifth).
    const perNode = new Map<string, number>();
    for (const record of parseRecords(out).objects) {
      const node = record.ref.kind === 'Pod' ? record.pod?.node : undefined;
      if (node) perNode.set(node, (perNode.get(node) ?? 0) + 1);
    }
    assert.deepEqual([...perNode.entries()].sort(), [['node-1', 2], ['node-2', 2], ['node-3', 2]]);
  });

  it('without zones, nodes lack the label and the pods stay Pending with PodTopologySpread\'s reason', async () => {
    const { code, err } = await trace(undefined);
    assert.equal(code, 1);
    assert.match(err, /3 node\(s\) didn't match pod topology spread constraints \(missing required label\)/);
  });
});
