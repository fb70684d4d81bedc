/**
 * Who deleted an object, as a journey tells it. The API server records no deleter, so it is
 * inferred the way the controllers decide: a ReplicaSet with more live pods than it wants deletes
 * some (replicaset-controller), an object whose owner is gone or going is collected
 * (garbage-collector), a bound pod's final removal is the kubelet's once its containers stopped;
 * an event that names the deleter (a `Killing` or `SuccessfulDelete`) wins over the inference.
 */
import type { ObjectDigest } from './digest';
import type { ObjectRecord } from './records';
import type { Component } from './types';
import { deletedByPodGC, POD_GARBAGE_COLLECTOR } from './derive-pod';

/** Who set deletionTimestamp: the replicaset-controller when it has more pods than it wants, the garbage collector when the owner is gone. */
export function deleterOf(record: ObjectRecord): Component {
  if (record.deleterHint) return record.deleterHint;
  const parent = record.parent;
  if (!parent) return 'kube-apiserver';
  if (parent.deleted || parent.digest?.deletionTimestamp) return 'garbage-collector';
  if (record.kind === 'Pod' && parent.digest?.kind === 'ReplicaSet' && parent.podCounters && parent.podCounters.live > parent.digest.specReplicas) return 'replicaset-controller';
  return 'kube-apiserver';
}

export function finalDeleterOf(record: ObjectRecord, digest: ObjectDigest): Component {
  if (digest.kind === 'Pod' && deletedByPodGC(digest)) return POD_GARBAGE_COLLECTOR;
  if (digest.kind === 'Pod' && digest.nodeName) return 'kubelet';
  if (record.parent && (record.parent.deleted || record.parent.digest?.deletionTimestamp)) return 'garbage-collector';
  return 'kube-apiserver';
}
