import assert from 'node:assert/strict';
import { ACTOR_BOXES, actorOf, arrowGeometry, controlPlanePod, controlPlaneSteps, stepIndexOf } from '../../../src/webview/model/control-plane';
import { objectKey } from '../../../src/webview/model/lanes';
import { buildLargeJourney } from '../../webview/journey-fixtures';

describe('control-plane steps', () => {
  const journey = buildLargeJourney({ pods: 6, nodes: 3, podsPerNode: 2, brokenNode: 'node-2', detailPods: 6 });
  const pods = journey.tree!.children[0].children;

  it('follows one pod: the Deployment, its ReplicaSet and the pod, in time order', () => {
    const pod = pods[0];
    const steps = controlPlaneSteps(journey, pod);
    const kinds = new Set(steps.map((s) => s.object.kind));
    assert.deepEqual([...kinds].sort(), ['Deployment', 'Pod', 'ReplicaSet']);
    assert.equal(steps.filter((s) => s.object.kind === 'Pod').length, pod.stages.length);
    for (let i = 1; i < steps.length; i++) assert.ok(steps[i - 1].offsetMs <= steps[i].offsetMs, `step ${i} goes back in time`);
    assert.equal(steps[0].stage.kind, 'submitted');
    assert.deepEqual(steps[0].arrows.map((a) => [a.from, a.to]), [['kubectl', 'apiserver']]);
  });

  it('draws a binding as scheduler → API server, the recorded etcd write, and the watches it woke', () => {
    const pod = pods[0];
    const steps = controlPlaneSteps(journey, pod);
    const index = stepIndexOf(steps, objectKey(pod.ref), 'scheduled')!;
    const step = steps[index];
    assert.equal(step.actor, 'scheduler');
    assert.deepEqual(step.arrows.map((a) => `${a.from}→${a.to}:${a.kind}:${a.observed}`), [
      'scheduler→apiserver:request:false',
      'apiserver→etcd:write:true',
      'apiserver→kubelet:watch:true',
      'apiserver→scheduler:watch:true',
      'apiserver→controllerManager:watch:true',
    ]);
    assert.match(step.arrows[1].label, /^update \/registry\/pods\/shop\//);
    assert.ok(step.internals.some((line) => line.startsWith(`etcd key written: /registry/pods/shop/${pod.ref.name} (update, resourceVersion `)));
    assert.ok(step.internals.some((line) => line.startsWith(`watch delivered: MODIFIED Pod ${pod.ref.name} to kubelet`)));
    assert.ok(step.internals.some((line) => /^scheduling cycle: \d+\/\d+ evaluated nodes feasible of 3, picked node-\d$/.test(line)));
  });

  it('shows kubelet to runtime calls for image and container stages', () => {
    const steps = controlPlaneSteps(journey, pods[0]);
    const byKind = (kind: string) => steps.find((s) => s.stage.kind === kind)!;
    assert.deepEqual(byKind('pulling').arrows[0], { from: 'kubelet', to: 'runtime', kind: 'cri', label: 'PullImage registry.example.com/shop/web:2.4.1', observed: false });
    assert.equal(byKind('containerStarted').arrows[0].label, 'StartContainer web');
    assert.deepEqual([byKind('ready').arrows[0].from, byKind('ready').arrows[0].to], ['kubelet', 'apiserver']);
  });

  it('picks the preferred pod, else the first stuck one, else the first', () => {
    assert.equal(controlPlanePod(journey, objectKey(pods[4].ref)), pods[4]);
    const firstStuck = pods.find((p) => p.status === 'stuck');
    assert.equal(controlPlanePod(journey, 'Pod/shop/gone'), firstStuck);
    const healthy = buildLargeJourney({ pods: 2, nodes: 2, brokenNode: '' });
    assert.equal(controlPlanePod(healthy), healthy.tree!.children[0].children[0]);
    assert.equal(controlPlanePod({ ...healthy, tree: undefined }), undefined);
    assert.deepEqual(controlPlaneSteps({ ...healthy, tree: undefined }, undefined), []);
  });

  it('maps components to boxes', () => {
    assert.equal(actorOf('deployment-controller'), 'controllerManager');
    assert.equal(actorOf('default-scheduler'), 'scheduler');
    assert.equal(actorOf('etcd'), 'etcd');
    assert.equal(actorOf('kube-apiserver'), 'apiserver');
    assert.equal(actorOf('container-runtime'), 'runtime');
    assert.equal(actorOf('kubectl-client-side-apply'), 'kubectl');
  });

  it('starts and ends arrows on the box edges, with parallel arrows apart', () => {
    const g = arrowGeometry('apiserver', 'etcd');
    const a = ACTOR_BOXES.apiserver;
    const e = ACTOR_BOXES.etcd;
    assert.equal(g.y1, a.y + a.h);
    assert.equal(g.y2, e.y);
    const there = arrowGeometry('kubelet', 'apiserver', 1);
    const back = arrowGeometry('apiserver', 'kubelet', 1);
    assert.notEqual(there.y1, back.y2, 'a request and its watch back must not overlap');
  });
});
