/** The desktop-slicer bridge's endpoints: probe, the slicers' profiles, slice, slice-and-send. */
import { AppError, ErrorCode } from '../../../common/errors.js';
import type { RouteSpec } from '../../http/route.js';
import { unsupportedAction } from '../../printers/actions.js';
import type { Printers } from '../../printers/feature.js';
import type { SpoolDirectory } from '../../inventory/spool.js';
import { BackendUnavailableError } from '../backend.js';
import { ownerOf } from '../ownership.js';
import {
  disconnectSignal,
  jobRequest,
  readSliceUpload,
  receiveSliceUpload,
  sendSliceResult,
  SLICE_BODY_MAX_BYTES,
  SLICE_RESULT_DESCRIPTION,
  type SliceWorkspace,
} from '../slice-http.js';
import type { BridgeSliceResult } from './backend.js';
import type { DesktopBridge } from './desktop-bridge.js';
import { probeQuery, probeSchema, profilesQuery, profilesSchema, sentSchema, sliceAndSendFormSchema, sliceFormSchema } from './schemas.js';
import { printFormatOf, sendTarget, sendToPrinter, sliceFormFor, starterOf } from '../send-to-printer.js';
import type { ProfileKind } from '../../../slicer/index.js';

const TAG = 'slicing';

const sliceErrors = {
  400: { description: 'A form field or setting is not valid (ERR_VALIDATION).' },
  404: { description: 'A profile id is unknown (ERR_PROFILE_NOT_FOUND).' },
  415: { description: 'The model is neither STL nor 3MF (ERR_UNSUPPORTED_MODEL).' },
  422: { description: 'The model is broken (ERR_BAD_MODEL).' },
  500: { description: 'The desktop slicer failed (ERR_SLICE_FAILED, with the end of its log).' },
  503: { description: 'No installed desktop slicer can take this job, or the bridge is busy (ERR_UNAVAILABLE, with the reason).' },
  504: { description: 'The desktop slicer did not finish within the time-out (10 minutes) and was stopped (ERR_SLICE_FAILED).' },
};

/** A backend that turns out unable to take the job is a 503 here, where there is no next backend. */
async function bridgeSlice(bridge: DesktopBridge, ...args: Parameters<DesktopBridge['backend']['slice']>): Promise<BridgeSliceResult> {
  try {
    return await bridge.backend.slice(...args);
  } catch (err) {
    if (err instanceof BackendUnavailableError) throw new AppError(ErrorCode.unavailable, 503, err.message);
    throw err;
  }
}

