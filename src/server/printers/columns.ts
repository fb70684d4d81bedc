/**
 * Column definitions of the server-side Table for each kind, as kubernetes
 * pkg/printers/internalversion/printers.go `AddHandlers` declares them. Descriptions are the
 * Go types' SwaggerDoc strings the apiserver sends; Deployment and ReplicaSet columns quote the
 * extensions/v1beta1 docs, as upstream does. The other workload columns quote the v1 docs of
 * kubernetes-types (src/core/schema), which upstream's beta-type references read the same as.
 */
import type { ResourceKind } from '../../core/k8s';

export interface TableColumnDefinition {
  name: string;
  type: string;
  format: string;
  description: string;
  /** 0: always shown; 1: shown by kubectl only with `-o wide`. */
  priority: number;
}

export const NAME_DOC =
  'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names';
export const CREATION_TIMESTAMP_DOC =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';
const CONTAINERS_DOC = 'Names of each container in the template.';
const IMAGES_DOC = 'Images referenced by each container in the template.';

function column(name: string, type: string, description: string, priority = 0, format = ''): TableColumnDefinition {
  return { name, type, format, description, priority };
}

const nameColumn = (priority = 0) => column('Name', 'string', NAME_DOC, priority, 'name');
const ageColumn = () => column('Age', 'string', CREATION_TIMESTAMP_DOC);

const podColumns: TableColumnDefinition[] = [
  nameColumn(),
  column('Ready', 'string', 'The aggregate readiness state of this pod for accepting traffic.'),
  column('Status', 'string', 'The aggregate status of the containers in this pod.'),
  column('Restarts', 'string', 'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.'),
  ageColumn(),
  column('IP', 'string', 'podIP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.', 1),
  column('Node', 'string', 'NodeName is a request to schedule this pod onto a specific node. If it is non-empty, the scheduler simply schedules this pod onto that node, assuming that it fits resource requirements.', 1),
  column('Nominated Node', 'string', 'nominatedNodeName is set only when this pod preempts other pods on the node, but it cannot be scheduled right away as preemption victims receive their graceful termination periods. This field does not guarantee that the pod will be scheduled on this node. Scheduler may decide to place the pod elsewhere if other nodes become available sooner. Scheduler may also decide to give the resources on this node to a higher priority pod that is created after preemption. As a result, this field may be different than PodSpec.nodeName when the pod is scheduled.', 1),
  column('Readiness Gates', 'string', 'If specified, all readiness gates will be evaluated for pod readiness. A pod is ready when all its containers are ready AND all conditions specified in the readiness gates have status equal to "True" More info: https://git.k8s.io/enhancements/keps/sig-network/580-pod-readiness-gates', 1),
];

const deploymentColumns: TableColumnDefinition[] = [
  nameColumn(),
  column('Ready', 'string', 'Number of the pod with ready state'),
  column('Up-to-date', 'string', 'Total number of non-terminated pods targeted by this deployment that have the desired template spec.'),
  column('Available', 'string', 'Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.'),
  ageColumn(),
  column('Containers', 'string', CONTAINERS_DOC, 1),
  column('Images', 'string', IMAGES_DOC, 1),
  column('Selector', 'string', 'Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment.', 1),
];

const replicaSetColumns: TableColumnDefinition[] = [
  nameColumn(),
  column('Desired', 'integer', 'Replicas is the number of desired replicas. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller/#what-is-a-replicationcontroller'),
  column('Current', 'integer', 'Replicas is the most recently oberved number of replicas. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller/#what-is-a-replicationcontroller'),
  column('Ready', 'integer', 'The number of ready replicas for this replica set.'),
  ageColumn(),
  column('Containers', 'string', CONTAINERS_DOC, 1),
  column('Images', 'string', IMAGES_DOC, 1),
  column('Selector', 'string', 'Selector is a label query over pods that should match the replica count. If the selector is empty, it is defaulted to the labels present on the pod template. Label keys and values that must match in order to be controlled by this replica set. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors', 1),
];

