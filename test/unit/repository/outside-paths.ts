/**
 * Finds references to files outside the repository in source text: absolute paths into a
 * machine's home or work folders, and relative paths that climb above the repository root. A
 * fresh clone has nothing beside it, so any such read works only on the machine that wrote it.
 */
import * as path from 'node:path';

export interface OutsidePath {
  line: number;
  text: string;
  why: string;
}

const QUOTED = /(['"`])((?:\\.|(?!\1).)*?)\1/g;
/** Cited anywhere, comments included: a reader of a fresh clone cannot follow the reference. */
const REFERENCE_FOLDER = /\bshared\/reference\/[\w./-]*/;
/** Where a machine keeps people's files (system folders such as /proc, /tmp or /var/run are fine). */
/** Relative paths count where a line reads or builds a file path (import specifiers and lint patterns are not files). */
const FILE_ACCESS = /\b(readFileSync|readFile|existsSync|readdirSync|createReadStream|statSync|path\.(join|resolve)|require)\(/;
const MACHINE_ROOT = /^\/(work|home|root|mnt|opt|srv|Users)\//;

export function findOutsidePaths(source: string, filePath: string, repositoryRoot: string): OutsidePath[] {
  const found: OutsidePath[] = [];
  const lines = source.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const reference = REFERENCE_FOLDER.exec(lines[index]);
    if (reference) found.push({ line: index + 1, text: reference[0], why: 'cites the team reference folder, which is not in the repository' });
    for (const match of lines[index].matchAll(QUOTED)) {
      const literal = match[2];
      const why = outsideReason(literal, lines[index], filePath, repositoryRoot);
      if (why) found.push({ line: index + 1, text: literal, why });
    }
  }
  return found;
}

function outsideReason(literal: string, line: string, filePath: string, repositoryRoot: string): string | undefined {
  if (MACHINE_ROOT.test(literal)) return 'an absolute path on one machine';
  if (literal.startsWith('../') && FILE_ACCESS.test(line)) {
    const resolved = path.resolve(path.dirname(filePath), literal);
    if (path.relative(repositoryRoot, resolved).startsWith('..')) return 'climbs above the repository root';
  }
  return undefined;
}
