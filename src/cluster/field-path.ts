/**
 * Field paths from server errors, rewritten to the `spec.containers[0].image` form that
 * `lineOfField` places on a YAML line. Validation causes already use it; server-side apply
 * conflicts use structured-merge-diff paths with a leading dot and list items picked by key
 * (`.spec.template.spec.containers[name="nginx"].image`, `.ports[containerPort=80,protocol="TCP"]`,
 * set members as `[="value"]`), which are resolved against the applied object to get indices.
 */

type Selector = { index: number } | { keys: Record<string, unknown> } | { value: unknown };
type Segment = { field: string } | { select: Selector };

function parseValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** `name="a,b",port=80` → { name: 'a,b', port: 80 }: splits on commas outside quotes. */
function parseKeys(body: string): Record<string, unknown> {
  const keys: Record<string, unknown> = {};
  let start = 0;
  let quoted = false;
  for (let i = 0; i <= body.length; i++) {
    const c = body[i];
    if (c === '\\' && quoted) i++;
    else if (c === '"') quoted = !quoted;
    else if ((c === ',' && !quoted) || i === body.length) {
      const part = body.slice(start, i);
      const eq = part.indexOf('=');
      if (eq > 0) keys[part.slice(0, eq)] = parseValue(part.slice(eq + 1));
      start = i + 1;
    }
  }
  return keys;
}

function parseSegments(path: string): Segment[] {
  const segments: Segment[] = [];
  let i = 0;
  while (i < path.length) {
    const c = path[i];
    if (c === '.') {
      i++;
      continue;
    }
    if (c === '[') {
      let j = i + 1;
      let quoted = false;
      for (; j < path.length; j++) {
        if (path[j] === '\\' && quoted) j++;
        else if (path[j] === '"') quoted = !quoted;
        else if (path[j] === ']' && !quoted) break;
      }
      const body = path.slice(i + 1, j);
      if (/^\d+$/.test(body)) segments.push({ select: { index: Number(body) } });
      else if (body.startsWith('=')) segments.push({ select: { value: parseValue(body.slice(1)) } });
      else segments.push({ select: { keys: parseKeys(body) } });
      i = j + 1;
      continue;
    }
    let j = i;
    while (j < path.length && path[j] !== '.' && path[j] !== '[') j++;
    segments.push({ field: path.slice(i, j) });
    i = j;
  }
  return segments;
}

function matches(item: unknown, selector: Selector): boolean {
  if ('value' in selector) return JSON.stringify(item) === JSON.stringify(selector.value);
  if ('keys' in selector) {
    if (!item || typeof item !== 'object') return false;
    const record = item as Record<string, unknown>;
    return Object.entries(selector.keys).every(([key, value]) => record[key] === value || (record[key] === undefined && key === 'protocol' && value === 'TCP'));
  }
  return false;
}

/**
 * The path in `a.b[0].c` form. Key selectors become the index of the matching item in `object`;
 * the path stops at the list when no item matches (the YAML line of the list is still useful).
 */
export function normalizeFieldPath(path: string, object: unknown): string {
  let out = '';
  let node: unknown = object;
  for (const segment of parseSegments(path.trim())) {
    if ('field' in segment) {
      out += out ? `.${segment.field}` : segment.field;
      node = node && typeof node === 'object' && !Array.isArray(node) ? (node as Record<string, unknown>)[segment.field] : undefined;
      continue;
    }
    const selector = segment.select;
    const index = 'index' in selector ? selector.index : Array.isArray(node) ? node.findIndex((item) => matches(item, selector)) : -1;
    if (index < 0) break;
    out += `[${index}]`;
    node = Array.isArray(node) ? node[index] : undefined;
  }
  return out;
}