const eventColumns: TableColumnDefinition[] = [
  column('Last Seen', 'string', 'The time at which the most recent occurrence of this event was recorded.'),
  column('Type', 'string', 'Type of this event (Normal, Warning), new types could be added in the future'),
  column('Reason', 'string', "This should be a short, machine understandable string that gives the reason for the transition into the object's current status."),
  column('Object', 'string', 'The object that this event is about.'),
  column('Subobject', 'string', 'If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2]. For example, if the object reference is to a container within a pod, this would take on a value like: "spec.containers{name}" (where "name" refers to the name of the container that triggered the event) or if no container name is specified "spec.containers[2]" (container with index 2 in this pod). This syntax is chosen only to have some well-defined way of referencing a part of an object.', 1),
  column('Source', 'string', 'The component reporting this event. Should be a short machine understandable string.', 1),
  column('Message', 'string', 'A human-readable description of the status of this operation.'),
  column('First Seen', 'string', 'The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)', 1),
  column('Count', 'string', 'The number of times this event has occurred.', 1),
  nameColumn(1),
];

const NODE_ADDRESSES_DOC =
  "List of addresses reachable to the node. Queried from cloud provider, if available. More info: https://kubernetes.io/docs/concepts/nodes/node/#addresses Note: This field is declared as mergeable, but the merge key is not sufficiently unique, which can cause data corruption when it is merged. Callers should instead use a full-replacement patch. See https://pr.k8s.io/79391 for an example. Consumers should assume that addresses can change during the lifetime of a Node. However, there are some exceptions where this may not be possible, such as Pods that inherit a Node's address in its own status or consumers of the downward API (status.hostIP).";

const nodeColumns: TableColumnDefinition[] = [
  nameColumn(),
  column('Status', 'string', 'The status of the node'),
  column('Roles', 'string', 'The roles of the node'),
  ageColumn(),
  column('Version', 'string', 'Kubelet Version reported by the node.'),
  column('Internal-IP', 'string', NODE_ADDRESSES_DOC, 1),
  column('External-IP', 'string', NODE_ADDRESSES_DOC, 1),
  column('OS-Image', 'string', 'OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).', 1),
  column('Kernel-Version', 'string', "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).", 1),
  column('Container-Runtime', 'string', 'ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).', 1),
];

const namespaceColumns: TableColumnDefinition[] = [nameColumn(), column('Status', 'string', 'The status of the namespace'), ageColumn()];

const configMapColumns: TableColumnDefinition[] = [
  nameColumn(),
  column('Data', 'string', "Data contains the configuration data. Each key must consist of alphanumeric characters, '-', '_' or '.'. Values with non-UTF-8 byte sequences must use the BinaryData field. The keys stored in Data must not overlap with the keys in the BinaryData field, this is enforced during validation process."),
  ageColumn(),
];

const replicationControllerColumns: TableColumnDefinition[] = [
  nameColumn(),
  column('Desired', 'integer', 'Replicas is the number of desired replicas. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller#what-is-a-replicationcontroller'),
  column('Current', 'integer', 'Replicas is the most recently observed number of replicas. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller#what-is-a-replicationcontroller'),
  column('Ready', 'integer', 'The number of ready replicas for this replication controller.'),
  ageColumn(),
  column('Containers', 'string', CONTAINERS_DOC, 1),
  column('Images', 'string', IMAGES_DOC, 1),
  column('Selector', 'string', 'Selector is a label query over pods that should match the Replicas count. If Selector is empty, it is defaulted to the labels present on the Pod template. Label keys and values that must match in order to be controlled by this replication controller, if empty defaulted to labels on Pod template. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors', 1),
];

const statefulSetColumns: TableColumnDefinition[] = [
  nameColumn(),
  column('Ready', 'string', 'Number of the pod with ready state'),
  ageColumn(),
  column('Containers', 'string', CONTAINERS_DOC, 1),
  column('Images', 'string', IMAGES_DOC, 1),
];

const daemonSetColumns: TableColumnDefinition[] = [
  nameColumn(),
  column('Desired', 'integer', 'The total number of nodes that should be running the daemon pod (including nodes correctly running the daemon pod). More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/'),
  column('Current', 'integer', 'The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod. More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/'),
  column('Ready', 'integer', 'numberReady is the number of nodes that should be running the daemon pod and have one or more of the daemon pod running with a Ready Condition.'),
  column('Up-to-date', 'integer', 'The total number of nodes that are running updated daemon pod'),
  column('Available', 'integer', 'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available (ready for at least spec.minReadySeconds)'),
  column('Node Selector', 'string', "NodeSelector is a selector which must be true for the pod to fit on a node. Selector which must match a node's labels for the pod to be scheduled on that node. More info: https://kubernetes.io/docs/concepts/configuration/assign-pod-node/"),
  ageColumn(),
  column('Containers', 'string', CONTAINERS_DOC, 1),
  column('Images', 'string', IMAGES_DOC, 1),
  column('Selector', 'string', "A label query over pods that are managed by the daemon set. Must match in order to be controlled. It must match the pod template's labels. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors", 1),
];

