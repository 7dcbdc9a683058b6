/** Fill patterns and bridge direction: the public face of the infill module. */
export { fill } from './fill.js';
export { bridgeAngle } from './bridge.js';
export { FILL_PATTERNS, type FillPattern, type FillRequest } from './types.js';
