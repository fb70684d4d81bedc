/**
 * Base64 as Go's encoding/base64 StdEncoding reads and writes `[]byte` fields in JSON (a Secret's
 * `data`): padded, `\r` and `\n` ignored, and the same `illegal base64 data at input byte N`
 * offsets for bad input. Pure, so the simulator and the tracer can size Secret values without
 * decoding them into strings.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const VALUES = new Map([...ALPHABET].map((char, index) => [char, index]));

/** The base64 of a string's UTF-8 bytes, as a Secret's `stringData` value is stored in `data`. */
export function encodeUtf8Base64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const chunk = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out += ALPHABET[(chunk >> 18) & 63] + ALPHABET[(chunk >> 12) & 63];
    out += i + 1 < bytes.length ? ALPHABET[(chunk >> 6) & 63] : '=';
    out += i + 2 < bytes.length ? ALPHABET[chunk & 63] : '=';
  }
  return out;
}

export type DecodedLength = { bytes: number; error?: undefined } | { bytes?: undefined; error: string };

const corrupt = (offset: number): DecodedLength => ({ error: `illegal base64 data at input byte ${offset}` });

/** How many bytes `encoded` decodes to, or Go's CorruptInputError message. */
export function decodedLength(encoded: string): DecodedLength {
  let bytes = 0;
  let inQuantum = 0;
  let quantumStart = 0;
  for (let i = 0; i < encoded.length; i++) {
    const char = encoded[i];
    if (char === '\r' || char === '\n') continue;
    if (char === '=') {
      if (inQuantum < 2) return corrupt(i);
      if (inQuantum === 2) {
        let next = i + 1;
        while (encoded[next] === '\r' || encoded[next] === '\n') next++;
        if (next >= encoded.length) return corrupt(encoded.length);
        if (encoded[next] !== '=') return corrupt(i);
        i = next;
      }
      let rest = i + 1;
      while (encoded[rest] === '\r' || encoded[rest] === '\n') rest++;
      if (rest < encoded.length) return corrupt(rest);
      return { bytes: bytes + inQuantum - 1 };
    }
    if (!VALUES.has(char)) return corrupt(i);
    if (inQuantum === 0) quantumStart = i;
    inQuantum++;
    if (inQuantum === 4) {
      bytes += 3;
      inQuantum = 0;
    }
  }
  if (inQuantum !== 0) return corrupt(quantumStart);
  return { bytes };
}
