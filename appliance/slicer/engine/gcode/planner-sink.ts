/** The continuous motion planner the writer and the formatter feed every move into (for the total estimate and M73). */
export interface PlannerSink {
  move(x: number, y: number, z: number, e: number, feedrateMmS: number): void;
  setAccelerations(a: { print?: number; retract?: number; travel?: number }): void;
  marker(tag: string): void;
}