const controllerRevisionColumns: TableColumnDefinition[] = [
  nameColumn(),
  column('Controller', 'string', 'Controller of the object'),
  column('Revision', 'string', 'Revision indicates the revision of the state represented by Data.'),
  ageColumn(),
];

const JOB_SELECTOR_DOC = 'A label query over pods that should match the pod count. Normally, the system sets this field for you. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors';

const jobColumns: TableColumnDefinition[] = [
  nameColumn(),
  column('Status', 'string', 'Status of the job.'),
  column('Completions', 'string', 'The number of pods which reached phase Succeeded. The value increases monotonically for a given spec. However, it may decrease in reaction to scale down of elastic indexed jobs.'),
  column('Duration', 'string', 'Time required to complete the job.'),
  ageColumn(),
  column('Containers', 'string', CONTAINERS_DOC, 1),
  column('Images', 'string', IMAGES_DOC, 1),
  column('Selector', 'string', JOB_SELECTOR_DOC, 1),
];

const cronJobColumns: TableColumnDefinition[] = [
  nameColumn(),
  column('Schedule', 'string', 'The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron.'),
  column('Timezone', 'string', 'The time zone name for the given schedule, see https://en.wikipedia.org/wiki/List_of_tz_database_time_zones. If not specified, this will default to the time zone of the kube-controller-manager process. The set of valid time zone names and the time zone offset is loaded from the system-wide time zone database by the API server during CronJob validation and the controller manager during execution. If no system-wide time zone database can be found a bundled version of the database is used instead. If the time zone name becomes invalid during the lifetime of a CronJob or due to a change in host configuration, the controller will stop creating new new Jobs and will create a system event with the reason UnknownTimeZone. More information can be found in https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/#time-zones'),
  column('Suspend', 'boolean', 'This flag tells the controller to suspend subsequent executions, it does not apply to already started executions.  Defaults to false.'),
  column('Active', 'integer', 'A list of pointers to currently running jobs.'),
  column('Last Schedule', 'string', 'Information when was the last time the job was successfully scheduled.'),
  ageColumn(),
  column('Containers', 'string', CONTAINERS_DOC, 1),
  column('Images', 'string', IMAGES_DOC, 1),
  column('Selector', 'string', JOB_SELECTOR_DOC, 1),
];

const persistentVolumeClaimColumns: TableColumnDefinition[] = [
  nameColumn(),
  column('Status', 'string', 'phase represents the current phase of PersistentVolumeClaim.'),
  column('Volume', 'string', 'volumeName is the binding reference to the PersistentVolume backing this claim.'),
  column('Capacity', 'string', 'capacity represents the actual resources of the underlying volume.'),
  column('Access Modes', 'string', 'accessModes contains the actual access modes the volume backing the PVC has. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes-1'),
  column('StorageClass', 'string', 'StorageClass of the pvc'),
  column('VolumeAttributesClass', 'string', 'VolumeAttributesClass of the pvc'),
  ageColumn(),
  column('VolumeMode', 'string', 'volumeMode defines what type of volume is required by the claim. Value of Filesystem is implied when not included in claim spec.', 1),
];

