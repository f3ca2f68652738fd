import { expect } from 'chai';
import fc from 'fast-check';
import { CONTEXT_SLOT_MASK, allContextKeys, contextKey, contextSeed, contextTag, extendContext, keyOfTag, tagOfKey } from '../../../api-server/src/analysis/anomaly/novelty-contexts.js';
import { NOVELTY } from '../../../api-server/src/analysis/anomaly/novelty-layout.js';

describe('novelty contexts: 16-bit tags of the context keys', () => {
  it('tags: the high half of imul(key, 0xfb9aa4e5) (hand-checked)', () => {
    // imul(1, M) = M: its high 16 bits 0xfb9a
    expect(contextTag(1)).to.equal(0xfb9a);
    // imul(0x10000, M) = M << 16 (mod 2^32) = 0xa4e50000
    expect(contextTag(0x10000)).to.equal(0xa4e5);
    expect(contextKey(0)).to.equal(1);
    expect(contextKey(-5)).to.equal(-5);
  });

  it('every one of the 21 840 contexts has its own key, and no two keys of one slot share a tag; no tag is 0', () => {
    const keys = allContextKeys();
    let contexts = 0;
    for (let length = 2; length <= NOVELTY.contextOrders + 1; length += 1) contexts += NOVELTY.contextLevels ** length;
    expect(contexts).to.equal(21_840);
    expect(keys.length).to.equal(contexts);
    const seen = new Set<number>();
    for (const key of keys) {
      const tag = contextTag(key);
      expect(tag).to.be.within(1, 65_535);
      const id = (key & CONTEXT_SLOT_MASK) * 65_536 + tag;
      expect(seen.has(id), `key ${key}`).to.equal(false);
      seen.add(id);
      // the saved form's key comes back from the tag
      expect(keyOfTag(key & CONTEXT_SLOT_MASK, tag)).to.equal(key);
      expect(tagOfKey(key & CONTEXT_SLOT_MASK, key)).to.equal(tag);
    }
    expect(keyOfTag(5, 0)).to.equal(0);
    expect(tagOfKey(5, 0)).to.equal(0);
    // a key in another slot than its own, or no context's key
    const key = keys[0]!;
    expect(tagOfKey(((key & CONTEXT_SLOT_MASK) + 1) & CONTEXT_SLOT_MASK, key)).to.equal(undefined);
    expect(tagOfKey(3, 3)).to.equal(undefined);
  });

  it('a table of tags sees the same unseen contexts as a table of keys, point after point (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: NOVELTY.contextLevels - 1 }), { minLength: 8, maxLength: 600, size: 'max' }), (levels) => {
        const byKey = new Int32Array(NOVELTY.contextSlots);
        const byTag = new Uint16Array(NOVELTY.contextSlots);
        for (let i = NOVELTY.contextOrders; i < levels.length; i += 1) {
          let h = contextSeed(levels[i]!);
          for (let k = 1; k <= NOVELTY.contextOrders; k += 1) {
            h = extendContext(h, levels[i - k]!, k);
            const key = contextKey(h);
            const slot = key & CONTEXT_SLOT_MASK;
            const unseenByKey = byKey[slot] !== key;
            const unseenByTag = byTag[slot] !== contextTag(key);
            expect(unseenByTag).to.equal(unseenByKey);
            byKey[slot] = key;
            byTag[slot] = contextTag(key);
          }
        }
      }),
      { numRuns: 200 },
    );
  });
});
