/**
 * Turns layers of toolpaths into G-code, one layer at a time, in print order: objects and islands
 * nearest first, seams, travels with retraction only where a travel leaves its island, z-hop,
 * wipe, cooling (slow-down and fan), per-feature comments, object labels. Output goes to a sink
 * (a file stream) so memory stays bounded by one layer.
 */
import type { PrintConfig } from '../../profiles/schema.js';
import { decideCooling } from '../toolpath/cooling.js';
import { chooseSeam, type SeamContext, type SeamMode, startLoopInto, trimEndInPlace } from '../toolpath/seam.js';
import { accelerationFor, pick, speedFor, travelSpeed } from '../toolpath/speeds.js';
import { orderIslands, orderObjects } from '../toolpath/order.js';
import { travelStaysInside } from '../toolpath/travel.js';
import type { Extrusion, ExtrusionRole, IslandPaths, LayerPaths } from '../toolpath/types.js';
import { bedTemperatures } from './bed-temperature.js';
import type { Flavour } from './flavour.js';
import { GcodeFormatter, PROGRESS_MARK } from './formatter.js';
import { firmwareRetraction, HeightChangeState, type HeightChange } from './height-changes.js';
import { FanMark, LayerBuffer, MoveKind } from './layer-buffer.js';
import { ObjectLabels, type LabelledObject } from './object-labels.js';
import { filamentSetup, startBlock } from './start-block.js';
import { wipeSteps } from './wipe.js';
import type { PlannerSink } from './planner-sink.js';

export type { LabelledObject } from './object-labels.js';
import { length2 } from '../geometry/polygon.js';

export interface WriterDeps {
  config: PrintConfig;
  flavour: Flavour;
  objects: LabelledObject[];
  totalLayers: number;
  /**
   * Renders a custom G-code template (start, end, layer change, tool change…), named `where` in
   * errors, with the layer's variables and any extra ones (the tool change's extruders).
   */
  render: (source: string, where: string, layer: { num: number; z: number } | null, extra?: Record<string, number>) => string;
  planner: PlannerSink;
  /** Where the G-code goes: the start as text, then each layer as bytes. */
  out: (chunk: string | Uint8Array) => void;
  /** Settings that change with height (height-changes.ts); none by default. */
  heightChanges?: readonly HeightChange[];
}

export interface WriterStats {
  /** mm of filament pushed per filament (net of retractions). */
  filamentMm: number[];
  layers: number;
  bounds: [number, number, number, number, number, number];
}

export class GcodeWriter {
  private readonly c: PrintConfig;
  private readonly f: Flavour;
  private readonly formatter: GcodeFormatter;
  private x = 0;
  private y = 0;
  private z = 0;
  private retracted = 0;
  private lifted = 0;
  private accelNow = 0;
  private filament = 0;
  private readonly seams = new Map<number, [number, number]>();
  /** One context for every seam chosen, filled in for each loop. */
  private readonly seamContext: SeamContext = { mode: 'aligned', x: 0, y: 0, previous: null, rearY: 0, layer: 0 };
  /** Two buffers the loops are restarted at their seams in, taking turns: the last path (for the wipe) stays intact. */
  private loopBuffers = [new Float64Array(256), new Float64Array(256)];
  private lastPath: Float64Array | null = null;
  /** How many numbers of `lastPath` are the path (a loop buffer is longer than its loop). */
  private lastLength = 0;
  /** The island whose rear edge `rearY` is. */
  private rearIsland: IslandPaths | null = null;
  private rearY = 0;
  /** Whether the last path was printed from its end to its start. */
  private lastBackwards = false;
  private layerIndex = 0;
  private readonly buf = new LayerBuffer();
  /** Where the nozzle was when the layer began: x, y, z. */
  private readonly layerStart = new Float64Array(3);
  private readonly labels: ObjectLabels;
  private readonly heights: HeightChangeState;

  constructor(private readonly d: WriterDeps) {
    this.c = d.config;
    this.f = d.flavour;
    this.formatter = new GcodeFormatter(d.config, d.flavour, d.planner, d.out);
    this.labels = new ObjectLabels(d.config, d.flavour, d.objects);
    this.heights = new HeightChangeState(d.heightChanges ?? [], firmwareRetraction(d.config.use_firmware_retraction, d.flavour.name));
  }

