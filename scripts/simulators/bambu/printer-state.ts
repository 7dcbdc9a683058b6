/**
 * The virtual printer's state and how it changes with time: heaters approach their targets, a
 * print moves through PREPARE → RUNNING → FINISH following its plan (gcode-plan.ts), pauses,
 * resumes, is stopped (FAILED, as the printers report a cancelled print) or refused while busy.
 * Time is printer time: the caller passes seconds already multiplied by the time scale.
 *
 * Error codes (`print_error`, the 32-bit value whose hex is the code the printer screen shows):
 * 0x0300400C "printing was cancelled", 0x05004004 "device is busy" (a start sent while printing),
 * 0x05004003 "unable to parse the file", 0x07008012 "failed to get AMS mapping table".
 */
import { EXTERNAL_TRAY, findTray, NO_TRAY, type AmsUnit } from './ams.js';
import type { PlanEvent, PrintPlan } from './gcode-plan.js';
import type { Heater, ToolheadChange } from './toolhead.js';

export const GCODE_STATES = ['IDLE', 'PREPARE', 'SLICING', 'RUNNING', 'PAUSE', 'FINISH', 'FAILED'] as const;
export type GcodeState = (typeof GCODE_STATES)[number];
export const ACTIVE_STATES: ReadonlySet<GcodeState> = new Set(['PREPARE', 'SLICING', 'RUNNING', 'PAUSE']);

export const PrintError = {
  none: 0,
  cancelled: 0x0300400c,
  busy: 0x05004004,
  unreadableFile: 0x05004003,
  amsMapping: 0x07008012,
} as const;

/** `stg_cur` values (bambulabs_api PrintStatus). */
export const Stage = { printing: 0, heatingBed: 2, heatingNozzle: 7, pausedByUser: 16, idle: 255 } as const;

/** `spd_lvl` → `spd_mag` (percent): silent, standard, sport, ludicrous. */
export const SPEED_PERCENT: Readonly<Record<number, number>> = { 1: 50, 2: 100, 3: 124, 4: 166 };

export const AMBIENT_C = 25;
/* Heating rates (°C per printer second) and cooling time constants (s), near a P1S's. */
const NOZZLE_RATE = 5;
const BED_RATE = 1;
const NOZZLE_TAU = 30;
const BED_TAU = 300;
const CHAMBER_TAU = 600;
/* A heating wait ends within this of the target, as Marlin's TEMP_WINDOW. */
const TEMP_WINDOW = 1;

export interface JobIds {
  subtaskId: string;
  taskId: string;
  projectId: string;
  profileId: string;
}

export interface Job {
  name: string;
  file: string;
  ids: JobIds;
  /** Null for a job started on the printer's screen (the busy fault): it does not progress. */
  plan: PrintPlan | null;
  /** Printer seconds into the plan. */
  clock: number;
  nextEvent: number;
  prepareLeft: number;
  prepareTotal: number;
  waitingFor: 'nozzle' | 'bed' | null;
  percent: number;
  remainingMin: number;
  layer: number;
  /** Tool → global tray id, -1 for the external spool. */
  mapping: number[];
  useAms: boolean;
  startedAt: number;
}

export interface NewJob {
  name: string;
  file: string;
  ids: JobIds;
  plan: PrintPlan | null;
  mapping: number[];
  useAms: boolean;
  prepareSeconds: number;
  now: number;
}

export class PrinterState {
  gcodeState: GcodeState = 'IDLE';
  readonly nozzle: Heater = { temp: AMBIENT_C, target: 0 };
  readonly bed: Heater = { temp: AMBIENT_C, target: 0 };
  chamber = AMBIENT_C;
  /** Fans 0..255: part cooling, auxiliary, chamber. */
  partFan = 0;
  auxFan = 0;
  chamberFan = 0;
  speedLevel = 2;
  homed = false;
  printError: number = PrintError.none;
  readonly lights = new Map<string, string>();
  /** Active HMS entries as (attr, code) pairs. */
  hms: Array<{ attr: number; code: number }> = [];
  trayNow = NO_TRAY;
  trayTarget = NO_TRAY;
  trayPrevious = NO_TRAY;
  /** An `ams_change_filament` under way (filament-change.ts), null otherwise. */
  filamentChange: ToolheadChange | null = null;
  job: Job | null = null;

