import { expect } from 'chai';
import fc from 'fast-check';
import { bandOf, stateOf } from '../../../api-server/src/analysis/bands.js';
import { BAND_STYLES, bandOfFusedR, bandOfState } from '../../../dashboard/src/model/bands.js';
import { contrastRatio } from '../../../dashboard/src/model/contrast.js';

describe('dashboard band colours', () => {
  it('maps FusedR to the interface bands at the edges (1.5, 2.5, 4.0)', () => {
    const cases: [number, string][] = [
      [0, 'normal'],
      [1.49, 'normal'],
      [1.5, 'warning'],
      [2.49, 'warning'],
      [2.5, 'critical'],
      [4.0, 'critical'],
      [4.01, 'emergency'],
      [10, 'emergency'],
      [Number.NaN, 'normal'],
    ];
    for (const [r, band] of cases) expect(bandOfFusedR(r), String(r)).to.equal(band);
  });

  it('agrees with the service band table for every FusedR and state', () => {
    fc.assert(
      fc.property(fc.double({ min: -1, max: 11, noNaN: true }), (r) => {
        expect(bandOfFusedR(r)).to.equal(bandOf(r));
        expect(bandOfState(stateOf(r))).to.equal(bandOf(r));
      }),
    );
  });

  it('uses the interface colour names: green, yellow, orange, red', () => {
    expect([BAND_STYLES.normal.colour, BAND_STYLES.warning.colour, BAND_STYLES.critical.colour, BAND_STYLES.emergency.colour]).to.deep.equal(['green', 'yellow', 'orange', 'red']);
  });

  it('keeps badge text at WCAG AA contrast (4.5:1) on every band colour', () => {
    for (const style of Object.values(BAND_STYLES)) expect(contrastRatio(style.background, style.foreground), style.label).to.be.at.least(4.5);
  });

  it('computes contrast ratios as WCAG defines them (black on white is 21:1)', () => {
    expect(contrastRatio('#000000', '#ffffff')).to.be.closeTo(21, 1e-9);
    expect(contrastRatio('#ffffff', '#ffffff')).to.equal(1);
    // #777777: channel 119/255 → 0.18447 linear → (1.05)/(0.18447+0.05) = 4.478
    expect(contrastRatio('#777777', '#ffffff')).to.be.closeTo(4.478, 0.001);
    expect(() => contrastRatio('red', '#ffffff')).to.throw(/#rrggbb/);
  });
});
