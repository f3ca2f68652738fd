/**
 * What keeping a novelty profile's deviation in 16 bits does to it (ADR 0017): the moving average
 * of |e| for e ~ N(0, scale), learnt at the profile's rate per point, kept as a float (as before)
 * and rounded to 16 bits at every update (packed/sixteen-bit.ts, as profileDeparture does), side
 * by side on the same errors. Prints, per rate and scale, the two averages over the last 300 000
 * of 400 000 points, their ratio, and the largest relative gap between the two at any point.
 *
 * usage: node --import tsx bench/deviation-rounding.ts [seed]
 */
import { deviationFrom16, deviationTo16 } from '../api-server/src/analysis/packed/sixteen-bit.js';

const seedArg = Number(process.argv[2] ?? 12345);
const POINTS = 400_000;
const SETTLED_FROM = 100_000;
/** the profile's rate per point: 10 % per 300 s, at 15-s points, 2-min points and 5-min points (NAB's rows) */
const rates = [15, 120, 300].map((seconds) => 1 - Math.pow(0.9, seconds / 300));

for (const rate of rates) {
  for (const scale of [1, 1e-3, 37.5]) {
    let seed = seedArg;
    const uniform = (): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    const gauss = (): number => Math.sqrt(-2 * Math.log(uniform() + 1e-12)) * Math.cos(2 * Math.PI * uniform());
    let asFloat = 0.8 * scale;
    let as16 = 0.8 * scale;
    let sumFloat = 0;
    let sum16 = 0;
    let gap = 0;
    for (let i = 0; i < POINTS; i += 1) {
      const e = Math.abs(gauss()) * scale;
      asFloat = Math.fround((1 - rate) * asFloat + rate * e);
      as16 = deviationFrom16(deviationTo16((1 - rate) * as16 + rate * e));
      if (i < SETTLED_FROM) continue;
      sumFloat += asFloat;
      sum16 += as16;
      gap = Math.max(gap, Math.abs(as16 - asFloat) / asFloat);
    }
    console.log(
      `rate ${(100 * rate).toFixed(2)} % a point, scale ${scale}: float ${(sumFloat / (POINTS - SETTLED_FROM)).toPrecision(5)}, 16 bits ${(sum16 / (POINTS - SETTLED_FROM)).toPrecision(5)}, ratio ${(sum16 / sumFloat).toFixed(4)}, largest gap ${(100 * gap).toFixed(1)} %`,
    );
  }
}
