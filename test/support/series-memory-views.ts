/**
 * A series' memory (ensemble/series-memory.ts) seen as floats, as a test reads Holt-Winters'
 * season: float element i is the memory's bytes 4i to 4i + 3, the element the service reads and
 * writes through its Uint16 view (memoryFloat, setMemoryFloat). The service keeps no such view.
 */
export function floatView(d: Float64Array): Float32Array {
  return new Float32Array(d.buffer, d.byteOffset, d.length * 2);
}
