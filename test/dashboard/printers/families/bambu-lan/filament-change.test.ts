import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startVirtualBambu, type VirtualBambu } from '../../../../fixtures/virtual-bambu.js';
import { driverFor, type DriverRun } from './driver-harness.js';
import { rejection } from '../../../../fixtures/rejection.js';

type Params = Record<string, unknown>;

/** The `ams_change_filament` requests the virtual printer read from now on. */
function recordChanges(vb: VirtualBambu): { sent: Params[]; stop(): void } {
  const sent: Params[] = [];
  const onRequest = (r: { message: unknown }) => {
    const body = (r.message as { print?: Params }).print;
    if (body?.command === 'ams_change_filament') sent.push(body);
  };
  vb.printer.on('request', onRequest);
  return { sent, stop: () => vb.printer.off('request', onRequest) };
}

describe('filament load and unload on a P1S with an AMS', () => {
  let vb: VirtualBambu;
  let run: DriverRun;

  before(async () => {
    vb = await startVirtualBambu({
      model: 'P1S',
      ams: { trays: [{ type: 'PLA', color: 'FFFFFF' }, { type: 'PLA', color: '000000' }, { type: 'PETG', color: 'F72323' }, null] },
    });
    run = driverFor(vb);
    await run.driver.connect();
  });

  after(async () => {
    await run.stop();
    await vb.stop();
  });

  test('offers load and unload', () => {
    assert.ok(run.driver.capabilities.actions?.includes('load_filament'));
    assert.ok(run.driver.capabilities.actions?.includes('unload_filament'));
  });

  test('load tray 2: ams_change_filament with target 2 and the PETG temperature; the AMS update shows tray 2 in use', async () => {
    const changes = recordChanges(vb);
    await run.driver.command({ kind: 'action', action: 'load_filament', params: { tray: 2 } });
    changes.stop();
    assert.equal(changes.sent.length, 1);
    const { sequence_id: _seq, curr_temp, ...rest } = changes.sent[0];
    assert.deepEqual(rest, { command: 'ams_change_filament', target: 2, ams_id: 0, slot_id: 2, tar_temp: 240 });
    assert.equal(typeof curr_temp, 'number', 'nothing loaded: the nozzle temperature now');
    const update = await run.events.until('tray 2 in use', () => run.events.amsUpdates.findLast((a) => a.active_tray === 2), 10_000);
    assert.equal(update.units[0].trays[2].material, 'PETG');
    assert.equal(vb.printer.state.trayNow, 2);
  });

  test("unload: target 255 at the loaded filament's temperature; the AMS update shows none in use", async () => {
    await run.events.until('the change finished', () => run.driver.state().details.stage === 255);
    const changes = recordChanges(vb);
    await run.driver.command({ kind: 'action', action: 'unload_filament', params: {} });
    changes.stop();
    const { sequence_id: _seq, ...rest } = changes.sent[0];
    assert.deepEqual(rest, { command: 'ams_change_filament', target: 255, ams_id: 0, slot_id: 255, curr_temp: 240, tar_temp: 240 });
    await run.events.until('no tray in use', () => run.events.amsUpdates.at(-1)?.active_tray === null, 10_000);
    assert.equal(vb.printer.state.trayNow, 255);
    await run.events.until('the change finished', () => run.driver.state().details.stage === 255);
    const nothing = await rejection(run.driver.command({ kind: 'action', action: 'unload_filament', params: {} }));
    assert.deepEqual([nothing.status, nothing.code], [409, 'ERR_CONFLICT'], 'nothing left to unload');
  });

  test('an empty or unknown tray is 422, no tray 400, another tool 422; nothing is sent', async () => {
    const changes = recordChanges(vb);
    for (const [params, status, code, pattern] of [
      [{ tray: 3 }, 422, 'ERR_UNSUPPORTED_ACTION', /tray 3 is empty/],
      [{ tray: 9 }, 422, 'ERR_UNSUPPORTED_ACTION', /no tray 9 \(its AMS trays are 0–3/],
      [{}, 400, 'ERR_VALIDATION', /tray is required/],
      [{ tray: 1, tool: 1 }, 422, 'ERR_UNSUPPORTED_ACTION', /one nozzle/],
      [{ tray: 16 }, 400, 'ERR_VALIDATION', /tray/],
    ] as const) {
      const refused = await rejection(run.driver.command({ kind: 'action', action: 'load_filament', params }));
      assert.deepEqual([refused.status, refused.code], [status, code], JSON.stringify(params));
      assert.match(refused.message, pattern);
    }
    changes.stop();
    assert.deepEqual(changes.sent, []);
  });

  test('while printing: load and unload are 409, nothing is sent', async () => {
    await vb.setFault('busy', true);
    try {
      await run.events.until('printing', () => run.driver.status().state === 'printing');
      const changes = recordChanges(vb);
      for (const [action, params] of [
        ['load_filament', { tray: 1 }],
        ['unload_filament', {}],
      ] as const) {
        const refused = await rejection(run.driver.command({ kind: 'action', action, params }));
        assert.deepEqual([refused.status, refused.code], [409, 'ERR_CONFLICT'], action);
        assert.match(refused.message, /while the printer is RUNNING/);
      }
      changes.stop();
      assert.deepEqual(changes.sent, []);
    } finally {
      await vb.setFault('busy', false);
    }
  });

  test('the external spool loads as target 254 (ams_id 255, slot 0)', async () => {
    await run.events.until('idle again', () => run.driver.status().state === 'finished');
    const changes = recordChanges(vb);
    await run.driver.command({ kind: 'action', action: 'load_filament', params: { tray: 'external' } });
    changes.stop();
    assert.deepEqual([changes.sent[0].target, changes.sent[0].ams_id, changes.sent[0].slot_id, changes.sent[0].tar_temp], [254, 255, 0, 210]);
    await run.events.until('external in use', () => run.events.amsUpdates.findLast((a) => a.active_tray === 'external'), 10_000);
  });
});
