export { LineView, SlidingRegression, metricRatio } from './sliding-regression.js';
export type { LineHost, RegressionLine, RegressionState } from './sliding-regression.js';
