/** Writes big-endian bit fields into a byte buffer (MPEG headers and side information). */
export class BitWriter {
  private readonly bytes: Uint8Array;
  private bit = 0;

  constructor(size: number) {
    this.bytes = new Uint8Array(size);
  }

  /** Appends the low `n` bits of `value`, most significant first. */
  write(value: number, n: number): void {
    for (let i = n - 1; i >= 0; i--) {
      if ((value >>> i) & 1)
        this.bytes[this.bit >>> 3] = (this.bytes[this.bit >>> 3] ?? 0) | (0x80 >>> (this.bit & 7));
      this.bit++;
    }
  }

  /** Appends a Huffman code given as a string of 0/1. */
  writeCode(code: string): void {
    for (const c of code) this.write(c === '1' ? 1 : 0, 1);
  }

  get bitLength(): number {
    return this.bit;
  }

  get buffer(): Uint8Array {
    return this.bytes;
  }
}
