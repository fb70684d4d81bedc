import assert from 'node:assert/strict';
import { fieldRole } from '../../../src/core/explain/field-roles';

describe('field roles of a Service', () => {
  it('names the API server for the ClusterIP and node ports, the EndpointSlice controller for the selector and target ports, kube-proxy for the ports', () => {
    assert.equal(fieldRole('Service', ['spec', 'clusterIP'])?.component, 'kube-apiserver');
    assert.equal(fieldRole('Service', ['spec', 'type'])?.component, 'kube-apiserver');
    assert.equal(fieldRole('Service', ['spec', 'ports', 0, 'nodePort'])?.component, 'kube-apiserver');
    assert.equal(fieldRole('Service', ['spec', 'selector', 'app'])?.component, 'endpointslice-controller');
    assert.equal(fieldRole('Service', ['spec', 'ports', 1, 'targetPort'])?.component, 'endpointslice-controller');
    assert.equal(fieldRole('Service', ['spec', 'ports', 0, 'port'])?.component, 'kube-proxy');
    assert.equal(fieldRole('Service', ['spec', 'publishNotReadyAddresses'])?.component, 'endpointslice-controller');
    // A Deployment's selector is still the Deployment's.
    assert.notEqual(fieldRole('Deployment', ['spec', 'selector'])?.component, 'endpointslice-controller');
  });
});
