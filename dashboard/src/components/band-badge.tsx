/** State name on its band colour: the colour is never the only cue. */
import type { RuptureState } from '../api/types.js';
import { BAND_STYLES, bandOfState } from '../model/bands.js';

export function BandBadge(props: { state: RuptureState | string }) {
  const band = bandOfState(props.state);
  const style = BAND_STYLES[band];
  return (
    <span class="badge" data-band={band} style={{ background: style.background, color: style.foreground }}>
      {props.state}
    </span>
  );
}