const serviceColumns: TableColumnDefinition[] = [
  nameColumn(),
  column('Type', 'string', "type determines how the Service is exposed. Defaults to ClusterIP. Valid options are ExternalName, ClusterIP, NodePort, and LoadBalancer. \"ClusterIP\" allocates a cluster-internal IP address for load-balancing to endpoints. Endpoints are determined by the selector or if that is not specified, by manual construction of an Endpoints object or EndpointSlice objects. If clusterIP is \"None\", no virtual IP is allocated and the endpoints are published as a set of endpoints rather than a virtual IP. \"NodePort\" builds on ClusterIP and allocates a port on every node which routes to the same endpoints as the clusterIP. \"LoadBalancer\" builds on NodePort and creates an external load-balancer (if supported in the current cloud) which routes to the same endpoints as the clusterIP. \"ExternalName\" aliases this service to the specified externalName. Several other fields do not apply to ExternalName services. More info: https://kubernetes.io/docs/concepts/services-networking/service/#publishing-services-service-types"),
  column('Cluster-IP', 'string', "clusterIP is the IP address of the service and is usually assigned randomly. If an address is specified manually, is in-range (as per system configuration), and is not in use, it will be allocated to the service; otherwise creation of the service will fail. This field may not be changed through updates unless the type field is also being changed to ExternalName (which requires this field to be blank) or the type field is being changed from ExternalName (in which case this field may optionally be specified, as describe above).  Valid values are \"None\", empty string (\"\"), or a valid IP address. Setting this to \"None\" makes a \"headless service\" (no virtual IP), which is useful when direct endpoint connections are preferred and proxying is not required.  Only applies to types ClusterIP, NodePort, and LoadBalancer. If this field is specified when creating a Service of type ExternalName, creation will fail. This field will be wiped when updating a Service to type ExternalName. More info: https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies"),
  column('External-IP', 'string', "externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service.  These IPs are not managed by Kubernetes.  The user is responsible for ensuring that traffic arrives at a node with this IP.  A common example is external load-balancers that are not part of the Kubernetes system."),
  column('Port(s)', 'string', "The list of ports that are exposed by this service. More info: https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies"),
  ageColumn(),
  column('Selector', 'string', "Route service traffic to pods with label keys and values matching this selector. If empty or not present, the service is assumed to have an external process managing its endpoints, which Kubernetes will not modify. Only applies to types ClusterIP, NodePort, and LoadBalancer. Ignored if type is ExternalName. More info: https://kubernetes.io/docs/concepts/services-networking/service/", 1),
];

const endpointsColumns: TableColumnDefinition[] = [
  nameColumn(),
  column('Endpoints', 'string', "The set of all endpoints is the union of all subsets. Addresses are placed into subsets according to the IPs they share. A single address with multiple ports, some of which are ready and some of which are not (because they come from different containers) will result in the address being displayed in different subsets for the different ports. No address will appear in both Addresses and NotReadyAddresses in the same subset. Sets of addresses and ports that comprise a service."),
  ageColumn(),
];

const endpointSliceColumns: TableColumnDefinition[] = [
  nameColumn(),
  column('AddressType', 'string', "addressType specifies the type of address carried by this EndpointSlice. All addresses in this slice must be the same type. This field is immutable after creation. The following address types are currently supported: * IPv4: Represents an IPv4 Address. * IPv6: Represents an IPv6 Address. * FQDN: Represents a Fully Qualified Domain Name."),
  column('Ports', 'string', "ports specifies the list of network ports exposed by each endpoint in this slice. Each port must have a unique name. When ports is empty, it indicates that there are no defined ports. When a port is defined with a nil port value, it indicates \"all ports\". Each slice may include a maximum of 100 ports."),
  column('Endpoints', 'string', "endpoints is a list of unique endpoints in this slice. Each slice may include a maximum of 1000 endpoints."),
  ageColumn(),
];

const secretColumns: TableColumnDefinition[] = [
  nameColumn(),
  column('Type', 'string', "Used to facilitate programmatic handling of secret data. More info: https://kubernetes.io/docs/concepts/configuration/secret/#secret-types"),
  column('Data', 'string', "Data contains the secret data. Each key must consist of alphanumeric characters, '-', '_' or '.'. The serialized form of the secret data is a base64 encoded string, representing the arbitrary (possibly non-string) data value here. Described in https://tools.ietf.org/html/rfc4648#section-4"),
  ageColumn(),
];

const serviceAccountColumns: TableColumnDefinition[] = [
  nameColumn(),
  column('Secrets', 'string', "Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use. Pods are only limited to this list if this service account has a \"kubernetes.io/enforce-mountable-secrets\" annotation set to \"true\". This field should not be used to find auto-generated service account token secrets for use outside of pods. Instead, tokens can be requested directly using the TokenRequest API, or service account token secrets can be manually created. More info: https://kubernetes.io/docs/concepts/configuration/secret"),
  ageColumn(),
];

