/**
 * The real printyard-slicer against names that hide or fake text: profile files and printers.json
 * in its config dir that hold them are refused with the field and the code point, what it logs
 * from a request (an uploaded model's file name) is escaped, and it keeps answering with every
 * earlier profile and printer binding intact.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { assertCleanLog, FORGING_NAME } from '../../fixtures/bad-names.js';
import { eventually } from '../../fixtures/eventually.js';
import { cubeStl, MARLIN_PLA, sliceForm, startSlicer, USER_FILAMENT, type SlicerProcess } from '../../fixtures/slicer-service.js';

const BINDING = { name: 'MK4 left', printer_profile: 'prusa-mk4-0.4', host_type: 'prusalink', host_url: 'http://mk4' };

let svc: SlicerProcess;
before(async () => {
  svc = await startSlicer(['--reload-interval-s', '0.05'], {
    prepare: (dir) => {
      mkdirSync(path.join(dir, 'profiles'), { recursive: true });
      writeFileSync(
        path.join(dir, 'profiles', 'mine.json'),
        JSON.stringify([
          USER_FILAMENT,
          { id: 'forged', kind: 'filament', name: FORGING_NAME },
          { id: 'spoofed', kind: 'filament', name: 'PLA', vendor: 'Acme\u202eemcA' },
        ]),
      );
      writeFileSync(path.join(dir, 'printers.json'), JSON.stringify({ printers: [BINDING] }));
    },
  });
});
after(() => svc.cleanup());

async function json(urlPath: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${svc.url}${urlPath}`);
  return { status: res.status, body: await res.json() };
}

test('profiles whose name or vendor hides text are skipped, logged escaped; the good one is listed', async () => {
  const filaments = (await json('/api/profiles?kind=filament')).body.profiles.map((p: { id: string }) => p.id) as string[];
  assert.ok(filaments.includes('my-petg'));
  assert.ok(!filaments.includes('forged') && !filaments.includes('spoofed'), filaments.join(', '));
  assert.equal((await json('/api/profiles/forged')).status, 404);
  const log = svc.log();
  assert.match(log, /skipped "forged" in \S+mine\.json: profile "forged": name contains U\+000A \(line feed\)\n/);
  assert.match(log, /skipped "spoofed" in \S+mine\.json: profile "spoofed": vendor contains U\+202E \(right-to-left override\)\n/);
  assertCleanLog(log);
});

test(
  'an uploaded model whose file name hides or fakes text: the job keeps the name without those characters, ' +
    'the log stays clean, the service carries on',
  async () => {
    const boundary = 'names-and-log-boundary';
    const field = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const body = Buffer.concat([
      Buffer.from(
        Object.entries(MARLIN_PLA)
          .map(([k, v]) => field(k, v))
          .join(''),
      ),
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="model"; filename*=UTF-8''evil%E2%80%AEgpj%E2%80%A8%E2%81%A6x%E2%81%A9.stl\r\n\r\n`,
      ),
      Buffer.from(cubeStl()),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const uploads = [
      fetch(`${svc.url}/api/slice`, {
        method: 'POST',
        body,
        headers: { accept: 'application/json', 'content-type': `multipart/form-data; boundary=${boundary}` },
      }),
      fetch(`${svc.url}/api/slice`, {
        method: 'POST',
        body: sliceForm(cubeStl(), 'evil\u202egpj.stl', MARLIN_PLA),
        headers: { accept: 'application/json' },
      }),
    ];
    const names: string[] = [];
    for (const response of await Promise.all(uploads)) {
      const result = (await response.json()) as { ok: boolean; job_id: string };
      assert.equal(response.status, 200, JSON.stringify(result));
      const job = (await json('/api/jobs')).body.finished.find((j: { id: string }) => j.id === result.job_id) as { model_name: string };
      assert.ok(job, `job ${result.job_id} listed`);
      names.push(job.model_name);
      await eventually(`the queued line of job ${result.job_id}`, () => svc.log().includes(`job ${result.job_id} queued model=${job.model_name}\n`));
    }
    assert.deepEqual(names, ['evil_gpj__x_.stl', 'evil_gpj.stl'], 'the job keeps the name without the characters that disguise it');
    assertCleanLog(svc.log());
    assert.equal((await fetch(`${svc.url}/api/health`)).status, 200);
  },
);

test('a printers.json whose name hides text is refused naming the field and code point; the earlier bindings stay', async () => {
  const names = async () => (await json('/api/printers')).body.printers.map((p: { name: string }) => p.name) as string[];
  assert.deepEqual(await names(), ['MK4 left']);
  writeFileSync(path.join(svc.configDir, 'printers.json'), JSON.stringify({ printers: [BINDING, { ...BINDING, name: 'MK4\u202etfel' }] }));
  await eventually('the refusal in the log', () =>
    /printer bindings not reloaded: \S+printers\.json: printers\[1\]\.name contains U\+202E \(right-to-left override\)\n/.test(svc.log()),
  );
  assert.deepEqual(await names(), ['MK4 left']);
  assert.equal((await fetch(`${svc.url}/api/health`)).status, 200);
  assertCleanLog(svc.log());
});