  /** Everything before the first layer (start-block.ts); answers the text written. */
  start(): string {
    const text = `${startBlock(this.d, this.filament).join('\n')}\n`;
    this.d.out(text);
    return text;
  }

  layer(layer: LayerPaths): void {
    const c = this.c;
    this.layerIndex = layer.index;
    this.layerStart[0] = this.x;
    this.layerStart[1] = this.y;
    this.layerStart[2] = this.z;
    const b = this.buf;
    b.clear();
    // From the layer change on, the layer's own settings: its retraction at the change included.
    const heightLines = this.heights.enterLayer(layer.printZ - layer.height);
    for (const line of this.f.layerChangeComments(layer.printZ, layer.height)) b.line(line);
    this.text(this.d.render(c.before_layer_change_gcode, 'before_layer_change_gcode', { num: layer.index, z: layer.printZ }));
    if (pick(c.retract_when_changing_layer, this.filament)) this.retract();
    this.unlift();
    b.move(this.x, this.y, layer.printZ, 0, this.zFeed(), MoveKind.Lift);
    this.z = layer.printZ;
    this.text(this.d.render(c.layer_change_gcode, 'layer_change_gcode', { num: layer.index, z: layer.printZ }));
    if (this.f.klipper) b.line(`SET_PRINT_STATS_INFO CURRENT_LAYER=${layer.index + 1}`);
    b.line(PROGRESS_MARK + layer.index);
    if (layer.index === 1) this.normalTemperatures();
    for (const line of heightLines) b.line(line);
    b.fan(FanMark.Normal);

    for (let k = 0; k < layer.adhesion.length; k++) this.extrude(layer.adhesion[k], null);
    for (let k = 0; k < layer.support.length; k++) this.extrude(layer.support[k], null);
    // Indexed loops here and below: an iterator per list was garbage for every layer until optimised.
    const groups = orderObjects(layer.islands, this.x, this.y);
    for (let g = 0; g < groups.length; g++) {
      const obj = this.d.objects[groups[g][0].object];
      this.labelStart(obj);
      const islands = orderIslands(groups[g], this.x, this.y);
      for (let k = 0; k < islands.length; k++) this.island(islands[k], obj.id);
      this.retractIfLeaving();
      this.labelEnd(obj);
    }
    this.flushLayer(layer);
  }

  end(): WriterStats {
    const b = this.buf;
    b.clear();
    this.retract();
    b.fan(FanMark.Off);
    const last = { num: this.d.totalLayers - 1, z: this.z };
    this.text(this.d.render(pick(this.c.filament_end_gcode, this.filament), 'filament_end_gcode', last, { current_extruder: this.filament }));
    if (this.f.bambu) b.line('; MACHINE_END_GCODE_START');
    this.text(this.d.render(this.c.machine_end_gcode, 'machine_end_gcode', last));
    b.line('M73 P100 R0');
    this.formatter.write(b, 0, 0);
    return { filamentMm: this.formatter.filamentMm, layers: this.d.totalLayers, bounds: this.formatter.bounds };
  }

  private text(s: string): void {
    const t = s.trimEnd();
    if (t) this.buf.line(t);
  }

  private zFeed(): number {
    return this.c.travel_speed_z > 0 ? this.c.travel_speed_z : this.c.machine_max_speed_z;
  }

  private normalTemperatures(): void {
    const c = this.c;
    const nozzle = pick(c.nozzle_temperature, this.filament);
    const heightSet = this.heights.value('nozzle_temperature') !== null;
    if (!heightSet && nozzle !== pick(c.nozzle_temperature_initial_layer, this.filament)) this.buf.line(`M104 S${nozzle}`);
    const beds = bedTemperatures(c);
    const bed = pick(beds.bed, this.filament);
    if (bed !== pick(beds.firstLayer, this.filament)) this.buf.line(`M140 S${bed}`);
  }

  private labelStart(obj: LabelledObject): void {
    // A Bambu printer skips everything from M624 to M625 when the object is skipped: leave the
    // filament retracted on both sides, so the next object starts the same either way.
    if (this.f.bambu && this.labels.enabled) this.retractIfLeaving();
    for (const line of this.labels.start(obj)) this.buf.line(line);
  }

