/** How components record Events: the interface of the recorder every component is given. */
import type { ComponentName } from '../core/internals';
import type { KubeObject } from '../core/k8s';

export interface EventSource {
  component: ComponentName;
  /** The node name, for kubelet events. */
  host?: string;
  /**
   * The source an external controller reports instead of its component name (the local-path
   * provisioner's `rancher.io/local-path_<pod>_<uuid>`), as `kubectl describe` shows it under From.
   */
  reportAs?: string;
}

export interface EventRecorder {
  /** Record a core/v1 Event about `involved`, aggregated as client-go's event correlator does. */
  record(involved: KubeObject, type: 'Normal' | 'Warning', reason: string, message: string, source: EventSource, options?: EventOptions): void;
}

export interface EventOptions {
  /**
   * Record the event the way an events.k8s.io/v1 recorder does (the scheduler since 1.19):
   * `eventTime` with microseconds, `reportingComponent`, `action`, an empty `source` and null
   * first/lastTimestamp when read through core/v1.
   */
  eventsV1?: { action: string };
  /**
   * The part of the involved object the event is about, as `involvedObject.fieldPath`: the
   * kubelet's `spec.containers{NAME}` (kubecontainer.GenerateContainerRef) for a container's
   * pulls, starts, probes and kills. Events about the object as a whole have none.
   */
  fieldPath?: string;
}
