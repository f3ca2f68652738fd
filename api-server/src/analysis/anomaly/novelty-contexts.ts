/**
 * The keys of the novelty score's context expert (novelty-experts.ts unseenContexts) and the 16-bit
 * tags its table keeps of them.
 *
 * A context is the current quantised level and the 1 to contextOrders levels before it, hashed into
 * a 32-bit key (never 0: 0 is an empty slot); the key's low bits name its slot of the direct-mapped
 * table. There are only sum over L = 2..7 of 4^L = 21 840 contexts, so about 43 keys share a slot:
 * the table keeps a 16-bit tag of each key instead of the key, `imul(key, TAG_MULTIPLIER) >>> 16`,
 * with a multiplier chosen so that no two of the 21 840 keys with the same slot share a tag and no
 * tag is 0 (test/unit/anomaly/novelty-contexts.test.ts checks all of them). So a tag matches exactly
 * when the key does: the expert sees the same contexts as with the keys, in half the memory
 * (1 024 bytes a series instead of 2 048). The saved state keeps the keys (keyOfTag), as before.
 */
import { NOVELTY } from './novelty-layout.js';

/** (key >>> 0) % contextSlots as a mask: the slot count is a power of two */
export const CONTEXT_SLOT_MASK = NOVELTY.contextSlots - 1;
if ((NOVELTY.contextSlots & CONTEXT_SLOT_MASK) !== 0) throw new Error('contextSlots must be a power of two');

/** the multiplier of contextTag: the first of the form imul(t, 0x9e3779b1) | 1 (t = 2 084) without a shared tag in a slot */
export const TAG_MULTIPLIER = 0xfb9aa4e5;

/** the hash of the context of one level, the current one (extended by extendContext) */
export function contextSeed(level: number): number {
  return Math.imul(level + 1, 0x9e3779b1);
}

/** the hash of a context extended by `level`, the quantised value k points back */
export function extendContext(h: number, level: number, k: number): number {
  let e = Math.imul(h ^ (level + 1 + (k << 8)), 0x85ebca6b);
  e ^= e >>> 13;
  e = Math.imul(e, 0xc2b2ae35);
  return e ^ (e >>> 16);
}

/** a context's key: its hash, 1 for a hash of 0 (0 marks an empty slot) */
export function contextKey(h: number): number {
  return h === 0 ? 1 : h;
}

/** the tag the table keeps of `key` (1 to 65 535 for every context's key) */
export function contextTag(key: number): number {
  return Math.imul(key, TAG_MULTIPLIER) >>> 16;
}

/** every context's key, each once (21 840), current level first then levels further back */
export function allContextKeys(): number[] {
  const keys = new Set<number>();
  const extend = (h: number, k: number): void => {
    for (let level = 0; level < NOVELTY.contextLevels; level += 1) {
      const e = extendContext(h, level, k);
      keys.add(contextKey(e));
      if (k < NOVELTY.contextOrders) extend(e, k + 1);
    }
  };
  for (let level = 0; level < NOVELTY.contextLevels; level += 1) extend(contextSeed(level), 1);
  return [...keys];
}

/** slot * 65 536 + tag -> key, built at the first save or restore */
let keysByTag: Map<number, number> | null = null;

function tagIndex(): Map<number, number> {
  if (keysByTag === null) {
    keysByTag = new Map();
    for (const key of allContextKeys()) keysByTag.set((key & CONTEXT_SLOT_MASK) * 65_536 + contextTag(key), key);
  }
  return keysByTag;
}

/** the key whose tag slot `slot` holds (0 for an empty slot); undefined for a tag no context has */
export function keyOfTag(slot: number, tag: number): number | undefined {
  return tag === 0 ? 0 : tagIndex().get(slot * 65_536 + tag);
}

/** the tag to keep in slot `slot` for a saved key (0 for an empty slot); undefined for a key that is not a context's of that slot */
export function tagOfKey(slot: number, key: number): number | undefined {
  if (key === 0) return 0;
  const tag = contextTag(key);
  return tagIndex().get(slot * 65_536 + tag) === key ? tag : undefined;
}