  private labelEnd(obj: LabelledObject): void {
    for (const line of this.labels.end(obj)) this.buf.line(line);
  }

  private island(isl: IslandPaths, objectId: number): void {
    this.setFilament(isl.filament);
    if (this.c.is_infill_first) {
      this.extrudeAll(isl.infill, isl, -1);
      this.extrudeAll(isl.walls, isl, objectId);
    } else {
      this.extrudeAll(isl.walls, isl, objectId);
      this.extrudeAll(isl.infill, isl, -1);
    }
  }

  /** The island's walls (with their object, for its seams) or infill (-1), by index: an iterator per list was garbage until optimised. */
  private extrudeAll(list: readonly Extrusion[], isl: IslandPaths, objectId: number): void {
    for (let k = 0; k < list.length; k++) this.extrude(list[k], isl, objectId);
  }

  /**
   * A tool (or AMS slot) change: the old filament's end G-code, a long retraction, the profile's
   * change G-code (which issues the T command itself, as Bambu's does, or gets one), then the new
   * filament's start G-code and settings.
   */
  private setFilament(filament: number): void {
    if (filament === this.filament) return;
    const c = this.c;
    const previous = this.filament;
    const layer = { num: this.layerIndex, z: this.z };
    const extra = { previous_extruder: previous, next_extruder: filament, current_extruder: previous, toolchange_z: this.z };
    this.text(this.d.render(pick(c.filament_end_gcode, previous), 'filament_end_gcode', layer, extra));
    if (this.retracted === 0 && !c.use_firmware_retraction) {
      const length = pick(c.retract_length_toolchange, previous);
      if (length > 0) {
        this.buf.move(this.x, this.y, this.z + this.lifted, -length, pick(c.retraction_speed, previous), MoveKind.Retract);
        this.retracted = length;
      }
    } else this.retract();
    const change = this.d.render(c.change_filament_gcode, 'change_filament_gcode', layer, extra).trimEnd();
    if (change) this.buf.line(change);
    if (!/^\s*T\d+\b/m.test(change)) this.buf.line(`T${filament}`);
    this.buf.tool(filament);
    this.filament = filament;
    this.text(this.d.render(pick(c.filament_start_gcode, filament), 'filament_start_gcode', layer, { ...extra, current_extruder: filament }));
    for (const line of filamentSetup(c, this.f, filament)) this.buf.line(line);
  }

  /** Prints one extrusion: travel to its start (seam for loops), then the path. */
  private extrude(e: Extrusion, island: IslandPaths | null, objectId = -1): void {
    let pts = e.points;
    let n = pts.length;
    // An open path that is nearer by its end is walked backwards, not copied reversed.
    let backwards = false;
    if (e.loop) {
      const ctx = this.seamContext;
      ctx.mode = this.c.seam_position as SeamMode;
      ctx.x = this.x;
      ctx.y = this.y;
      ctx.previous = this.seams.get(objectId) ?? null;
      ctx.rearY = island ? this.rearOf(island) : this.y;
      ctx.layer = this.layerIndex;
      const start = chooseSeam(pts, ctx);
      pts = this.loopBuffer(n);
      startLoopInto(e.points, start, pts);
      if (e.role === 'outer-wall' || e.role === 'overhang-wall') this.rememberSeam(objectId, pts[0], pts[1]);
      n = trimEndInPlace(pts, n, 0.1 * this.c.nozzle_diameter[0]);
    } else if (isReversible(e.role) && dist2(this.x, this.y, pts[n - 2], pts[n - 1]) < dist2(this.x, this.y, pts[0], pts[1])) {
      backwards = true;
    }
    if (n < 4) return;
    this.travelTo(backwards ? pts[n - 2] : pts[0], backwards ? pts[n - 1] : pts[1], island);
    this.unretract();
    const b = this.buf;
    const bridgeLike = e.role === 'bridge' || e.role === 'overhang-wall';
    if (bridgeLike) b.fan(FanMark.Bridge);
    b.line(this.f.featureComment(e.role));
    b.line(this.f.widthComment(e.width));
    this.setAcceleration(accelerationFor(e.role, this.layerIndex, this.c));
    const feed = speedFor(e.role, e.mm3PerMm, this.layerIndex, this.c, this.filament);
    const ePerMm = (e.mm3PerMm * pick(this.c.filament_flow_ratio, this.filament)) / filamentArea(this.c, this.filament);
    this.extrudeAlong(pts, n, backwards, ePerMm, feed);
    if (bridgeLike) b.fan(FanMark.Normal);
    this.lastPath = pts;
    this.lastLength = n;
    this.lastBackwards = backwards;
  }

