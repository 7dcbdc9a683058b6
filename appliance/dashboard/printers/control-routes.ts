/**
 * The printer control endpoints, thin over PrinterControl (control.ts): the read-only live state,
 * G-code lines, pause/resume/stop, and one route per fleet action (actions.ts). Reading needs the
 * `view` level, driving a printer `print`.
 */
import type { RouteSpec } from '../http/route.js';
import { ACTION_BODY_SCHEMAS, ACTION_SUMMARIES, PRINTER_ACTIONS } from './actions.js';
import { commandBodySchema, commandResultSchema, controlBodySchema, liveStateSchema } from './control-schemas.js';
import type { ControlAction, PrinterControl } from './control.js';
import { printerIdParams } from './schemas.js';

const TAG = 'printers';
const notFound = { description: 'No printer with this id (ERR_NOT_FOUND).' };
const conflict = {
  description:
    'Not now (ERR_CONFLICT): the printer is not connected, or its state forbids it (pause while idle, motion while printing, ' +
    'controls locked because Developer Mode is off on a Bambu printer).',
};
const unsupported = {
  description:
    'Never on this printer (ERR_UNSUPPORTED_ACTION): its driver does not offer this, ' +
    'or the printer lacks the part named (a work light, a chamber heater).',
};
const noAnswer = { description: 'The printer did not confirm in time (ERR_UNAVAILABLE); it may still act on it.' };
const done = { description: 'The printer accepted it; the change shows in the status and on the WebSocket as the printer reports it.' };

export function controlRoutes(control: PrinterControl): RouteSpec[] {
  const actionRoutes: RouteSpec[] = PRINTER_ACTIONS.map((action) => ({
    method: 'post',
    path: `/api/printers/:id/actions/${action}`,
    level: 'print',
    tag: TAG,
    summary: ACTION_SUMMARIES[action],
    description: `Offered when \`capabilities.actions\` of \`GET /api/printers/:id/state\` lists \`${action}\`; otherwise 422.`,
    params: printerIdParams,
    body: { kind: 'json', schema: ACTION_BODY_SCHEMAS[action] },
    responses: { 204: done, 404: notFound, 409: conflict, 422: unsupported, 503: noAnswer },
    handler: async ({ params, body }) => {
      await control.act(params.id, action, body as Record<string, unknown>);
    },
  }));
  return [
    {
      method: 'get',
      path: '/api/printers/:id/state',
      level: 'view',
      tag: TAG,
      summary: 'Live state of a printer, read-only',
      description: 'The status, what the driver can do, the AMS, and protocol details; never a round trip to the printer.',
      params: printerIdParams,
      responses: { 200: { description: 'The live state.', schema: liveStateSchema }, 404: notFound },
      handler: ({ params }) => control.state(params.id),
    },
    {
      method: 'post',
      path: '/api/printers/:id/command',
      level: 'print',
      tag: TAG,
      summary: 'Send G-code',
      description: 'Sends the line(s) of `command` to the printer as G-code, in order.',
      params: printerIdParams,
      body: { kind: 'json', schema: commandBodySchema },
      responses: {
        200: { description: 'Sent; the printer’s answer.', schema: commandResultSchema },
        404: notFound,
        409: conflict,
        422: unsupported,
        503: noAnswer,
      },
      handler: ({ params, body }) => control.command(params.id, (body as { command: string }).command),
    },
    {
      method: 'post',
      path: '/api/printers/:id/control',
      level: 'print',
      tag: TAG,
      summary: 'Pause, resume or stop the print',
      params: printerIdParams,
      body: { kind: 'json', schema: controlBodySchema },
      responses: { 204: done, 404: notFound, 409: conflict, 503: noAnswer },
      handler: async ({ params, body }) => {
        await control.control(params.id, (body as { action: ControlAction }).action);
      },
    },
    ...actionRoutes,
  ];
}