const persistentVolumeColumns: TableColumnDefinition[] = [
  nameColumn(),
  column('Capacity', 'string', "capacity is the description of the persistent volume's resources and capacity. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#capacity"),
  column('Access Modes', 'string', "accessModes contains all ways the volume can be mounted. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes"),
  column('Reclaim Policy', 'string', "persistentVolumeReclaimPolicy defines what happens to a persistent volume when released from its claim. Valid options are Retain (default for manually created PersistentVolumes), Delete (default for dynamically provisioned PersistentVolumes), and Recycle (deprecated). Recycle must be supported by the volume plugin underlying this PersistentVolume. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#reclaiming"),
  column('Status', 'string', "phase indicates if a volume is available, bound to a claim, or released by a claim. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#phase"),
  column('Claim', 'string', "claimRef is part of a bi-directional binding between PersistentVolume and PersistentVolumeClaim. Expected to be non-nil when bound. claim.VolumeName is the authoritative bind between PV and PVC. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#binding"),
  column('StorageClass', 'string', 'StorageClass of the pv'),
  column('VolumeAttributesClass', 'string', 'VolumeAttributesClass of the pv'),
  column('Reason', 'string', "reason is a brief CamelCase string that describes any failure and is meant for machine parsing and tidy display in the CLI."),
  ageColumn(),
  column('VolumeMode', 'string', "volumeMode defines if a volume is intended to be used with a formatted filesystem or to remain in raw block state. Value of Filesystem is implied when not included in spec.", 1),
];

const horizontalPodAutoscalerColumns: TableColumnDefinition[] = [
  nameColumn(),
  column('Reference', 'string', "scaleTargetRef points to the target resource to scale, and is used to the pods for which metrics should be collected, as well as to actually change the replica count."),
  column('Targets', 'string', "metrics contains the specifications for which to use to calculate the desired replica count (the maximum replica count across all metrics will be used).  The desired replica count is calculated multiplying the ratio between the target value and the current value by the current number of pods.  Ergo, metrics used must decrease as the pod count is increased, and vice-versa.  See the individual metric source types for more information about how each type of metric must respond. If not set, the default metric will be set to 80% average CPU utilization."),
  column('MinPods', 'string', "minReplicas is the lower limit for the number of replicas to which the autoscaler can scale down.  It defaults to 1 pod.  minReplicas is allowed to be 0 if the alpha feature gate HPAScaleToZero is enabled and at least one Object or External metric is configured.  Scaling is active as long as at least one metric value is available."),
  column('MaxPods', 'string', "maxReplicas is the upper limit for the number of replicas to which the autoscaler can scale up. It cannot be less that minReplicas."),
  column('Replicas', 'string', "currentReplicas is current number of replicas of pods managed by this autoscaler, as last seen by the autoscaler."),
  ageColumn(),
];

const networkPolicyColumns: TableColumnDefinition[] = [
  nameColumn(),
  column('Pod-Selector', 'string', "podSelector selects the pods to which this NetworkPolicy object applies. The array of ingress rules is applied to any pods selected by this field. Multiple network policies can select the same set of pods. In this case, the ingress rules for each are combined additively. This field is NOT optional and follows standard label selector semantics. An empty podSelector matches all pods in this namespace."),
  ageColumn(),
];

const leaseColumns: TableColumnDefinition[] = [
  nameColumn(),
  column('Holder', 'string', "holderIdentity contains the identity of the holder of a current lease."),
  ageColumn(),
];

const storageClassColumns: TableColumnDefinition[] = [
  nameColumn(),
  column('Provisioner', 'string', "provisioner indicates the type of the provisioner."),
  column('ReclaimPolicy', 'string', "reclaimPolicy controls the reclaimPolicy for dynamically provisioned PersistentVolumes of this storage class. Defaults to Delete."),
  column('VolumeBindingMode', 'string', "volumeBindingMode indicates how PersistentVolumeClaims should be provisioned and bound.  When unset, VolumeBindingImmediate is used. This field is only honored by servers that enable the VolumeScheduling feature."),
  column('AllowVolumeExpansion', 'string', "allowVolumeExpansion shows whether the storage class allow volume expand."),
  ageColumn(),
];

const priorityClassColumns: TableColumnDefinition[] = [
  nameColumn(),
  column('Value', 'integer', "value represents the integer value of this priority class. This is the actual priority that pods receive when they have the name of this class in their pod spec."),
  column('Global-Default', 'boolean', "globalDefault specifies whether this PriorityClass should be considered as the default priority for pods that do not have any priority class. Only one PriorityClass can be marked as `globalDefault`. However, if more than one PriorityClasses exists with their `globalDefault` field set to true, the smallest value of such global default PriorityClasses will be used as the default priority."),
  ageColumn(),
  column('PreemptionPolicy', 'string', "preemptionPolicy is the Policy for preempting pods with lower priority. One of Never, PreemptLowerPriority. Defaults to PreemptLowerPriority if unset."),
];