  /**
   * The moves along the first `n` numbers of `pts` from its second point on (from its end when
   * `backwards`). A method of its own, optimised after a few thousand points rather than with
   * the whole of `extrude`.
   */
  private extrudeAlong(pts: Float64Array, n: number, backwards: boolean, ePerMm: number, feed: number): void {
    const b = this.buf;
    for (let k = 2; k < n; k += 2) {
      const at = backwards ? n - 2 - k : k;
      const x = pts[at];
      const y = pts[at + 1];
      const len = length2(x - this.x, y - this.y);
      if (len < 1e-6) continue;
      b.move(x, y, this.z, len * ePerMm, feed, MoveKind.Extrude);
      this.x = x;
      this.y = y;
    }
  }

  /** The island's rear edge (its largest y), found once per island rather than once per loop. */
  private rearOf(island: IslandPaths): number {
    if (island !== this.rearIsland) {
      this.rearIsland = island;
      this.rearY = maxY(island.outline.contour);
    }
    return this.rearY;
  }

  /** A loop buffer of at least `length` numbers that is not the last path. */
  private loopBuffer(length: number): Float64Array {
    const k = this.lastPath === this.loopBuffers[0] ? 1 : 0;
    if (this.loopBuffers[k].length < length) this.loopBuffers[k] = new Float64Array(Math.max(length, 2 * this.loopBuffers[k].length));
    return this.loopBuffers[k];
  }

  /** The object's seam on this layer, where the next layer's aligned seam looks for it. */
  private rememberSeam(objectId: number, x: number, y: number): void {
    const seam = this.seams.get(objectId);
    if (seam) {
      seam[0] = x;
      seam[1] = y;
    } else this.seams.set(objectId, [x, y]);
  }

  private travelTo(x: number, y: number, island: IslandPaths | null): void {
    const d = length2(x - this.x, y - this.y);
    if (d < 1e-6) return;
    const c = this.c;
    const minTravel = pick(c.retraction_minimum_travel, this.filament);
    // Whether the travel stays inside its island is asked only of travels long enough to retract:
    // three walks round the island's outline for every short hop of the infill were wasted.
    if (d > minTravel && !(island !== null && c.reduce_infill_retraction && travelStaysInside(this.x, this.y, x, y, island.outline))) {
      this.retract();
      this.lift();
    }
    this.setAcceleration(accelerationFor('travel', this.layerIndex, c));
    this.buf.move(x, y, this.z + this.lifted, 0, travelSpeed(this.layerIndex, c), MoveKind.Travel);
    this.x = x;
    this.y = y;
    this.unlift();
  }

  /** Retract before the nozzle leaves an object, so the next object's travel starts clean. */
  private retractIfLeaving(): void {
    if (this.d.objects.length > 1) this.retract();
  }

  private retract(): void {
    if (this.retracted > 0) return;
    const c = this.c;
    const fil = this.filament;
    const override = pick(c.filament_retraction_length, fil);
    const length = this.heights.value('retraction_length') ?? (override >= 0 ? override : pick(c.retraction_length, fil));
    if (length <= 0) return;
    if (c.use_firmware_retraction) {
      this.buf.line('G10');
      this.retracted = length;
      return;
    }
    const speed = this.heights.value('retraction_speed') ?? pick(c.retraction_speed, fil);
    const wipeDistance = pick(c.wipe, fil) ? pick(c.wipe_distance, fil) : 0;
    if (wipeDistance > 0 && this.lastPath && this.lastLength >= 4)
      this.wipe(this.lastPath, this.lastLength, this.lastBackwards, length, speed, wipeDistance);
    else this.buf.move(this.x, this.y, this.z + this.lifted, -length, speed, MoveKind.Retract);
    this.retracted = length;
  }

