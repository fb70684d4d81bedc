/**
 * Why a journey file cannot be read, in one line that names the file and what to do:
 * `web.journey.json: not JSON at line 3:14 (Unexpected token)`, `…: written by a newer Kube Journey
 * (file version 3, this one reads up to 2): upgrade kube-journey`, `…: journeys[0].tree.stages[2].time:
 * expected a number, got "x"`.
 */
export class JourneyFileError extends Error {
  override readonly name = 'JourneyFileError';
  constructor(
    /** The file as the user named it. */
    readonly file: string,
    /** What is wrong, without the file name. */
    readonly problem: string,
  ) {
    super(`${file}: ${problem}`);
  }
}

/** A field of the file that does not hold what it should; the reader adds the file name. */
export class FieldError extends Error {
  constructor(
    readonly path: string,
    readonly expected: string,
    readonly got: unknown,
  ) {
    super(`${path || 'the file'}: expected ${expected}, got ${describeValue(got)}`);
  }
}

/** A value, briefly: `"abc"`, `12`, `null`, `an object`, `an array`, `nothing`. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  return String(value);
}
