import assert from 'node:assert/strict';
import { componentGroup, GROUP_ORDER, GROUP_STYLES } from '../../../src/webview/model/components';

describe('component colours', () => {
  it('groups the components events and the tracer name', () => {
    const cases: [string, string][] = [
      ['kubectl', 'client'],
      ['kubectl-client-side-apply', 'client'],
      ['kube-apiserver', 'apiServer'],
      ['etcd', 'apiServer'],
      ['deployment-controller', 'controllerManager'],
      ['replicaset-controller', 'controllerManager'],
      ['statefulset-controller', 'controllerManager'],
      ['daemonset-controller', 'controllerManager'],
      ['job-controller', 'controllerManager'],
      ['cronjob-controller', 'controllerManager'],
      ['replication-controller', 'controllerManager'],
      ['ttl-after-finished-controller', 'controllerManager'],
      ['garbage-collector', 'controllerManager'],
      ['node-controller', 'controllerManager'],
      ['kube-controller-manager', 'controllerManager'],
      ['default-scheduler', 'scheduler'],
      ['my-scheduler', 'scheduler'],
      ['kubelet', 'kubelet'],
      ['container-runtime', 'runtime'],
      ['containerd', 'runtime'],
      ['cloud-provider-x', 'other'],
      ['', 'other'],
    ];
    for (const [component, group] of cases) assert.equal(componentGroup(component), group, component);
  });

  it('uses VS Code chart colours, each group its own', () => {
    const vars = GROUP_ORDER.map((g) => GROUP_STYLES[g].cssVar);
    assert.equal(new Set(vars).size, vars.length);
    for (const g of ['apiServer', 'controllerManager', 'scheduler', 'kubelet', 'runtime'] as const) assert.match(GROUP_STYLES[g].cssVar, /^--vscode-charts-/);
    assert.equal(GROUP_STYLES.client.cssVar, '--vscode-editor-foreground');
  });
});
