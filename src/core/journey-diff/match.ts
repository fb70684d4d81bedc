/**
 * Which journey of trace A is which of trace B: the same root kind, namespace and name. A file that
 * applies the same object twice has two journeys of that root; the nth of A goes with the nth of B.
 * UIDs and apply times are not compared: two traces never share them.
 */
import type { DiffJourneyInput, RootKey } from './types';

export interface MatchedPair {
  root: RootKey;
  occurrence: number;
  a: DiffJourneyInput;
  b: DiffJourneyInput;
}

export interface UnmatchedInput {
  root: RootKey;
  occurrence: number;
  input: DiffJourneyInput;
}

export interface Matching {
  /** In A's order. */
  pairs: MatchedPair[];
  onlyInA: UnmatchedInput[];
  onlyInB: UnmatchedInput[];
}

export function rootKey(input: DiffJourneyInput): RootKey {
  const { kind, namespace, name } = input.journey.root;
  return { kind, namespace, name };
}

/** `Deployment default/web`: how the output names a root. */
export function rootText(root: RootKey): string {
  return `${root.kind} ${root.namespace ? `${root.namespace}/` : ''}${root.name}`;
}

function keyText(root: RootKey): string {
  // JSON keeps names with spaces or slashes apart.
  return JSON.stringify([root.kind, root.namespace, root.name]);
}

/** Each journey with its occurrence number (1 for the first journey of its root). */
function numbered(inputs: readonly DiffJourneyInput[]): UnmatchedInput[] {
  const seen = new Map<string, number>();
  return inputs.map((input) => {
    const root = rootKey(input);
    const key = keyText(root);
    const occurrence = (seen.get(key) ?? 0) + 1;
    seen.set(key, occurrence);
    return { root, occurrence, input };
  });
}

export function matchJourneys(a: readonly DiffJourneyInput[], b: readonly DiffJourneyInput[]): Matching {
  const fromB = new Map<string, UnmatchedInput>();
  for (const entry of numbered(b)) fromB.set(`${keyText(entry.root)}#${entry.occurrence}`, entry);
  const pairs: MatchedPair[] = [];
  const onlyInA: UnmatchedInput[] = [];
  for (const entry of numbered(a)) {
    const key = `${keyText(entry.root)}#${entry.occurrence}`;
    const other = fromB.get(key);
    if (other) {
      pairs.push({ root: entry.root, occurrence: entry.occurrence, a: entry.input, b: other.input });
      fromB.delete(key);
    } else onlyInA.push(entry);
  }
  return { pairs, onlyInA, onlyInB: [...fromB.values()] };
}
