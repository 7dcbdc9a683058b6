/**
 * What the virtual printer does with a message on `device/<serial>/request`. Messages are
 * `{ "<class>": { "sequence_id": "…", "command": "…", …params } }`; replies go to the report topic
 * and echo the request's fields with `result` ("success" or "fail") and `reason`.
 *
 * Supported: `pushing.pushall` / `pushing.start` (full report), `info.get_version`, `print.pause`
 * / `resume` / `stop`, `print.print_speed` (param "1"–"4"), `print.gcode_line`,
 * `print.project_file`, `print.gcode_file`, `print.clean_print_error`, `print.ams_change_filament`
 * (load `target` tray, or unload with 255; filament-change.ts), `system.ledctrl`.
 * Like the firmware, the simulator ignores what it does not understand (other commands, JSON that
 * does not parse) without a reply; it logs them.
 */
import type { Logger } from '../../../appliance/common/logger.js';
import { parseAmsMapping } from './ams.js';
import { startFilamentChange } from './filament-change.js';
import { HMS_COMMAND_VERIFICATION, type FaultName } from './faults.js';
import { applyGcodeLines } from './gcode-commands.js';
import { AMS_MODULE, type ModelProfile } from './models.js';
import { loadPrintFile, PrintFileError } from './print-file.js';
import { PrintError, SPEED_PERCENT, type JobIds, type PrinterState } from './printer-state.js';
import type { SdCard } from './sd-card.js';

export type Message = Record<string, unknown>;
export type RequestOutcome = 'handled' | 'dropped' | 'ignored';

export interface HandledRequest {
  /** The request as parsed, or its text when it is not JSON. */
  message: unknown;
  outcome: RequestOutcome;
}

export interface RequestContext {
  serial: string;
  model: ModelProfile;
  state: PrinterState;
  sd: SdCard;
  faults: ReadonlySet<FaultName>;
  /** Printer seconds spent in PREPARE before a print runs. */
  prepareSeconds: number;
  log: Logger;
  now(): number;
  /** Publishes a message on the report topic. */
  publish(message: Message): void;
  /** Publishes the full state (and, for a P1S, makes it the base of later deltas). */
  pushFull(): void;
  /** Ends a silent stream. */
  resumeStream(): void;
  /** The state changed: report soon rather than at the next period. */
  changed(): void;
  /** A start's file is being read: a second start meanwhile is refused as busy. */
  starting: boolean;
}

const LED_MODES = new Set(['on', 'off', 'flashing']);
const DEFAULT_PLATE = 'Metadata/plate_1.gcode';

function asString(value: unknown): string {
  if (typeof value === 'string') return value;
  return typeof value === 'number' ? String(value) : '';
}

function reply(ctx: RequestContext, kind: string, request: Message, ok: boolean, reason = ''): void {
  ctx.publish({ [kind]: { ...request, result: ok ? 'success' : 'fail', reason } });
}

export async function handleRequest(ctx: RequestContext, payload: Buffer): Promise<HandledRequest> {
  const text = payload.toString('utf8');
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return { message: text, outcome: ignored(ctx, 'not JSON') };
  }
  return { message, outcome: await dispatch(ctx, message) };
}

async function dispatch(ctx: RequestContext, message: unknown): Promise<RequestOutcome> {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return ignored(ctx, 'not an object');
  const [kind, body] = Object.entries(message)[0] ?? [];
  if (kind === undefined || typeof body !== 'object' || body === null || Array.isArray(body)) return ignored(ctx, 'no command class');
  const request = body as Message;
  const command = asString(request.command);
  if (ctx.faults.has('developerModeOff') && (kind === 'print' || kind === 'system')) {
    ctx.state.raiseHms(HMS_COMMAND_VERIFICATION.attr, HMS_COMMAND_VERIFICATION.code);
    ctx.changed();
    return 'dropped';
  }
  const key = `${kind}.${command}`;
  switch (key) {
    case 'pushing.pushall':
    case 'pushing.start':
      ctx.resumeStream();
      ctx.pushFull();
      return 'handled';
    case 'info.get_version':
      ctx.publish({
        info: { command: 'get_version', sequence_id: asString(request.sequence_id), module: versionModules(ctx), result: 'success', reason: '' },
      });
      return 'handled';
    case 'print.pause':
      return control(ctx, request, ctx.state.pause(), 'not printing');
    case 'print.resume':
      return control(ctx, request, ctx.state.resume(), 'not paused');
    case 'print.stop':
      return control(ctx, request, ctx.state.stop(), 'nothing to stop');
    case 'print.clean_print_error':
      ctx.state.printError = PrintError.none;
      return control(ctx, request, true, '');
    case 'print.print_speed':
      return printSpeed(ctx, request);
    case 'print.gcode_line':
      return gcodeLine(ctx, request);
    case 'print.project_file':
      return projectFile(ctx, request);
    case 'print.gcode_file':
      return gcodeFile(ctx, request);
    case 'print.ams_change_filament': {
      const refusal = startFilamentChange(ctx.state, request.target, request.tar_temp);
      return control(ctx, request, refusal === null, refusal ?? '');
    }
    case 'system.ledctrl':
      return ledctrl(ctx, request);
    default:
      return ignored(ctx, `unsupported command ${key}`);
  }
}

function ignored(ctx: RequestContext, why: string): RequestOutcome {
  ctx.log.info('request ignored', { why });
  return 'ignored';
}