  constructor(
    readonly ams: AmsUnit[],
    lightNodes: readonly string[],
  ) {
    for (const node of lightNodes) this.lights.set(node, 'on');
  }

  get active(): boolean {
    return ACTIVE_STATES.has(this.gcodeState);
  }

  get stage(): number {
    if (this.gcodeState === 'PAUSE') return Stage.pausedByUser;
    if (this.filamentChange) return this.filamentChange.stage;
    if (this.gcodeState !== 'RUNNING') return Stage.idle;
    if (this.job?.waitingFor === 'bed') return Stage.heatingBed;
    if (this.job?.waitingFor === 'nozzle') return Stage.heatingNozzle;
    return Stage.printing;
  }

  get speedFactor(): number {
    return SPEED_PERCENT[this.speedLevel] / 100;
  }

  hasHms(attr: number, code: number): boolean {
    return this.hms.some((h) => h.attr === attr && h.code === code);
  }

  raiseHms(attr: number, code: number): void {
    if (!this.hasHms(attr, code)) this.hms = [...this.hms, { attr, code }];
  }

  clearHms(attr: number, code: number): void {
    this.hms = this.hms.filter((h) => h.attr !== attr || h.code !== code);
  }

  begin(spec: NewJob): void {
    this.printError = PrintError.none;
    const plan = spec.plan;
    this.job = {
      name: spec.name,
      file: spec.file,
      ids: spec.ids,
      plan,
      clock: 0,
      nextEvent: 0,
      prepareLeft: spec.prepareSeconds,
      prepareTotal: spec.prepareSeconds,
      waitingFor: null,
      percent: 0,
      remainingMin: plan ? Math.ceil(plan.durationSec / 60) : 0,
      layer: 0,
      mapping: spec.mapping,
      useAms: spec.useAms,
      startedAt: spec.now,
    };
    this.gcodeState = plan && spec.prepareSeconds > 0 ? 'PREPARE' : 'RUNNING';
    if (plan) this.selectTool(0);
  }

  pause(): boolean {
    if (this.gcodeState !== 'RUNNING') return false;
    this.gcodeState = 'PAUSE';
    return true;
  }

  resume(): boolean {
    if (this.gcodeState !== 'PAUSE') return false;
    this.gcodeState = 'RUNNING';
    return true;
  }

  /** Cancels a print (FAILED with "printing was cancelled"); on a finished or failed printer, back to IDLE. */
  stop(): boolean {
    if (this.active) {
      this.end('FAILED', PrintError.cancelled);
      if (this.job) this.job.remainingMin = 0;
      return true;
    }
    if (this.gcodeState === 'FINISH' || this.gcodeState === 'FAILED') {
      this.gcodeState = 'IDLE';
      this.printError = PrintError.none;
      return true;
    }
    return false;
  }

  /** A start that failed after it was accepted (unreadable file): PREPARE ends in FAILED. */
  fail(error: number): void {
    this.end('FAILED', error);
  }

  finish(): void {
    if (this.job) {
      this.job.percent = 100;
      this.job.remainingMin = 0;
      if (this.job.plan) this.job.layer = this.job.plan.totalLayers;
    }
    this.end('FINISH', PrintError.none);
  }

  tick(seconds: number): void {
    if (seconds <= 0) return;
    approach(this.nozzle, seconds, NOZZLE_RATE, NOZZLE_TAU);
    approach(this.bed, seconds, BED_RATE, BED_TAU);
    const chamberGoal = AMBIENT_C + 0.25 * (this.bed.temp - AMBIENT_C);
    this.chamber = chamberGoal + (this.chamber - chamberGoal) * Math.exp(-seconds / CHAMBER_TAU);
    if (this.filamentChange?.tick(this, seconds)) this.filamentChange = null;
    const job = this.job;
    if (!job?.plan) return;
    if (this.gcodeState === 'PREPARE') {
      job.prepareLeft -= seconds;
      if (job.prepareLeft <= 0) this.gcodeState = 'RUNNING';
      return;
    }
    if (this.gcodeState === 'RUNNING') this.advance(job, job.plan, seconds);
  }

