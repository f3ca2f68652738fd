export { MODEL_NAMES, SeriesEnsemble, replayPoints } from './series-ensemble.js';
export type { EnsembleState, ForecastOutput, ModelName } from './series-ensemble.js';
