import { expect } from 'chai';

/**
 * Expects `actual` to be `expected` (JSON-like values) but for numbers, each within `relative` of
 * the expected one's magnitude or `absolute`: the same keys, lengths, strings, booleans and nulls.
 */
export function expectNumbersNear(actual: unknown, expected: unknown, relative: number, absolute: number, path = '$'): void {
  if (typeof expected === 'number') {
    expect(typeof actual, path).to.equal('number');
    const a = actual as number;
    const ok = Object.is(a, expected) || Math.abs(a - expected) <= relative * Math.abs(expected) + absolute;
    expect(ok, `${path}: ${a} against ${expected}`).to.equal(true);
    return;
  }
  if (Array.isArray(expected)) {
    expect(Array.isArray(actual), path).to.equal(true);
    expect((actual as unknown[]).length, `${path}: length`).to.equal(expected.length);
    expected.forEach((e, i) => expectNumbersNear((actual as unknown[])[i], e, relative, absolute, `${path}[${i}]`));
    return;
  }
  if (expected !== null && typeof expected === 'object') {
    expect(actual !== null && typeof actual === 'object' && !Array.isArray(actual), path).to.equal(true);
    const keys = Object.keys(expected).sort();
    expect(Object.keys(actual as object).sort(), `${path}: keys`).to.deep.equal(keys);
    for (const k of keys) expectNumbersNear((actual as Record<string, unknown>)[k], (expected as Record<string, unknown>)[k], relative, absolute, `${path}.${k}`);
    return;
  }
  expect(actual, path).to.equal(expected);
}
