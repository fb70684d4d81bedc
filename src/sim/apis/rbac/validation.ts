/**
 * The rbac.authorization.k8s.io group's validation (pkg/apis/rbac/validation/validation.go):
 * rules need verbs, and API groups and resources unless they name non-resource URLs; bindings
 * name a Role or ClusterRole of this group and subjects of a known kind; roleRef never changes.
 * RBAC names are path segments (`system:controller:…` is valid), not DNS names.
 */
import type { KubeObject, LabelSelector } from '../../../core/k8s';
import { semanticEqual } from '../../../core/schema/go-diff';
import { goQuote, goStringSlice } from '../../../core/schema/go-format';
import { isValidPathSegmentName, nameIsDNSSubdomain } from '../../../core/schema/name-rules';
import { addInvalid, invalid, listOf, notSupported, objectOf, recordAt, required, str, type Errors, type Json } from '../field';
import { checkLabelSelector, checkObjectMeta, checkObjectMetaUpdate } from '../meta/validation';

const RBAC_GROUP = 'rbac.authorization.k8s.io';

const rbacName = (name: string, prefix: boolean): readonly string[] => isValidPathSegmentName(name, prefix);

function checkMeta(object: KubeObject, old: KubeObject | undefined, namespaced: boolean, errors: Errors): void {
  if (old) checkObjectMetaUpdate(object, old, errors);
  else checkObjectMeta(object, namespaced, rbacName, errors);
}

function checkPolicyRule(rule: Json, namespaced: boolean, field: string, errors: Errors): void {
  if (listOf(rule.verbs).length === 0) errors.push(required(`${field}.verbs`, 'verbs must contain at least one value'));
  const urls = listOf(rule.nonResourceURLs).map(str);
  if (urls.length > 0) {
    if (namespaced) errors.push(invalid(`${field}.nonResourceURLs`, goStringSlice(urls), 'namespaced rules cannot apply to non-resource URLs'));
    if (listOf(rule.apiGroups).length > 0 || listOf(rule.resources).length > 0 || listOf(rule.resourceNames).length > 0) {
      errors.push(invalid(`${field}.nonResourceURLs`, goStringSlice(urls), 'rules cannot apply to both regular resources and non-resource URLs'));
    }
    return;
  }
  if (listOf(rule.apiGroups).length === 0) errors.push(required(`${field}.apiGroups`, 'resource rules must supply at least one api group'));
  if (listOf(rule.resources).length === 0) errors.push(required(`${field}.resources`, 'resource rules must supply at least one resource'));
}

function checkRules(role: KubeObject, namespaced: boolean, errors: Errors): void {
  const rules = listOf(role.rules);
  for (let i = 0; i < rules.length; i++) checkPolicyRule(recordAt(rules, i), namespaced, `rules[${i}]`, errors);
}

export function validateRole(role: KubeObject, old?: KubeObject): Errors {
  const errors: Errors = [];
  checkMeta(role, old, true, errors);
  checkRules(role, true, errors);
  return errors;
}

export function validateClusterRole(role: KubeObject, old?: KubeObject): Errors {
  const errors: Errors = [];
  checkMeta(role, old, false, errors);
  checkRules(role, false, errors);
  const selectors = listOf(objectOf(role.aggregationRule).clusterRoleSelectors);
  for (let i = 0; i < selectors.length; i++) checkLabelSelector(recordAt(selectors, i) as LabelSelector, `aggregationRule.clusterRoleSelectors[${i}]`, errors);
  return errors;
}

function checkSubject(subject: Json, namespaced: boolean, field: string, errors: Errors): void {
  const name = str(subject.name);
  if (name === '') errors.push(required(`${field}.name`));
  const apiGroup = str(subject.apiGroup);
  switch (str(subject.kind)) {
    case 'ServiceAccount':
      if (name !== '') addInvalid(`${field}.name`, name, nameIsDNSSubdomain(name, false), errors);
      if (apiGroup !== '') errors.push(notSupported(`${field}.apiGroup`, goQuote(apiGroup), ['']));
      if (!namespaced && str(subject.namespace) === '') errors.push(required(`${field}.namespace`));
      break;
    case 'User':
    case 'Group':
      if (apiGroup !== RBAC_GROUP) errors.push(notSupported(`${field}.apiGroup`, goQuote(apiGroup), [RBAC_GROUP]));
      break;
    default:
      errors.push(notSupported(`${field}.kind`, goQuote(str(subject.kind)), ['ServiceAccount', 'User', 'Group']));
  }
}

/** `%#v` of rbac.RoleRef, as the "cannot change roleRef" message prints it. */
function goRoleRef(roleRef: Json): string {
  return `rbac.RoleRef{APIGroup:${goQuote(str(roleRef.apiGroup))}, Kind:${goQuote(str(roleRef.kind))}, Name:${goQuote(str(roleRef.name))}}`;
}

function validateBinding(binding: KubeObject, old: KubeObject | undefined, namespaced: boolean): Errors {
  const errors: Errors = [];
  checkMeta(binding, old, namespaced, errors);
  if (old && !semanticEqual(binding.roleRef, old.roleRef)) {
    errors.push(invalid('roleRef', goRoleRef(objectOf(binding.roleRef)), 'cannot change roleRef'));
  }
  const roleRef = objectOf(binding.roleRef);
  const apiGroup = str(roleRef.apiGroup);
  if (apiGroup !== RBAC_GROUP) errors.push(notSupported('roleRef.apiGroup', goQuote(apiGroup), [RBAC_GROUP]));
  const kind = str(roleRef.kind);
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  if (!kinds.includes(kind)) errors.push(notSupported('roleRef.kind', goQuote(kind), kinds));
  const name = str(roleRef.name);
  if (name === '') errors.push(required('roleRef.name'));
  else addInvalid('roleRef.name', name, rbacName(name, false), errors);
  const subjects = listOf(binding.subjects);
  for (let i = 0; i < subjects.length; i++) checkSubject(recordAt(subjects, i), namespaced, `subjects[${i}]`, errors);
  return errors;
}

export const validateRoleBinding = (binding: KubeObject, old?: KubeObject): Errors => validateBinding(binding, old, true);
export const validateClusterRoleBinding = (binding: KubeObject, old?: KubeObject): Errors => validateBinding(binding, old, false);
