/**
 * The scheduler's per-node verdicts for one attempt, in two forms: the compact table the simulator
 * records and the tracer keeps for every pod (`VerdictTable`), and the rows a reader shows
 * (`NodeVerdict[]`), rebuilt from the table when someone opens it. Shared by the simulator, the
 * tracer, the extension and the webview, so it depends on nothing.
 */

export type FilterCode = 'Success' | 'Unschedulable' | 'UnschedulableAndUnresolvable';

/** One node's row in the scheduler's table for one pod. */
export interface NodeVerdict {
  node: string;
  /** Filter plugins in the order they ran; evaluation stops at the first failure, as upstream. */
  filters: { plugin: string; code: FilterCode; reason?: string }[];
  /** Present for feasible nodes whose scores were kept: normalized, weighted plugin scores. */
  scores?: { plugin: string; score: number; weight: number }[];
  total?: number;
}

/**
 * The scheduler's node list at the time of an attempt, in its walk order. Attempts share one list
 * object while the nodes do not change, so a table costs nothing per node for its names; `id`
 * lets a stream send the names once and refer to them afterwards.
 */
export interface NodeList {
  id: number;
  names: readonly string[];
}

/** A filter verdict other than Success, as a table refers to it by index. */
export interface FilterFailureVerdict {
  plugin: string;
  code: Exclude<FilterCode, 'Success'>;
  reason: string;
}

/**
 * One attempt's per-node verdicts, encoded: which nodes were evaluated, and for each the first
 * filter plugin that rejected it (the filters before it passed, since evaluation stops at the
 * first failure), plus the scores of the best feasible nodes. A few hundred bytes for an attempt
 * over 500 nodes, where the rows as objects took a quarter of a megabyte.
 */
export interface VerdictTable {
  /** Evaluated nodes: `count` nodes of the walk order from `start` (wrapping), or listed (a pod that names its nodes). */
  nodes: { list: NodeList; start: number; count: number } | { names: readonly string[] };
  /** Filter plugins in the order they ran for this pod. */
  filters: readonly string[];
  /**
   * Per evaluated node in walk order, run-length encoded: `count*outcome` pairs separated by
   * spaces, where outcome 0 is feasible and k is `failures[k - 1]` (`498*0 2*1`).
   */
  outcomes: string;
  failures: readonly FilterFailureVerdict[];
  /** Score plugins and weights, for `scored`. */
  scorePlugins: readonly { plugin: string; weight: number }[];
  /**
   * The best feasible nodes (the chosen one first), flat to stay one small array: per node its
   * walk position, its total, then each score plugin's weighted score (`scoredRows` reads it).
   */
  scored: readonly number[];
}

export interface ScoredRow {
  position: number;
  total: number;
  scores: number[];
}

/** The rows of `table.scored`, best first. */
export function scoredRows(table: VerdictTable): ScoredRow[] {
  const stride = 2 + table.scorePlugins.length;
  const rows: ScoredRow[] = [];
  for (let at = 0; at + stride <= table.scored.length; at += stride) rows.push({ position: table.scored[at], total: table.scored[at + 1], scores: table.scored.slice(at + 2, at + stride) });
  return rows;
}

/** Feasible nodes whose scores a table keeps: the chosen node and the runners-up a reader compares it with. */
export const SCORED_ROWS_KEPT = 3;

/** `count*outcome` runs of a per-node outcome sequence. */
export function encodeOutcomes(outcomes: ArrayLike<number>, length = outcomes.length): string {
  const runs: string[] = [];
  let i = 0;
  while (i < length) {
    const value = outcomes[i];
    let j = i + 1;
    while (j < length && outcomes[j] === value) j++;
    runs.push(`${j - i}*${value}`);
    i = j;
  }
  return runs.join(' ');
}

export function decodeOutcomes(encoded: string): number[] {
  const out: number[] = [];
  if (encoded === '') return out;
  for (const run of encoded.split(' ')) {
    const star = run.indexOf('*');
    const count = Number(run.slice(0, star));
    const value = Number(run.slice(star + 1));
    for (let k = 0; k < count; k++) out.push(value);
  }
  return out;
}

/** The evaluated nodes' names, in walk order. */
export function tableNodeNames(table: VerdictTable): string[] {
  const nodes = table.nodes;
  if ('names' in nodes) return [...nodes.names];
  const names = nodes.list.names;
  const out: string[] = [];
  for (let i = 0; i < nodes.count && names.length > 0; i++) out.push(names[(nodes.start + i) % names.length]);
  return out;
}

/**
 * The table's rows as the scheduler's report lists them: scored feasible nodes by total (best
 * first), then the other feasible nodes, then the rejected ones, both in walk order.
 */
