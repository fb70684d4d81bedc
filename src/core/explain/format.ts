/** Small text helpers shared by hovers, lenses and tree tooltips: durations and Markdown escaping. */

/** A duration for people: `850 ms`, `4.1 s`, `2 min 05 s`, `1 h 02 min`. */
export function humanDuration(ms: number): string {
  const abs = Math.max(0, ms);
  if (abs < 1000) return `${Math.round(abs)} ms`;
  if (abs < 60_000) return `${(Math.floor(abs / 100) / 10).toFixed(1)} s`;
  if (abs < 3_600_000) {
    const minutes = Math.floor(abs / 60_000);
    return `${minutes} min ${String(Math.floor((abs % 60_000) / 1000)).padStart(2, '0')} s`;
  }
  const hours = Math.floor(abs / 3_600_000);
  return `${hours} h ${String(Math.floor((abs % 3_600_000) / 60_000)).padStart(2, '0')} min`;
}

/**
 * Escapes the characters that start Markdown inline syntax, so names and messages (which contain
 * `*`, `_`, `<`, `[`…) show as written. Meant for text inside a line, never at a line start.
 */
export function escapeMarkdown(text: string): string {
  // `$(name)` is a theme icon in VS Code's markdown (tooltips and hovers support them): `\$(` keeps a shell's `$(hostname)` as text.
  return text.replace(/[\\`*_[\]<>|~]/g, (c) => `\\${c}`).replace(/\$\(/g, '\\$(');
}

/** Inline code that survives backticks inside the text. */
export function inlineCode(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** `1 pod`, `3 pods`. */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}
