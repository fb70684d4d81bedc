// Maps `…/runner.js:line:column` frames of a failure stack back to the suites' TypeScript, using
// the runner bundle's source map (VS Code's extension host replaces Node's own source-map support).
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';
import { relative, resolve, dirname } from 'node:path';
import { repoRoot } from './tools';

export function stackMapper(mapFile: string): (stack: string) => string {
  if (!existsSync(mapFile)) return (stack) => stack;
  const map = new SourceMap(JSON.parse(readFileSync(mapFile, 'utf8')) as SourceMapPayload);
  const mapDir = dirname(mapFile);
  return (stack) =>
    stack.replace(/[^\s(]*runner\.js:(\d+):(\d+)/g, (frame, line: string, column: string) => {
      const entry = map.findEntry(Number(line) - 1, Number(column) - 1);
      if (!('originalSource' in entry) || !entry.originalSource) return frame;
      const source = relative(repoRoot, resolve(mapDir, entry.originalSource));
      return `${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
    });
}