export function expandVerdictTable(table: VerdictTable): NodeVerdict[] {
  const names = tableNodeNames(table);
  const outcomes = decodeOutcomes(table.outcomes);
  const passed = table.filters.map((plugin) => ({ plugin, code: 'Success' as const }));
  const best = scoredRows(table);
  const scoredAt = new Map(best.map((row) => [row.position, row]));
  const scored: NodeVerdict[] = [];
  const feasible: NodeVerdict[] = [];
  const rejected: NodeVerdict[] = [];
  for (let i = 0; i < names.length; i++) {
    const outcome = outcomes[i] ?? 0;
    if (outcome === 0) {
      const row = scoredAt.get(i);
      if (!row) feasible.push({ node: names[i], filters: passed });
      else scored.push({ node: names[i], filters: passed, scores: table.scorePlugins.map((p, k) => ({ plugin: p.plugin, score: row.scores[k], weight: p.weight })), total: row.total });
      continue;
    }
    const failure = table.failures[outcome - 1];
    const filters: NodeVerdict['filters'] = [];
    for (const plugin of table.filters) {
      if (plugin === failure.plugin) break;
      filters.push({ plugin, code: 'Success' });
    }
    filters.push(failure.reason ? { plugin: failure.plugin, code: failure.code, reason: failure.reason } : { plugin: failure.plugin, code: failure.code });
    rejected.push({ node: names[i], filters });
  }
  const order = new Map(best.map((row, rank) => [names[row.position], rank]));
  scored.sort((a, b) => (order.get(a.node) ?? 0) - (order.get(b.node) ?? 0));
  return [...scored, ...feasible, ...rejected];
}

/** The rows of a cycle, or none when it kept counts only. */
export function cycleVerdicts(cycle: { table?: VerdictTable }): NodeVerdict[] {
  return cycle.table ? expandVerdictTable(cycle.table) : [];
}

/**
 * Encodes rows given one by one (a reader's own table, a test's fixture): the nodes listed, scores
 * kept for the first `SCORED_ROWS_KEPT` rows with a total.
 */
export function verdictTableOf(rows: readonly NodeVerdict[]): VerdictTable {
  const filters: string[] = [];
  const scorePlugins: { plugin: string; weight: number }[] = [];
  const failures: FilterFailureVerdict[] = [];
  const failureIndex = new Map<string, number>();
  const outcomes: number[] = [];
  const scored: ScoredRow[] = [];
  rows.forEach((row, position) => {
    for (const f of row.filters) if (!filters.includes(f.plugin)) filters.push(f.plugin);
    const failing = row.filters.find((f) => f.code !== 'Success');
    if (!failing || failing.code === 'Success') {
      outcomes.push(0);
      if (row.total !== undefined && scored.length < SCORED_ROWS_KEPT) {
        for (const s of row.scores ?? []) if (!scorePlugins.some((p) => p.plugin === s.plugin)) scorePlugins.push({ plugin: s.plugin, weight: s.weight });
        scored.push({ position, scores: scorePlugins.map((p) => row.scores?.find((s) => s.plugin === p.plugin)?.score ?? 0), total: row.total });
      }
      return;
    }
    const key = `${failing.plugin}\u0000${failing.code}\u0000${failing.reason ?? ''}`;
    let index = failureIndex.get(key);
    if (index === undefined) {
      failures.push({ plugin: failing.plugin, code: failing.code, reason: failing.reason ?? '' });
      failureIndex.set(key, (index = failures.length));
    }
    outcomes.push(index);
  });
  const flat = scored.flatMap((row) => [row.position, row.total, ...scorePlugins.map((_, k) => row.scores[k] ?? 0)]);
  return { nodes: { names: rows.map((row) => row.node) }, filters, outcomes: encodeOutcomes(outcomes), failures, scorePlugins, scored: flat };
}

/**
 * For a stream of steps as JSON: a replacer that writes each node list in full the first time and
 * as `{ "id": n }` afterwards (a 5,000-node list would otherwise repeat in every attempt).
 */
export function nodeListsOnce(): (key: string, value: unknown) => unknown {
  const sent = new Set<number>();
  return (key, value) => {
    if (key !== 'list' || !isNodeList(value)) return value;
    if (sent.has(value.id)) return { id: value.id };
    sent.add(value.id);
    return value;
  };
}

/** The reader's side of `nodeListsOnce`: puts the names back into tables that refer to a list by id. */
export function nodeListResolver(): (step: unknown) => void {
  const lists = new Map<number, NodeList>();
  return (step) => {
    const nodes = (step as { table?: { nodes?: { list?: unknown } } }).table?.nodes;
    const list = nodes?.list as { id?: unknown; names?: unknown } | undefined;
    if (!list || typeof list.id !== 'number') return;
    if (isNodeList(list)) lists.set(list.id, list);
    else nodes!.list = lists.get(list.id) ?? { id: list.id, names: [] };
  };
}

function isNodeList(value: unknown): value is NodeList {
  return typeof value === 'object' && value !== null && typeof (value as NodeList).id === 'number' && Array.isArray((value as NodeList).names);
}
