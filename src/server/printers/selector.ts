/**
 * Label selectors as the printers render them: `metav1.LabelSelectorAsSelector(s).String()`
 * (requirements sorted by key, set values sorted, `!key` for DoesNotExist) and its wrapper
 * `metav1.FormatLabelSelector` (`<none>` when empty, `<error>` when invalid).
 */
import type { LabelSelector } from '../../core/k8s';

type Requirement = { key: string; text: string };

/** The selector string, or undefined when the selector is invalid. Empty for nil or `{}`. */
export function labelSelectorString(selector: LabelSelector | undefined | null): string | undefined {
  if (!selector) return '';
  const requirements: Requirement[] = [];
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    requirements.push({ key, text: `${key}=${value}` });
  }
  for (const expression of selector.matchExpressions ?? []) {
    const values = expression.values ?? [];
    switch (expression.operator) {
      case 'In':
      case 'NotIn': {
        if (values.length === 0) return undefined;
        const joined = values.length === 1 ? values[0] : [...values].sort().join(',');
        const operator = expression.operator === 'In' ? ' in ' : ' notin ';
        requirements.push({ key: expression.key, text: `${expression.key}${operator}(${joined})` });
        break;
      }
      case 'Exists':
        if (values.length > 0) return undefined;
        requirements.push({ key: expression.key, text: expression.key });
        break;
      case 'DoesNotExist':
        if (values.length > 0) return undefined;
        requirements.push({ key: expression.key, text: `!${expression.key}` });
        break;
      default:
        return undefined;
    }
  }
  // Array.prototype.sort is stable, matching requirements that share a key in insertion order.
  requirements.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return requirements.map((r) => r.text).join(',');
}

/** `metav1.FormatLabelSelector`. */
export function formatLabelSelector(selector: LabelSelector | undefined | null): string {
  const text = labelSelectorString(selector);
  if (text === undefined) return '<error>';
  return text === '' ? '<none>' : text;
}

/** `labels.FormatLabels`: `key=value` pairs sorted by key, `<none>` when there are none. */
export function formatLabels(labels: Record<string, string> | undefined | null): string {
  const text = labelSetString(labels);
  return text === '' ? '<none>' : text;
}

/** `labels.SelectorFromSet(set).String()`: an equality-based selector, empty for no labels. */
export function labelSetString(labels: Record<string, string> | undefined | null): string {
  return Object.keys(labels ?? {})
    .sort()
    .map((key) => `${key}=${labels![key]}`)
    .join(',');
}
