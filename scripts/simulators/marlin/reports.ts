/**
 * The text of Marlin's reports, character for character: the boot banner, the M115 firmware and
 * capability lines, temperature reports (M105, M155 auto-reports, M109/M190 waiting lines),
 * M114 positions and the M503 settings dump.
 */
import { COMPILED, DISTRIBUTION_DATE, MARLIN_VERSION, type FirmwareSettings } from './firmware-settings.js';
import type { Heater } from './heater.js';
import type { Motion } from './motion.js';

export interface Heaters {
  hotends: Heater[];
  bed: Heater;
}

const celsius = (value: number) => value.toFixed(2);
/** Heater power as Marlin prints it: 0..127 (the soft-PWM duty halved). */
const power = (heater: Heater) => Math.round(heater.power * 127);

/** ` T:21.56 /0.00 B:21.88 /0.00 @:0 B@:0`, with `T0:`/`T1:`… when there are several hotends. */
export function temperatureReport(heaters: Heaters, tool: number): string {
  const hotend = heaters.hotends[tool];
  let line = ` T:${celsius(hotend.reading)} /${celsius(hotend.target)}`;
  line += ` B:${celsius(heaters.bed.reading)} /${celsius(heaters.bed.target)}`;
  if (heaters.hotends.length > 1) {
    heaters.hotends.forEach((h, e) => {
      line += ` T${e}:${celsius(h.reading)} /${celsius(h.target)}`;
    });
  }
  line += ` @:${power(hotend)} B@:${power(heaters.bed)}`;
  if (heaters.hotends.length > 1)
    heaters.hotends.forEach((h, e) => {
      line += ` @${e}:${power(h)}`;
    });
  return line;
}

export function positionReport(motion: Motion): string {
  const p = motion.position;
  const c = motion.counts();
  return `X:${p.X.toFixed(2)} Y:${p.Y.toFixed(2)} Z:${p.Z.toFixed(2)} E:${p.E.toFixed(2)} Count X:${c.X} Y:${c.Y} Z:${c.Z}`;
}

export function bannerLines(resetReason: string): string[] {
  return [
    'start',
    resetReason,
    `Marlin ${MARLIN_VERSION}`,
    `echo: Last Updated: ${DISTRIBUTION_DATE} | Author: (none, default config)`,
    `echo: Compiled: ${COMPILED.date}`,
    'echo: Free Memory: 3187  PlannerBufferBytes: 1216',
    'echo:SD card ok',
  ];
}

export function firmwareLines(settings: FirmwareSettings): string[] {
  const caps: Array<[string, boolean]> = [
    ['SERIAL_XON_XOFF', false],
    ['BINARY_FILE_TRANSFER', false],
    ['EEPROM', true],
    ['VOLUMETRIC', true],
    ['AUTOREPORT_POS', false],
    ['AUTOREPORT_TEMP', settings.autoReport],
    ['PROGRESS', false],
    ['PRINT_JOB', true],
    ['AUTOLEVEL', false],
    ['RUNOUT', false],
    ['Z_PROBE', false],
    ['LEVELING_DATA', false],
    ['BUILD_PERCENT', true],
    ['SOFTWARE_POWER', false],
    ['TOGGLE_LIGHTS', false],
    ['CASE_LIGHT_BRIGHTNESS', false],
    ['EMERGENCY_PARSER', true],
    ['HOST_ACTION_COMMANDS', false],
    ['PROMPT_SUPPORT', false],
    ['SDCARD', true],
    ['REPEAT', false],
    ['SD_WRITE', true],
    ['AUTOREPORT_SD_STATUS', settings.autoReport],
    ['LONG_FILENAME', true],
    ['LFN_WRITE', settings.longFilenameWrite],
    ['CUSTOM_FIRMWARE_UPLOAD', false],
    ['EXTENDED_M20', true],
    ['THERMAL_PROTECTION', true],
    ['MOTION_MODES', false],
    ['ARCS', true],
    ['BABYSTEPPING', false],
    ['CHAMBER_TEMPERATURE', false],
    ['COOLER_TEMPERATURE', false],
    ['MEATPACK', false],
    ['CONFIG_EXPORT', false],
  ];
  return [
    `FIRMWARE_NAME:Marlin ${MARLIN_VERSION} (${COMPILED.date} ${COMPILED.time}) SOURCE_CODE_URL:github.com/MarlinFirmware/Marlin ` +
      `PROTOCOL_VERSION:1.0 MACHINE_TYPE:${settings.machineName} EXTRUDER_COUNT:${settings.extruders} UUID:${settings.uuid}`,
    ...caps.map(([name, on]) => `Cap:${name}:${on ? 1 : 0}`),
  ];
}

/** M503: the settings a host (or a person) checks; values follow the live state. */
export function settingsLines(motion: Motion): string[] {
  const fixed = (v: number) => v.toFixed(2);
  const { stepsPerMm } = motion.geometry;
  const f = motion.maxFeedrate;
  return [
    'echo:; Linear Units:',
    'echo:  G21 ; (mm)',
    'echo:; Temperature Units:',
    'echo:  M149 C ; Units in Celsius',
    'echo:; Steps per unit:',
    `echo:  M92 X${fixed(stepsPerMm.X)} Y${fixed(stepsPerMm.Y)} Z${fixed(stepsPerMm.Z)} E${fixed(stepsPerMm.E)}`,
    'echo:; Max feedrates (units/s):',
    `echo:  M203 X${fixed(f.X)} Y${fixed(f.Y)} Z${fixed(f.Z)} E${fixed(f.E)}`,
    'echo:; Max Acceleration (units/s2):',
    'echo:  M201 X500.00 Y500.00 Z100.00 E5000.00',
    'echo:; Acceleration (units/s2) (P<print-accel> R<retract-accel> T<travel-accel>):',
    'echo:  M204 P500.00 R500.00 T500.00',
    'echo:; Advanced (B<min_segment_time_us> S<min_feedrate> T<min_travel_feedrate> J<junc_dev>):',
    'echo:  M205 B20000.00 S0.00 T0.00 J0.08',
    'echo:; Home offset:',
    'echo:  M206 X0.00 Y0.00 Z0.00',
    'echo:; Hotend PID:',
    'echo:  M301 P22.20 I1.08 D114.00',
    'echo:; Bed PID:',
    'echo:  M304 P10.00 I0.02 D305.40',
  ];
}
