/**
 * Where JSON text stops being JSON, as `line:column`: V8's JSON.parse names an offset for some
 * errors only (`Unexpected token 'x', "…" is not valid JSON` has none), so a failed parse is scanned
 * again here to place it. Only runs after JSON.parse failed; iterative, so deep nesting is fine.
 */

/** The offset of the first character that is not valid JSON there (text.length: it ends too early); -1 when valid. */
export function jsonErrorOffset(text: string): number {
  let i = 0;
  const n = text.length;
  const space = (): void => {
    while (i < n && (text[i] === ' ' || text[i] === '\n' || text[i] === '\r' || text[i] === '\t')) i++;
  };
  // What may come next: a value, or (inside a container) a separator / close.
  const stack: ('[' | '{')[] = [];
  const value = (): boolean => {
    space();
    const c = text[i];
    if (c === '{' || c === '[') {
      stack.push(c);
      i++;
      space();
      if (text[i] === (c === '{' ? '}' : ']')) {
        stack.pop();
        i++;
        return true;
      }
      // The first member; the loop below reads the rest.
      return c === '{' ? key() && value() : value();
    }
    if (c === '"') return str();
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return num();
    for (const word of ['true', 'false', 'null']) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return true;
      }
      // A cut-off literal (`tr`) ends too early rather than being wrong.
      if (i < n && n - i < word.length && word.startsWith(text.slice(i))) {
        i = n;
        return false;
      }
    }
    return false;
  };
  const key = (): boolean => {
    space();
    if (text[i] !== '"' || !str()) return false;
    space();
    if (text[i] !== ':') return false;
    i++;
    return true;
  };
  const str = (): boolean => {
    i++;
    while (i < n) {
      const c = text[i];
      if (c === '"') {
        i++;
        return true;
      }
      if (c === '\\') {
        const e = text[i + 1];
        if (e === undefined) {
          i = n;
          return false;
        }
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
            i = Math.min(n, i + 2 + (text.slice(i + 2, i + 6).match(/^[0-9a-fA-F]*/)?.[0].length ?? 0));
            return false;
          }
          i += 6;
        } else if ('"\\/bfnrt'.includes(e)) i += 2;
        else {
          i++;
          return false;
        }
        continue;
      }
      if (c < ' ') return false;
      i++;
    }
    return false;
  };
  const num = (): boolean => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!match) {
      if (text[i] === '-' && i + 1 === n) i = n;
      return false;
    }
    i += match[0].length;
    return true;
  };

  if (!value()) return i;
  for (;;) {
    space();
    const top = stack.at(-1);
    if (!top) return i < n ? i : -1;
    const close = top === '{' ? '}' : ']';
    if (text[i] === close) {
      stack.pop();
      i++;
      continue;
    }
    if (text[i] !== ',' || i >= n) return i;
    i++;
    if (top === '{' && !key()) return i;
    // A comma then the end: cut short.
    if (!value()) return i;
  }
}

/** 1-based line and column of `offset` in `text`. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: offset - start + 1 };
}