export function bridgeRoutes(bridge: DesktopBridge, workspace: SliceWorkspace, printers: Printers, spools: SpoolDirectory | null): RouteSpec[] {
  return [
    {
      method: 'get',
      path: '/api/slicer/bridge/probe',
      level: 'view',
      tag: TAG,
      summary: 'Detect installed desktop slicers',
      description:
        'PrusaSlicer, OrcaSlicer, Bambu Studio and CuraEngine, by executable (PATH and the usual install folders) and version. Cached for a minute.',
      query: probeQuery,
      responses: { 200: { description: 'What was found, and whether the bridge can slice now.', schema: probeSchema } },
      handler: async ({ query }) => {
        const slicers = await bridge.detector.probe(query.force === '1');
        const availability = await bridge.backend.availability();
        return { slicers, ...availability };
      },
    },
    {
      method: 'get',
      path: '/api/slicer/bridge/profiles',
      level: 'view',
      tag: TAG,
      summary: 'Profiles of the installed desktop slicers',
      description:
        "PrusaSlicer vendor bundles and OrcaSlicer / Bambu Studio vendor folders, imported with Printyard's importers: " +
        'their ids can be sliced through the bridge. CuraEngine machine definitions are listed for reference.',
      query: profilesQuery,
      responses: { 200: { description: 'Per slicer, its profiles and what could not be imported.', schema: profilesSchema } },
      handler: async ({ query }) => {
        const slicers = (await bridge.detector.probe()).filter((s) => !query.slicer || s.id === query.slicer);
        const vendor = query.vendor?.toLowerCase();
        const lists = await bridge.desktopProfiles.list(slicers);
        return {
          slicers: lists.map((list) => ({
            ...list,
            profiles: list.profiles.filter(
              (p) => (!query.kind || p.kind === (query.kind as ProfileKind)) && (vendor === undefined || p.vendor.toLowerCase() === vendor),
            ),
          })),
        };
      },
    },
    {
      method: 'post',
      path: '/api/slicer/bridge/slice',
      level: 'print',
      tag: TAG,
      summary: 'Slice with an installed desktop slicer',
      description:
        "The slicer service's form, with Printyard profile ids (bundled, user, or imported from the desktop slicer: " +
        'GET /api/slicer/bridge/profiles). The config is translated for PrusaSlicer (else CuraEngine, STL only), ' +
        'which runs with a 10-minute time-out; it is stopped, with anything it started, on time-out or when the client goes away. ' +
        'One at a time, two waiting. `X-Desktop-Slicer` names the slicer and its version.',
      body: { kind: 'raw', contentType: 'multipart/form-data', maxBytes: SLICE_BODY_MAX_BYTES, schema: sliceFormSchema },
      responses: { 200: { description: SLICE_RESULT_DESCRIPTION, contentType: 'text/x.gcode' }, ...sliceErrors },
      handler: ({ req, res, principal }) =>
        workspace.use(async (dir) => {
          const form = await receiveSliceUpload(req, dir);
          const result = await bridgeSlice(bridge, jobRequest(form, dir, disconnectSignal(req, res), ownerOf(principal)));
          res.header('x-desktop-slicer', `${result.slicer.name} ${result.slicer.version ?? ''}`.trim(), true);
          await sendSliceResult(res, result);
        }),
    },
    {
      method: 'post',
      path: '/api/slicer/bridge/slice-and-send',
      level: 'print',
      tag: TAG,
      summary: 'Slice with a desktop slicer and start the print',
      description:
        "As bridge/slice, for a dashboard printer (`printer_id`), sliced with `printer_profile_id` or else the printer's `printer_profile`; the " +
        'printer is checked before slicing and again before the G-code is uploaded through its driver and started.',
      body: { kind: 'raw', contentType: 'multipart/form-data', maxBytes: SLICE_BODY_MAX_BYTES, schema: sliceAndSendFormSchema },
      responses: {
        200: { description: 'Sliced, uploaded and started.', schema: sentSchema },
        ...sliceErrors,
        404: { description: 'No printer with this id (ERR_NOT_FOUND), or a profile id is unknown (ERR_PROFILE_NOT_FOUND).' },
        409: { description: 'The printer is offline or busy (ERR_CONFLICT).' },
        422: {
          description:
            'The model is broken (ERR_BAD_MODEL); the printer cannot receive files, or cannot print plain G-code (a Bambu Lab printer ' +
            'prints .gcode.3mf projects, which the desktop slicers do not write: use /api/slicer/remote/slice-and-send) (ERR_UNSUPPORTED_ACTION).',
        },
      },
      handler: ({ req, res, principal }) =>
        workspace.use(async (dir) => {
          const multipart = await readSliceUpload(req, dir);
          const { printers: access, printerId, printer } = sendTarget(printers, multipart);
          if (printFormatOf(printer) === 'gcode.3mf') {
            throw unsupportedAction(
              `printer "${printer.name}" (${printer.type}) prints only .gcode.3mf projects, which the desktop slicers' command lines do not write: ` +
                'use POST /api/slicer/remote/slice-and-send (the slicer service or the built-in engine makes them)',
            );
          }
          const form = sliceFormFor(printer, multipart);
          const result = await bridgeSlice(bridge, jobRequest(form, dir, disconnectSignal(req, res), ownerOf(principal)));
          const sliced = { estimate_s: result.estimatedTimeS, grams: result.filamentG, length_mm: result.filamentMm };
          const sent = await sendToPrinter(access, printerId, result.gcodePath, 'gcode', { user: starterOf(principal), sliced, spools });
          return {
            ...sent,
            backend: result.backend,
            slicer: result.slicer,
            layers: result.layers,
            estimated_time_s: result.estimatedTimeS,
            filament_g: result.filamentG,
            duration_ms: result.durationMs,
            warnings: result.warnings,
          };
        }),
    },
  ];
}
