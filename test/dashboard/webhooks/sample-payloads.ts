/**
 * Payloads exactly as the services send them (field names, types and nesting from their sources:
 * Obico's webhook plugin at its older and newer commits, OctoEverywhere's and SimplyPrint's
 * webhook documentation); only the values are made up.
 */

/** Obico before the event became an object: datetimes as strings. */
export const OBICO_OLD_FAILURE = {
  event: 'PrintFailure',
  is_warning: false,
  print_paused: true,
  printer: { id: 7, name: 'Ender 3' },
  print: { id: 311, filename: 'benchy.gcode', started_at: '2026-11-28T17:02:11.412Z', ended_at: '' },
  img_url: 'https://app.obico.io/media/tsd-pics/snapshots/7/latest.jpg',
};

/** Obico now: the event is an object, timestamps are epoch seconds or "". */
export const OBICO_NEW_FAILURE = {
  event: { type: 'PrintFailure', is_warning: false, print_paused: false },
  printer: { id: 7, name: 'Ender 3' },
  print: { id: 311, filename: 'benchy.gcode', started_at: 1_795_885_331, ended_at: '' },
  img_url: 'https://app.obico.io/media/tsd-pics/snapshots/7/latest.jpg',
};

/** Obico's test button, in both versions: a bare string. */
export const OBICO_TEST = { event: 'TestEvent' };

/** OctoEverywhere: Gadget paused the print (EventType 8). */
export const OCTOEVERYWHERE_GADGET = {
  PrinterId: 'oe-printer-1',
  SecretKey: 'set-per-test',
  PrintId: 'print-77',
  EventType: 8,
  PrinterName: 'Ender3',
  SnapshotUrl: 'https://octoeverywhere.com/snapshot/abc.jpg',
  QuickViewUrl: 'https://octoeverywhere.com/quickview/abc',
  FileName: 'MyCoolPrint.gcode',
  DurationSec: 50,
  Progress: 21,
  TimeRemainingSec: 605,
  ZOffsetMM: 3,
  CurrentLayer: 50,
  TotalLayers: 100,
  Error: 'Gadget detected spaghetti',
};

/** SimplyPrint's own JSON format: `{webhook_id, event, timestamp, data}`. */
export const SIMPLYPRINT_DONE = {
  webhook_id: 12,
  event: 'job.done',
  timestamp: 1_795_885_331,
  data: { printer: { id: 4242, name: 'Prusa MK4' }, job: { id: 99, filename: 'bracket.gcode' } },
};
