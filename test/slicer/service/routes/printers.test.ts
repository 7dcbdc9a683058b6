import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { startSlicer, type SlicerProcess } from '../../../fixtures/slicer-service.js';

let svc: SlicerProcess;
before(async () => {
  svc = await startSlicer([], {
    prepare: (dir) => {
      mkdirSync(dir, { recursive: true });
      writeFileSync(
        path.join(dir, 'printers.json'),
        JSON.stringify({
          printers: [
            {
              name: 'X1C left',
              printer_profile: 'bambu-lab-x1-carbon-0.4',
              host_type: 'bambu',
              host_url: '192.168.1.20',
              serial: '01S00A000000000',
              access_code: 'SECRET-ACCESS',
            },
            {
              id: 'old-ender',
              name: 'Old Ender',
              printer_profile: 'gone-profile',
              host_type: 'octoprint',
              host_url: 'http://octopi.local',
              api_key: 'SECRET-KEY',
            },
          ],
        }),
      );
    },
  });
});
after(() => svc.cleanup());

test('GET /api/printers lists the bindings of the config dir without their secrets', async () => {
  const res = await fetch(`${svc.url}/api/printers`);
  assert.equal(res.status, 200);
  const text = await res.text();
  assert.doesNotMatch(text, /SECRET/);
  const body = JSON.parse(text) as { printers: Array<Record<string, unknown>> };
  assert.deepEqual(body.printers, [
    {
      id: 'x1c-left',
      name: 'X1C left',
      printer_profile: 'bambu-lab-x1-carbon-0.4',
      printer_profile_known: true,
      host_type: 'bambu',
      host_url: '192.168.1.20',
      user: null,
      serial: '01S00A000000000',
      secrets: ['access_code'],
    },
    {
      id: 'old-ender',
      name: 'Old Ender',
      printer_profile: 'gone-profile',
      printer_profile_known: false,
      host_type: 'octoprint',
      host_url: 'http://octopi.local',
      user: null,
      serial: null,
      secrets: ['api_key'],
    },
  ]);
});
