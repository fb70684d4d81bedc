/**
 * The protobuf wire format, read only: a cursor over a message's bytes that yields its fields.
 * Varints are read as bigint so that int64 values and negative int32s (ten bytes on the wire)
 * keep their exact value.
 */

export const WireType = { Varint: 0, Fixed64: 1, LengthDelimited: 2, Fixed32: 5 } as const;
export type WireType = number;

export class WireError extends Error {}

export interface WireField {
  number: number;
  wireType: WireType;
  /** Varint fields. */
  varint?: bigint;
  /** Length-delimited, fixed32 and fixed64 fields: the field's bytes. */
  bytes?: Uint8Array;
}

export class WireReader {
  private offset = 0;

  constructor(private readonly bytes: Uint8Array) {}

  done(): boolean {
    return this.offset >= this.bytes.length;
  }

  varint(): bigint {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (this.offset >= this.bytes.length) throw new WireError('unexpected EOF');
      if (shift > 63n) throw new WireError('integer overflow');
      const byte = this.bytes[this.offset++];
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return BigInt.asUintN(64, result);
      shift += 7n;
    }
  }

  private take(length: number): Uint8Array {
    if (length < 0 || this.offset + length > this.bytes.length) throw new WireError('unexpected EOF');
    const slice = this.bytes.subarray(this.offset, this.offset + length);
    this.offset += length;
    return slice;
  }

  field(): WireField {
    const key = this.varint();
    const number = Number(key >> 3n);
    const wireType = Number(key & 7n);
    if (number <= 0) throw new WireError(`illegal tag ${number} (wire type ${wireType})`);
    switch (wireType) {
      case WireType.Varint:
        return { number, wireType, varint: this.varint() };
      case WireType.Fixed64:
        return { number, wireType, bytes: this.take(8) };
      case WireType.LengthDelimited:
        return { number, wireType, bytes: this.take(Number(this.varint())) };
      case WireType.Fixed32:
        return { number, wireType, bytes: this.take(4) };
      default:
        throw new WireError(`illegal wireType ${wireType} for field ${number}`);
    }
  }
}

/** Every field of a message, in wire order. */
export function* wireFields(bytes: Uint8Array): Generator<WireField> {
  const reader = new WireReader(bytes);
  while (!reader.done()) yield reader.field();
}

/** The varints of a packed repeated field. */
export function* packedVarints(bytes: Uint8Array): Generator<bigint> {
  const reader = new WireReader(bytes);
  while (!reader.done()) yield reader.varint();
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

export function wireString(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new WireError('string field is not valid UTF-8');
  }
}
