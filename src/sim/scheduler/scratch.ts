/**
 * Zeroed typed arrays reused from one scheduling attempt to the next. A PreFilter or PreScore
 * state holds one array per constraint or term, sized by the number of topology domains (5,000
 * for a hostname key on 5,000 nodes): fresh arrays for each of 150,000 pods would be gigabytes of
 * garbage. What `take` hands out stays valid until the owner's next `reset`, that is until the
 * next attempt's PreFilter (or PreScore) runs.
 */
export class ScratchArrays {
  private readonly floats: Float64Array[] = [];
  private readonly bytes: Uint8Array[] = [];
  private nextFloat = 0;
  private nextByte = 0;

  reset(): void {
    this.nextFloat = 0;
    this.nextByte = 0;
  }

  float64(length: number): Float64Array {
    const i = this.nextFloat++;
    if (i === this.floats.length || this.floats[i].length < length) this.floats[i] = new Float64Array(Math.max(length, 16));
    const view = this.floats[i].subarray(0, length);
    view.fill(0);
    return view;
  }

  uint8(length: number): Uint8Array {
    const i = this.nextByte++;
    if (i === this.bytes.length || this.bytes[i].length < length) this.bytes[i] = new Uint8Array(Math.max(length, 16));
    const view = this.bytes[i].subarray(0, length);
    view.fill(0);
    return view;
  }
}