  private advance(job: Job, plan: PrintPlan, seconds: number): void {
    if (job.waitingFor !== null) {
      const heater = job.waitingFor === 'nozzle' ? this.nozzle : this.bed;
      if (Math.abs(heater.temp - heater.target) > TEMP_WINDOW) return;
      job.waitingFor = null;
    }
    job.clock = Math.min(plan.durationSec, job.clock + seconds * this.speedFactor);
    while (job.nextEvent < plan.events.length && plan.events[job.nextEvent].at <= job.clock) {
      const event = plan.events[job.nextEvent++];
      if (event.percent !== undefined) job.percent = event.percent;
      if (event.remainingMin !== undefined) job.remainingMin = event.remainingMin;
      if (event.layer !== undefined) job.layer = event.layer;
      if (event.nozzleTarget !== undefined) this.nozzle.target = event.nozzleTarget;
      if (event.bedTarget !== undefined) this.bed.target = event.bedTarget;
      if (event.partFan !== undefined) this.partFan = event.partFan;
      if (event.tool !== undefined) this.selectTool(event.tool);
      const wait = heaterAwaited(event);
      const heater = wait === 'nozzle' ? this.nozzle : this.bed;
      if (wait !== null && Math.abs(heater.temp - heater.target) > TEMP_WINDOW) {
        job.waitingFor = wait;
        job.clock = event.at;
        return;
      }
    }
    if (!plan.progressFromFile) job.percent = Math.floor((job.clock / plan.durationSec) * 100);
    if (!plan.remainingFromFile) job.remainingMin = Math.ceil((plan.durationSec - job.clock) / 60);
    if (job.clock >= plan.durationSec && job.nextEvent >= plan.events.length) this.finish();
  }

  /** The remaining time as reported: the file's or the model's, at the current speed level. */
  reportedRemaining(): number {
    const job = this.job;
    if (!job || !this.active) return 0;
    return Math.round(job.remainingMin / this.speedFactor);
  }

  private selectTool(tool: number): void {
    const job = this.job;
    if (!job) return;
    let mapped = -1;
    // Without a mapping the printer takes filament n from tray n.
    if (job.useAms) mapped = tool < job.mapping.length ? job.mapping[tool] : tool;
    const tray = mapped >= 0 && findTray(this.ams, mapped) ? mapped : EXTERNAL_TRAY;
    if (tray === this.trayNow) return;
    this.trayPrevious = this.trayNow;
    this.trayTarget = tray;
    this.trayNow = tray;
  }

  private end(state: 'FINISH' | 'FAILED', error: number): void {
    this.gcodeState = state;
    this.printError = error;
    this.nozzle.target = 0;
    this.bed.target = 0;
    this.partFan = 0;
    if (this.job) this.job.waitingFor = null;
  }
}

/** Heats at a fixed rate; cools exponentially toward ambient, never below a set target. */
/** The heater an event waits for (M109 / M190), if any. */
function heaterAwaited(event: PlanEvent): 'nozzle' | 'bed' | null {
  if (event.waitNozzle) return 'nozzle';
  return event.waitBed ? 'bed' : null;
}

function approach(heater: Heater, seconds: number, rate: number, tau: number): void {
  if (heater.target > heater.temp) {
    heater.temp = Math.min(heater.target, heater.temp + rate * seconds);
    return;
  }
  const floor = Math.max(heater.target, AMBIENT_C);
  if (heater.temp <= floor) return;
  heater.temp = Math.max(floor, floor + (heater.temp - floor) * Math.exp(-seconds / tau));
}
