export { SlidingRegression, metricRatio } from './sliding-regression.js';
export type { RegressionState } from './sliding-regression.js';
