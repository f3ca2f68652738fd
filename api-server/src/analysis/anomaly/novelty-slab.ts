/**
 * A slab of fixed-size chunks, so that many small numeric states (one per series) cost no JS heap
 * object each. Chunks live in pages of SLAB_PAGE_CHUNKS; a page is one ArrayBuffer seen whole as
 * one Float64Array, one Float32Array, one Uint16Array and one Uint8Array, and a chunk is a non-negative integer id:
 * page `id >>> SLAB_PAGE_BITS`, index in the page `id & SLAB_PAGE_MASK`. A chunk's element offsets
 * in the page views are `index * f64Stride` (Float64), `index * f32Stride` (Float32) and
 * `index * u16Stride` (Uint16) and `index * chunkBytes` (Uint8).
 *
 * Released ids go on a free list (a stack) and are handed out again before a new page is made;
 * `allocate` returns the chunk zeroed, whether it is new or reused. Pages are never given back.
 */

export const SLAB_PAGE_BITS = 8;
export const SLAB_PAGE_CHUNKS = 1 << SLAB_PAGE_BITS;
export const SLAB_PAGE_MASK = SLAB_PAGE_CHUNKS - 1;

export class ChunkSlab {
  /** bytes per chunk (a multiple of 8) */
  readonly chunkBytes: number;
  /** elements per chunk in the Float64 views */
  readonly f64Stride: number;
  /** elements per chunk in the Float32 view */
  readonly f32Stride: number;
  /** elements per chunk in the Uint16 view */
  readonly u16Stride: number;
  /** the pages' views, by page number */
  readonly f64: Float64Array[] = [];
  readonly f32: Float32Array[] = [];
  readonly u16: Uint16Array[] = [];
  readonly u8: Uint8Array[] = [];
  /** 1 for an allocated chunk, by page number then index (guards against a double release) */
  private readonly live: Uint8Array[] = [];
  /** released ids, reused last in first out */
  private readonly free: number[] = [];
  /** ids below this have been handed out at least once */
  private fresh = 0;
  private inUse = 0;

  constructor(chunkBytes: number) {
    if (!Number.isInteger(chunkBytes) || chunkBytes <= 0 || chunkBytes % 8 !== 0) throw new RangeError(`chunk size must be a positive multiple of 8 bytes, got ${chunkBytes}`);
    this.chunkBytes = chunkBytes;
    this.f64Stride = chunkBytes / 8;
    this.f32Stride = chunkBytes / 4;
    this.u16Stride = chunkBytes / 2;
  }

  /** a zeroed chunk's id */
  allocate(): number {
    let id: number;
    if (this.free.length > 0) {
      id = this.free.pop() as number;
      const page = id >>> SLAB_PAGE_BITS;
      const start = (id & SLAB_PAGE_MASK) * this.f64Stride;
      (this.f64[page] as Float64Array).fill(0, start, start + this.f64Stride);
    } else {
      id = this.fresh;
      if ((id & SLAB_PAGE_MASK) === 0) this.addPage();
      this.fresh = id + 1; // a never-used chunk of a new ArrayBuffer is zero already
    }
    (this.live[id >>> SLAB_PAGE_BITS] as Uint8Array)[id & SLAB_PAGE_MASK] = 1;
    this.inUse += 1;
    return id;
  }

  /** gives `id` back for reuse; throws on an id that is not allocated (unknown or released twice) */
  release(id: number): void {
    if (!this.isLive(id)) throw new RangeError(`slab chunk ${id} is not allocated`);
    (this.live[id >>> SLAB_PAGE_BITS] as Uint8Array)[id & SLAB_PAGE_MASK] = 0;
    this.free.push(id);
    this.inUse -= 1;
  }

  isLive(id: number): boolean {
    if (!Number.isInteger(id) || id < 0 || id >= this.fresh) return false;
    return (this.live[id >>> SLAB_PAGE_BITS] as Uint8Array)[id & SLAB_PAGE_MASK] === 1;
  }

  /** the byte offset of chunk `id` in its page's buffer */
  byteOffset(id: number): number {
    return (id & SLAB_PAGE_MASK) * this.chunkBytes;
  }

  stats(): { pages: number; chunksInUse: number; chunksFree: number; bytes: number } {
    return { pages: this.f64.length, chunksInUse: this.inUse, chunksFree: this.free.length + this.f64.length * SLAB_PAGE_CHUNKS - this.fresh, bytes: this.f64.length * SLAB_PAGE_CHUNKS * this.chunkBytes };
  }

  private addPage(): void {
    const buffer = new ArrayBuffer(SLAB_PAGE_CHUNKS * this.chunkBytes);
    this.f64.push(new Float64Array(buffer));
    this.f32.push(new Float32Array(buffer));
    this.u16.push(new Uint16Array(buffer));
    this.u8.push(new Uint8Array(buffer));
    this.live.push(new Uint8Array(SLAB_PAGE_CHUNKS));
  }
}
