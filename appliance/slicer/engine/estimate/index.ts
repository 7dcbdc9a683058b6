/**
 * Print-time estimation: the motion planner, the G-code interpreter on top of it, and the entry
 * points the G-code writer, the dashboard and the benchmark use.
 */
export {
  DEFAULT_FIRMWARE_RETRACTION,
  DEFAULT_LIMITS,
  copyLimits,
  firmwareRetractionFromConfig,
  limitsFromConfig,
  type AxisValues,
  type CommandDialect,
  type FirmwareRetraction,
  type JunctionModel,
  type MachineLimits,
} from './limits.js';
export {
  MotionPlanner,
  type AccelerationSettings,
  type LimitsPatch,
  type PlannerMarker,
  type PlannerOptions,
  type PlannerResult,
} from './planner.js';
export { GcodeEstimator, type Bounds, type EstimateResult, type EstimatorOptions } from './estimator.js';
export { estimateGcodeFile, type EstimateFileOptions } from './estimate-file.js';
export { machineFromSettings, parseSettingLines, readEmbeddedMachine, type EmbeddedMachine } from './embedded-config.js';