function control(ctx: RequestContext, request: Message, ok: boolean, reason: string): RequestOutcome {
  reply(ctx, 'print', request, ok, ok ? '' : reason);
  if (ok) ctx.changed();
  return 'handled';
}

function versionModules(ctx: RequestContext): Message[] {
  const modules: Message[] = ctx.model.modules.map((m) => ({
    name: m.name,
    ...(m.product_name ? { product_name: m.product_name } : {}),
    sw_ver: m.sw_ver,
    hw_ver: m.hw_ver,
    sn: m.ownSerial ? ctx.serial : '',
    flag: 0,
  }));
  for (const unit of ctx.state.ams) {
    modules.push({
      name: `ams/${unit.id}`,
      sw_ver: AMS_MODULE.sw_ver,
      hw_ver: AMS_MODULE.hw_ver,
      sn: `AMS${ctx.serial.slice(-11)}${unit.id}`,
      flag: 0,
    });
  }
  return modules;
}

function printSpeed(ctx: RequestContext, request: Message): RequestOutcome {
  const level = Number(asString(request.param));
  if (SPEED_PERCENT[level] === undefined) return control(ctx, request, false, 'param must be a speed level from 1 to 4');
  ctx.state.speedLevel = level;
  return control(ctx, request, true, '');
}

function gcodeLine(ctx: RequestContext, request: Message): RequestOutcome {
  const text = asString(request.param);
  try {
    applyGcodeLines(ctx.state, text);
  } catch (err) {
    return control(ctx, request, false, (err as Error).message);
  }
  return control(ctx, request, true, '');
}

function ledctrl(ctx: RequestContext, request: Message): RequestOutcome {
  const node = asString(request.led_node);
  const mode = asString(request.led_mode);
  const ok = ctx.state.lights.has(node) && LED_MODES.has(mode);
  if (ok) ctx.state.lights.set(node, mode);
  reply(ctx, 'system', request, ok, ok ? '' : `unknown light ${JSON.stringify(node)} or mode ${JSON.stringify(mode)}`);
  if (ok) ctx.changed();
  return 'handled';
}

interface StartSpec {
  virtualPath: string | null;
  plate: string;
  name: string;
  mapping: unknown;
  useAms: boolean;
}

async function projectFile(ctx: RequestContext, request: Message): Promise<RequestOutcome> {
  const url = asString(request.url);
  const file = asString(request.file);
  const virtualPath = ctx.sd.locate(url || file, file);
  const name =
    asString(request.subtask_name) ||
    (virtualPath ?? '')
      .split('/')
      .pop()
      ?.replace(/(\.gcode)?\.3mf$/i, '') ||
    '';
  return start(ctx, request, {
    virtualPath,
    plate: asString(request.param) || DEFAULT_PLATE,
    name,
    mapping: request.ams_mapping,
    useAms: request.use_ams === true,
  });
}

async function gcodeFile(ctx: RequestContext, request: Message): Promise<RequestOutcome> {
  const virtualPath = ctx.sd.locate(asString(request.param));
  const name =
    (virtualPath ?? '')
      .split('/')
      .pop()
      ?.replace(/\.gcode$/i, '') ?? '';
  return start(ctx, request, { virtualPath, plate: '', name, mapping: undefined, useAms: false });
}

/**
 * The start of a print: refused while the printer is busy (0500-4004 on a real printer), or for a
 * mapping it cannot honour (0700-8012); otherwise accepted, then FAILED if the file turns out
 * unreadable (0500-4003), else PREPARE → RUNNING.
 */
async function start(ctx: RequestContext, request: Message, spec: StartSpec): Promise<RequestOutcome> {
  const { state } = ctx;
  if (state.active || ctx.starting || state.filamentChange) {
    state.printError = PrintError.busy;
    ctx.changed();
    return control(ctx, request, false, 'device is busy');
  }
  if (spec.virtualPath === null)
    return control(ctx, request, false, 'url must name a file on the SD card (ftp:///name.3mf or file:///sdcard/name.3mf)');
  let mapping: number[];
  try {
    mapping = spec.useAms ? parseAmsMapping(spec.mapping, state.ams) : [];
  } catch (err) {
    state.printError = PrintError.amsMapping;
    ctx.changed();
    return control(ctx, request, false, (err as Error).message);
  }
  reply(ctx, 'print', request, true);
  const ids: JobIds = {
    subtaskId: asString(request.subtask_id) || '0',
    taskId: asString(request.task_id) || '0',
    projectId: asString(request.project_id) || '0',
    profileId: asString(request.profile_id) || '0',
  };
  const job = { name: spec.name, file: spec.virtualPath.slice(1), ids, mapping, useAms: spec.useAms, now: ctx.now() };
  ctx.starting = true;
  try {
    const plan = await loadPrintFile(ctx.sd, spec.virtualPath, spec.plate);
    state.begin({ ...job, plan, prepareSeconds: ctx.prepareSeconds });
  } catch (err) {
    if (!(err instanceof PrintFileError)) throw err;
    ctx.log.warn('print failed to start', { reason: err.message });
    state.begin({ ...job, plan: null, prepareSeconds: 0 });
    state.fail(PrintError.unreadableFile);
  } finally {
    ctx.starting = false;
  }
  ctx.changed();
  return 'handled';
}
