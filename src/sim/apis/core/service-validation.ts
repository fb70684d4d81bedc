/**
 * Services, Endpoints and ServiceAccounts (pkg/apis/core/validation/validation.go:
 * ValidateService, ValidateServiceUpdate), in upstream's order of checks. ClusterIP and NodePort
 * allocation errors come from the Service registry, not from here.
 */
import type { KubeObject } from '../../../core/k8s';
import { goIntOrString, goQuote, goScalar } from '../../../core/schema/go-format';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, nameIsDNS1035Label } from '../../../core/schema/name-rules';
import { addInvalid, duplicate, forbidden, invalid, listOf, notSupported, objectOf, recordAt, required, str, stringMap, type Errors, type Json } from '../field';
import { checkLabels, checkObjectMeta, checkObjectMetaUpdate } from '../meta/validation';
import { checkPortNumber, isValidPortName } from './validation';

const SERVICE_TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const SESSION_AFFINITIES = ['ClientIP', 'None'];
const PORT_PROTOCOLS = ['SCTP', 'TCP', 'UDP'];

function firstClusterIP(spec: Json): string {
  const clusterIPs = listOf(spec.clusterIPs);
  return clusterIPs.length > 0 ? str(clusterIPs[0]) : str(spec.clusterIP);
}

/** `ValidatePortNumOrName` for a Service's targetPort. */
function checkTargetPort(port: unknown, field: string, errors: Errors): void {
  if (typeof port === 'number') checkPortNumber(port, field, errors);
  else addInvalid(field, str(port), isValidPortName(str(port)), errors);
}

/** `validateServicePort`: names are required once there are several ports, and unique. */
function checkServicePort(port: Json, requireName: boolean, names: Set<string>, field: string, errors: Errors): void {
  const name = str(port.name);
  if (requireName && name === '') errors.push(required(`${field}.name`));
  else if (name !== '') {
    addInvalid(`${field}.name`, name, isDNS1123Label(name), errors);
    if (names.has(name)) errors.push(duplicate(`${field}.name`, goQuote(name)));
    else names.add(name);
  }
  checkPortNumber(port.port ?? 0, `${field}.port`, errors);
  const protocol = str(port.protocol);
  if (protocol === '') errors.push(required(`${field}.protocol`));
  else if (!PORT_PROTOCOLS.includes(protocol)) errors.push(notSupported(`${field}.protocol`, goQuote(protocol), PORT_PROTOCOLS));
  checkTargetPort(port.targetPort, `${field}.targetPort`, errors);
  if (port.appProtocol !== undefined) addInvalid(`${field}.appProtocol`, str(port.appProtocol), isQualifiedName(str(port.appProtocol)), errors);
}

/** `%#v` of the core.ServicePort key upstream's duplicate check builds: only protocol and port are set. */
function goServicePortKey(protocol: string, port: number): string {
  return `core.ServicePort{Name:"", Protocol:${goQuote(protocol)}, AppProtocol:(*string)(nil), Port:${port}, TargetPort:${goIntOrString(0)}, NodePort:0}`;
}

function checkServiceSpec(spec: Json, errors: Errors): void {
  const ports = listOf(spec.ports);
  const type = str(spec.type);
  const clusterIP = firstClusterIP(spec);
  const headless = clusterIP === 'None';
  if (ports.length === 0 && !headless && type !== 'ExternalName') errors.push(required('spec.ports'));
  switch (type) {
    case 'LoadBalancer':
    case 'NodePort':
      if (headless) errors.push(invalid('spec.clusterIPs[0]', goQuote(clusterIP), `may not be set to 'None' for ${type} services`));
      break;
    case 'ExternalName': {
      if (clusterIP !== '') errors.push(forbidden('spec.clusterIPs', 'may not be set for ExternalName services'));
      if (listOf(spec.ipFamilies).length > 0) errors.push(forbidden('spec.ipFamilies', 'may not be set for ExternalName services'));
      if (spec.ipFamilyPolicy !== undefined && spec.ipFamilyPolicy !== null) errors.push(forbidden('spec.ipFamilyPolicy', 'may not be set for ExternalName services'));
      // The value (a CNAME) may end with a dot to say it is fully qualified.
      const cname = str(spec.externalName).replace(/\.$/, '');
      if (cname !== '') addInvalid('spec.externalName', cname, isDNS1123Subdomain(cname), errors);
      else errors.push(required('spec.externalName'));
      break;
    }
  }
  const names = new Set<string>();
  for (let i = 0; i < ports.length; i++) checkServicePort(recordAt(ports, i), ports.length > 1, names, `spec.ports[${i}]`, errors);
  if (spec.selector !== undefined && spec.selector !== null) checkLabels(stringMap(spec.selector), 'spec.selector', errors);

  const affinity = str(spec.sessionAffinity);
  if (affinity === '') errors.push(required('spec.sessionAffinity'));
  else if (!SESSION_AFFINITIES.includes(affinity)) errors.push(notSupported('spec.sessionAffinity', goQuote(affinity), SESSION_AFFINITIES));
  if (affinity === 'None' && spec.sessionAffinityConfig !== undefined && spec.sessionAffinityConfig !== null) {
    errors.push(forbidden('spec.sessionAffinityConfig', 'must not be set when session affinity is None'));
  }

  if (type === '') errors.push(required('spec.type'));
  else if (!SERVICE_TYPES.includes(type)) errors.push(notSupported('spec.type', goQuote(type), SERVICE_TYPES));
  if (type === 'ClusterIP') {
    for (let i = 0; i < ports.length; i++) {
      if (recordAt(ports, i).nodePort) errors.push(forbidden(`spec.ports[${i}].nodePort`, "may not be used when `type` is 'ClusterIP'"));
    }
  }
  const nodePorts = new Set<string>();
  const portKeys = new Set<string>();
  for (let i = 0; i < ports.length; i++) {
    const port = recordAt(ports, i);
    const protocol = str(port.protocol);
    if (port.nodePort) {
      const key = `${protocol}/${str(port.nodePort)}`;
      if (nodePorts.has(key)) errors.push(duplicate(`spec.ports[${i}].nodePort`, goScalar(port.nodePort as number)));
      nodePorts.add(key);
    }
    const key = `${protocol}/${str(port.port)}`;
    if (portKeys.has(key)) errors.push(duplicate(`spec.ports[${i}]`, goServicePortKey(protocol, Number(port.port))));
    portKeys.add(key);
  }
}

/** ValidateService; Service names are DNS-1035 labels (they become DNS names that must not start with a digit). */
export function validateService(service: KubeObject, old?: KubeObject): Errors {
  const errors: Errors = [];
  if (old) checkObjectMetaUpdate(service, old, errors);
  else checkObjectMeta(service, true, nameIsDNS1035Label, errors);
  checkServiceSpec(objectOf(service.spec), errors);
  return errors;
}
