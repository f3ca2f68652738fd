export { NOVELTY_FIRES_AT, SeriesDetectors, burstLineOf, seriesBurstFull, seriesBurstMean, seriesBurstSlope, seriesBurstSlopeStdError, seriesBurstSpan, seriesMetricRatio, seriesStableSlope } from './series-detectors.js';
export type { AnomalyMethodName, DetectorOutput, Firing } from './series-detectors.js';
export { NOVELTY, NoveltyScore } from './novelty-score.js';
export type { NoveltyState } from './novelty-score.js';
