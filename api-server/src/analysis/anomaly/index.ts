export { SeriesDetectors } from './series-detectors.js';
export type { AnomalyMethodName, DetectorOutput, Firing } from './series-detectors.js';
