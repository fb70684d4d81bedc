import assert from 'node:assert/strict';
import { quantityMilliValue, quantityValue } from '../../../src/sim/scheduler/quantity';
import { computePodResources, DEFAULT_MEMORY_REQUEST } from '../../../src/sim/scheduler/resources';
import { makePod } from './fixtures';

describe('scheduler resource arithmetic', () => {
  it('parses quantities as apimachinery does, rounding up', () => {
    assert.equal(quantityMilliValue('100m'), 100);
    assert.equal(quantityMilliValue('0.1'), 100);
    assert.equal(quantityMilliValue('1.5'), 1500);
    assert.equal(quantityMilliValue('2'), 2000);
    assert.equal(quantityMilliValue(2), 2000);
    assert.equal(quantityValue('100m'), 1);
    assert.equal(quantityValue('128974848'), 128974848);
    assert.equal(quantityValue('129e6'), 129000000);
    assert.equal(quantityValue('129M'), 129000000);
    assert.equal(quantityValue('123Mi'), 123 * 1024 * 1024);
    assert.equal(quantityValue('1.5Gi'), 1610612736);
    assert.equal(quantityValue('2k'), 2000);
    assert.equal(quantityValue('110'), 110);
    assert.equal(quantityValue('not-a-quantity'), 0);
  });

  it('sums containers, takes the max with init containers, adds sidecars and overhead', () => {
    const pod = makePod({
      name: 'p',
      containers: [
        { name: 'a', resources: { requests: { cpu: '2', memory: '1G' } } },
        { name: 'b', resources: { requests: { cpu: '1', memory: '1G' } } },
      ],
      initContainers: [
        { name: 'i1', resources: { requests: { cpu: '2', memory: '1G' } } },
        { name: 'i2', resources: { requests: { cpu: '2', memory: '3G' } } },
      ],
      overhead: { cpu: '250m' },
    });
    const r = computePodResources(pod.spec);
    assert.equal(r.milliCPU, 3250);
    assert.equal(r.memory, 3_000_000_000);

    const sidecar = makePod({
      name: 's',
      containers: [{ name: 'a', resources: { requests: { cpu: '1' } } }],
      initContainers: [
        { name: 'proxy', restartPolicy: 'Always', resources: { requests: { cpu: '500m' } } },
        { name: 'setup', resources: { requests: { cpu: '1' } } },
      ],
    });
    // Regular containers plus the sidecar (1.5), versus setup running next to the sidecar (1.5).
    assert.equal(computePodResources(sidecar.spec).milliCPU, 1500);
  });

  it('counts missing cpu/memory requests as 100m / 200Mi for scoring only', () => {
    const r = computePodResources(makePod({ name: 'p', cpu: '250m' }).spec);
    assert.equal(r.milliCPU, 250);
    assert.equal(r.memory, 0);
    assert.equal(r.nonZeroMilliCPU, 250);
    assert.equal(r.nonZeroMemory, DEFAULT_MEMORY_REQUEST);
    const twoEmpty = computePodResources(makePod({ name: 'q', containers: [{ name: 'a' }, { name: 'b' }] }).spec);
    assert.equal(twoEmpty.nonZeroMilliCPU, 200);
  });

  it('keeps extended resources as scalars', () => {
    const r = computePodResources(makePod({ name: 'p', extended: { 'nvidia.com/gpu': '1', 'hugepages-2Mi': '4Mi' } }).spec);
    assert.deepEqual(new Map(r.scalar), new Map([['nvidia.com/gpu', 1], ['hugepages-2Mi', 4 * 1024 * 1024]]));
  });
});
