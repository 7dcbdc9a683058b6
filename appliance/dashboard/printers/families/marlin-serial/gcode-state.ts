/**
 * What the commands the printer acknowledged did to the machine, followed the way Marlin reads
 * them: positioning modes, the active tool, the modal feed rate, the part fan, and the filament
 * pushed through each tool, from the E positions of moves.
 *
 * Extrusion: a G0–G3 with E moves the (one, shared) logical E position — relative under M83 or
 * G91, absolute under M82 or G90 (G90/G91 switch E too, as in Marlin); the difference goes to the
 * active tool (T<n>). G92 E<v> sets the position without moving; G10/G11 (firmware retraction)
 * pull back and push forward the same length, so they count nothing. Retractions subtract. This
 * counts what was commanded: Marlin may refuse a cold extrusion or skip a cancelled object's moves.
 */

/** The codes and parameters of one command, as Marlin's parser reads them (upper-case letters only). */
export interface ParsedCommand {
  /** `G1`, `M83`, `T1`… */
  code: string;
  params: Map<string, number>;
}

const COMMAND = /^([GMT])(\d+)(?:\.\d+)?/;
const PARAM = /([A-Z])\s*([-+]?(?:\d+\.?\d*|\.\d+))/g;

export function parseCommand(command: string): ParsedCommand | null {
  const head = COMMAND.exec(command);
  if (!head) return null;
  const params = new Map<string, number>();
  for (const m of command.slice(head[0].length).matchAll(PARAM)) if (!params.has(m[1])) params.set(m[1], Number(m[2]));
  return { code: `${head[1]}${Number(head[2])}`, params };
}

export interface MotionModes {
  relativeXYZ: boolean;
  relativeE: boolean;
  /** mm/min of the last F word; null before any. */
  feedrate: number | null;
  tool: number;
}

export class GcodeState {
  relativeXYZ = false;
  relativeE = false;
  feedrate: number | null = null;
  tool = 0;
  /** Percent 0–100 of the part-cooling fan (M106/M107 on fan 0); null until one was sent. */
  partFan: number | null = null;
  private ePosition = 0;
  private readonly extruded: number[];

  constructor(tools: number) {
    this.extruded = new Array<number>(Math.max(1, tools)).fill(0);
  }

  /** Millimetres of filament per tool since this state was made. */
  extrudedMm(): number[] {
    return this.extruded.map((mm) => Math.round(mm * 1000) / 1000);
  }

  modes(): MotionModes {
    return { relativeXYZ: this.relativeXYZ, relativeE: this.relativeE, feedrate: this.feedrate, tool: this.tool };
  }

  /** Makes room for the tools the firmware reported. */
  ensureTools(tools: number): void {
    while (this.extruded.length < tools) this.extruded.push(0);
  }

  /** A firmware reset: its modes are back to the defaults; filament counted stays counted. */
  firmwareReset(): void {
    this.relativeXYZ = false;
    this.relativeE = false;
    this.feedrate = null;
    this.tool = 0;
    this.partFan = null;
    this.ePosition = 0;
  }

  /** Follows one acknowledged command. */
  apply(command: string): void {
    const parsed = parseCommand(command);
    if (!parsed) return;
    const { code, params } = parsed;
    switch (code) {
      case 'G0':
      case 'G1':
      case 'G2':
      case 'G3':
        this.move(params);
        return;
      case 'G90':
        this.relativeXYZ = false;
        this.relativeE = false;
        return;
      case 'G91':
        this.relativeXYZ = true;
        this.relativeE = true;
        return;
      case 'M82':
        this.relativeE = false;
        return;
      case 'M83':
        this.relativeE = true;
        return;
      case 'G92': {
        const e = params.get('E');
        if (e !== undefined) this.ePosition = e;
        return;
      }
      case 'M106':
        if ((params.get('P') ?? 0) === 0) this.partFan = Math.round((Math.max(0, Math.min(255, params.get('S') ?? 255)) / 255) * 100);
        return;
      case 'M107':
        if ((params.get('P') ?? 0) === 0) this.partFan = 0;
        return;
      default:
        if (code.startsWith('T')) this.selectTool(Number(code.slice(1)));
    }
  }

  private move(params: Map<string, number>): void {
    const f = params.get('F');
    if (f !== undefined && f > 0) this.feedrate = f;
    const e = params.get('E');
    if (e === undefined) return;
    const delta = this.relativeE ? e : e - this.ePosition;
    this.ePosition += delta;
    this.extruded[this.tool] += delta;
  }

  private selectTool(tool: number): void {
    if (!Number.isInteger(tool) || tool < 0) return;
    this.ensureTools(tool + 1);
    this.tool = tool;
  }
}