const ingressColumns: TableColumnDefinition[] = [
  nameColumn(),
  column('Class', 'string', 'The name of the IngressClass resource that should be used for additional configuration'),
  column('Hosts', 'string', 'Hosts that incoming requests are matched against before the ingress rule'),
  column('Address', 'string', 'Address is a list containing ingress points for the load-balancer'),
  column('Ports', 'string', 'Ports of TLS configurations that open'),
  ageColumn(),
];

const ingressClassColumns: TableColumnDefinition[] = [
  nameColumn(),
  column('Controller', 'string', 'Controller that is responsible for handling this class'),
  column('Parameters', 'string', 'A reference to a resource with additional parameters'),
  ageColumn(),
];

const podDisruptionBudgetColumns: TableColumnDefinition[] = [
  nameColumn(),
  column('Min Available', 'string', 'The minimum number of pods that must be available.'),
  column('Max Unavailable', 'string', 'The maximum number of pods that may be unavailable.'),
  column('Allowed Disruptions', 'integer', 'Calculated number of pods that may be disrupted at this time.'),
  ageColumn(),
];

const ROLE_REF_DOC = "RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error. This field is immutable.";

/** RoleBinding and ClusterRoleBinding columns differ only in the subjects' descriptions. */
function bindingColumns(kind: 'roleBinding' | 'clusterRoleBinding'): TableColumnDefinition[] {
  return [
    nameColumn(),
    column('Role', 'string', ROLE_REF_DOC),
    ageColumn(),
    column('Users', 'string', `Users in the ${kind}`, 1),
    column('Groups', 'string', `Groups in the ${kind}`, 1),
    column('ServiceAccounts', 'string', `ServiceAccounts in the ${kind}`, 1),
  ];
}

const resourceQuotaColumns: TableColumnDefinition[] = [
  nameColumn(),
  column('Request', 'string', 'Request represents a minimum amount of cpu/memory that a container may consume.'),
  column('Limit', 'string', 'Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.'),
  ageColumn(),
];

/** The Scale subresource's columns; upstream leaves `format` out of its Name column. */
export const SCALE_COLUMNS: readonly TableColumnDefinition[] = Object.freeze(
  [
    column('Name', 'string', NAME_DOC),
    column('Desired', 'integer', 'replicas is the desired number of instances for the scaled object.'),
    column('Available', 'integer', 'replicas is the actual number of observed instances of the scaled object.'),
    ageColumn(),
  ].map((definition) => Object.freeze(definition)),
);

/**
 * Shared, frozen definitions: callers must not mutate them. Kinds not listed get the default table
 * (printers/default.ts), as upstream gives Role, ClusterRole and LimitRange: NAME and CREATED AT.
 */
export const COLUMN_DEFINITIONS: Readonly<Partial<Record<ResourceKind, readonly TableColumnDefinition[]>>> = deepFreeze({
  Pod: podColumns,
  Deployment: deploymentColumns,
  ReplicaSet: replicaSetColumns,
  Event: eventColumns,
  Node: nodeColumns,
  Namespace: namespaceColumns,
  ConfigMap: configMapColumns,
  ReplicationController: replicationControllerColumns,
  StatefulSet: statefulSetColumns,
  DaemonSet: daemonSetColumns,
  ControllerRevision: controllerRevisionColumns,
  Job: jobColumns,
  CronJob: cronJobColumns,
  PersistentVolumeClaim: persistentVolumeClaimColumns,
  Service: serviceColumns,
  Endpoints: endpointsColumns,
  EndpointSlice: endpointSliceColumns,
  Secret: secretColumns,
  ServiceAccount: serviceAccountColumns,
  PersistentVolume: persistentVolumeColumns,
  StorageClass: storageClassColumns,
  ResourceQuota: resourceQuotaColumns,
  PriorityClass: priorityClassColumns,
  Ingress: ingressColumns,
  IngressClass: ingressClassColumns,
  NetworkPolicy: networkPolicyColumns,
  RoleBinding: bindingColumns('roleBinding'),
  ClusterRoleBinding: bindingColumns('clusterRoleBinding'),
  HorizontalPodAutoscaler: horizontalPodAutoscalerColumns,
  PodDisruptionBudget: podDisruptionBudgetColumns,
  Lease: leaseColumns,
});

function deepFreeze<T extends Record<string, TableColumnDefinition[]>>(definitions: T): T {
  for (const columns of Object.values(definitions)) {
    for (const c of columns) Object.freeze(c);
    Object.freeze(columns);
  }
  return Object.freeze(definitions);
}