  /**
   * Retracts while moving back along the last path (its first `n` numbers, printed `backwards` or
   * not), so the ooze is wiped onto the part.
   */
  private wipe(path: Float64Array, n: number, backwards: boolean, length: number, speed: number, distance: number): void {
    const pts = wipeSteps(path, n, backwards, this.x, this.y, distance);
    // Subtracted step by step as the walk did, so the split of the retraction is the same to the last bit.
    let remaining = distance;
    for (let k = 2; k < pts.length; k += 3) remaining -= pts[k];
    const wiped = distance - remaining;
    if (wiped <= 0) {
      this.buf.move(this.x, this.y, this.z, -length, speed, MoveKind.Retract);
      return;
    }
    this.buf.line(this.f.bambu ? '; WIPE_START' : ';WIPE_START');
    const wipeSpeed = this.c.travel_speed * 0.8;
    for (let k = 0; k < pts.length; k += 3) {
      this.buf.move(pts[k], pts[k + 1], this.z, (-length * pts[k + 2]) / wiped, wipeSpeed, MoveKind.Travel);
      this.x = pts[k];
      this.y = pts[k + 1];
    }
    this.buf.line(this.f.bambu ? '; WIPE_END' : ';WIPE_END');
  }

  private unretract(): void {
    if (this.retracted <= 0) return;
    const c = this.c;
    const fil = this.filament;
    if (c.use_firmware_retraction) this.buf.line('G11');
    else {
      const speed = this.heights.value('retraction_speed') ?? (pick(c.deretraction_speed, fil) || pick(c.retraction_speed, fil));
      this.buf.move(this.x, this.y, this.z, this.retracted + pick(c.retract_restart_extra, fil), speed, MoveKind.Retract);
    }
    this.retracted = 0;
  }

  private lift(): void {
    const c = this.c;
    const fil = this.filament;
    const override = pick(c.filament_z_hop, fil);
    const hop = override >= 0 ? override : pick(c.z_hop, fil);
    if (hop <= 0 || this.lifted > 0) return;
    const above = pick(c.retract_lift_above, fil);
    const below = pick(c.retract_lift_below, fil);
    if (this.z < above || (below > 0 && this.z > below)) return;
    this.buf.move(this.x, this.y, this.z + hop, 0, this.zFeed(), MoveKind.Lift);
    this.lifted = hop;
  }

  private unlift(): void {
    if (this.lifted <= 0) return;
    this.buf.move(this.x, this.y, this.z, 0, this.zFeed(), MoveKind.Lift);
    this.lifted = 0;
  }

  private setAcceleration(a: number): void {
    if (a <= 0 || a === this.accelNow) return;
    this.buf.line(this.f.klipper ? `SET_VELOCITY_LIMIT ACCEL=${Math.round(a)}` : `M204 S${Math.round(a)}`);
    this.accelNow = a;
  }

  private flushLayer(layer: LayerPaths): void {
    const b = this.buf;
    const x = this.layerStart[0];
    const y = this.layerStart[1];
    const z = this.layerStart[2];
    const time = b.idealTimes(x, y, z);
    const cooling = decideCooling(layer.index, time.total, time.extruding, this.c, this.filament);
    if (cooling.slowDownBy > 0) b.slowDownTo(time.extruding + cooling.slowDownBy, pick(this.c.slow_down_min_speed, this.filament), x, y, z);
    this.formatter.write(b, cooling.fan, cooling.bridgeFan);
  }
}

function isReversible(role: ExtrusionRole): boolean {
  return role !== 'outer-wall' && role !== 'inner-wall' && role !== 'overhang-wall' && role !== 'top-surface';
}

function dist2(ax: number, ay: number, bx: number, by: number): number {
  return (ax - bx) ** 2 + (ay - by) ** 2;
}

function maxY(ring: Float64Array): number {
  let m = -Infinity;
  for (let k = 1; k < ring.length; k += 2) if (ring[k] > m) m = ring[k];
  return m;
}

export function filamentArea(c: PrintConfig, filament: number): number {
  const d = pick(c.filament_diameter, filament);
  return Math.PI * (d / 2) ** 2;
}
