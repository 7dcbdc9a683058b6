/**
 * A heater as a first-order thermal model: the block loses heat to the room in proportion to how
 * much warmer it is, and the heater adds heat in proportion to its power, so at constant power the
 * temperature approaches `ambient + power × (fullPowerTemperature − ambient)` exponentially with
 * the time constant `tau`. The controller is a feed-forward plus proportional term (what a tuned
 * PID settles to), so it heats at full power, eases into the target and holds it.
 *
 * The state is integrated lazily on the simulated clock: reading the temperature advances it to
 * "now" in small steps, so no timer is needed while nothing is watching.
 */
import type { SimClock } from './clock.js';

export interface HeaterModel {
  ambient: number;
  /** Where full power would level off. */
  fullPowerTemperature: number;
  /** Time constant in simulated seconds. */
  tauSeconds: number;
  /** Highest target Marlin accepts; higher ones are lowered to it (maxtemp minus overshoot). */
  maxTarget: number;
}

/** An E3D-style hotend: about 45 s from room temperature to 200 °C. */
export const HOTEND_MODEL: HeaterModel = { ambient: 25, fullPowerTemperature: 320, tauSeconds: 50, maxTarget: 259 };
/** A 220 mm heated bed: about 75 s to 60 °C. */
export const BED_MODEL: HeaterModel = { ambient: 25, fullPowerTemperature: 130, tauSeconds: 180, maxTarget: 139 };

const STEP_MS = 250;
/** Degrees from the target within which the heater counts as holding it. */
const SETTLED = 0.001;
/** Power added per degree below target, on top of the feed-forward term. */
const GAIN_PER_DEGREE = 0.1;

/** Uniform noise of ± `amplitude` °C from a seeded generator; none for 0. */
export function thermistorNoise(amplitude: number, random: () => number): () => number {
  return amplitude > 0 ? () => (random() * 2 - 1) * amplitude : () => 0;
}

export class Heater {
  private readonly model: HeaterModel;
  private readonly clock: SimClock;
  private readonly noise: () => number;
  private temperature: number;
  private targetTemperature = 0;
  private updatedAt: number;

  /** `noise` is the thermistor's: an offset added to each reading, never to the model. */
  constructor(model: HeaterModel, clock: SimClock, initial = model.ambient, noise: () => number = () => 0) {
    this.model = model;
    this.clock = clock;
    this.temperature = initial;
    this.noise = noise;
    this.updatedAt = clock.now();
  }

  get current(): number {
    this.advance();
    return this.temperature;
  }

  /** What the firmware reports: the temperature plus the sensor's noise (the control loop uses `current`). */
  get reading(): number {
    return this.current + this.noise();
  }

  get target(): number {
    return this.targetTemperature;
  }

  /** Heater output 0..1 at the current temperature. */
  get power(): number {
    this.advance();
    return this.powerAt(this.temperature);
  }

  /** Sets the target (clamped to the model's limits, like Marlin); 0 switches the heater off. */
  setTarget(celsius: number): void {
    this.advance();
    this.targetTemperature = Math.max(0, Math.min(celsius, this.model.maxTarget));
  }

  private powerAt(temperature: number): number {
    if (this.targetTemperature <= 0) return 0;
    const { ambient, fullPowerTemperature } = this.model;
    const feedForward = (this.targetTemperature - ambient) / (fullPowerTemperature - ambient);
    const power = feedForward + GAIN_PER_DEGREE * (this.targetTemperature - temperature);
    return Math.max(0, Math.min(1, power));
  }

  private advance(): void {
    const now = this.clock.now();
    const { ambient, fullPowerTemperature, tauSeconds } = this.model;
    while (this.updatedAt < now) {
      // Off, or holding its target, the power is constant and one exact step covers any span.
      const steady = this.targetTemperature <= 0 || Math.abs(this.targetTemperature - this.temperature) < SETTLED;
      const dt = steady ? now - this.updatedAt : Math.min(STEP_MS, now - this.updatedAt);
      const settle = ambient + this.powerAt(this.temperature) * (fullPowerTemperature - ambient);
      this.temperature = settle + (this.temperature - settle) * Math.exp(-dt / 1000 / tauSeconds);
      this.updatedAt += dt;
    }
  }
}
