export { MODEL_NAMES, SeriesEnsemble } from './series-ensemble.js';
export { replayPoints } from './replay-points.js';
export type { EnsembleState, ForecastOutput, ModelName } from './series-ensemble.js';
