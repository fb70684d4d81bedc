/** The PriorityClasses kube-apiserver makes at start (pkg/apis/scheduling: SystemPriorityClasses), by value. */
export const SYSTEM_PRIORITY_CLASSES: Readonly<Record<string, number>> = { 'system-node-critical': 2000001000, 'system-cluster-critical': 2000000000 };
