import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { BambuTestClient } from '../../../fixtures/bambu-mqtt-client.js';
import type { VirtualBambu } from '../../../fixtures/virtual-bambu.js';

const MAIN = fileURLToPath(new URL('../../../../scripts/simulators/bambu/main.js', import.meta.url));

interface Started {
  child: ChildProcess;
  lines: AsyncIterableIterator<string>;
  exited: Promise<number | null>;
}

function run(args: string[]): Started {
  const child = spawn(process.execPath, [MAIN, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const lines = readline.createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  return { child, lines, exited };
}

async function nextLine(lines: AsyncIterableIterator<string>): Promise<string> {
  const { value, done } = await lines.next();
  if (done) throw new Error('the simulator ended its output');
  return value;
}

test('the CLI starts printers on free ports, reports them as JSON, takes console commands and stops on SIGTERM', async () => {
  const sim = run([
    '--count',
    '2',
    '--serial',
    '01P00A000000100',
    '--mqtt-port',
    '0',
    '--ftps-port',
    '0',
    '--json',
    '--time-scale',
    '30',
    '--push-interval-ms',
    '100',
    '--log-level',
    'error',
  ]);
  try {
    const info = JSON.parse(await nextLine(sim.lines)) as { host: string; caPath: string; printers: Array<Record<string, any>> };
    assert.equal(info.host, '127.0.0.1');
    assert.deepEqual(
      info.printers.map((p) => [p.serial, p.model, p.accessCode]),
      [
        ['01P00A000000100', 'P1S', '12345678'],
        ['01P00A000000101', 'P1S', '12345678'],
      ],
    );
    const p = info.printers[1];
    const view = {
      host: info.host,
      mqttPort: p.mqttPort,
      ftpsPort: p.ftpsPort,
      serial: p.serial,
      accessCode: p.accessCode,
      caPem: readFileSync(info.caPath, 'utf8'),
    } as VirtualBambu;
    const client = await BambuTestClient.connect(view);
    const from = client.mark();
    sim.child.stdin!.write(`fault busy on ${p.serial}\n`);
    client.request('pushing', 'pushall');
    await client.state((s) => s.gcode_state === 'RUNNING', 'the busy fault from the console', from);
    sim.child.stdin!.write('status\n');
    const status = [await nextLine(sim.lines), await nextLine(sim.lines)];
    assert.match(status[0], /^01P00A000000100 IDLE 0% layer 0\/0 .* faults \[\]$/);
    assert.match(status[1], /^01P00A000000101 RUNNING 0% .* faults \[busy\]$/);
    sim.child.stdin!.write('launch rockets\n');
    assert.equal(await nextLine(sim.lines), 'unknown command: launch rockets');
    await client.end();
    sim.child.kill('SIGTERM');
    assert.equal(await sim.exited, 0);
    assert.equal(existsSync(path.dirname(path.dirname(info.caPath))), false, 'the temp folder is gone');
  } finally {
    sim.child.kill('SIGKILL');
  }
});

test('the CLI prints where to connect for hand use', async () => {
  const sim = run([
    '--mqtt-port',
    '0',
    '--ftps-port',
    '0',
    '--model',
    'X1C',
    '--serial',
    '00M09A000000200',
    '--access-code',
    'abcd1234',
    '--log-level',
    'error',
  ]);
  try {
    const text: string[] = [];
    for (let i = 0; i < 8; i++) text.push(await nextLine(sim.lines));
    const out = text.join('\n');
    assert.match(out, /host +127\.0\.0\.1/);
    assert.match(out, /CA +\/.*\/certs\/ca\.pem/);
    assert.match(out, /00M09A000000200 \(X1C\)/);
    assert.match(out, /access code +abcd1234/);
    assert.match(out, /mqtt +mqtts:\/\/127\.0\.0\.1:\d+ +user bblp, TLS server name 00M09A000000200/);
    assert.match(out, /ftps +ftps:\/\/127\.0\.0\.1:\d+ +implicit TLS, user bblp/);
    sim.child.kill('SIGINT');
    assert.equal(await sim.exited, 0);
  } finally {
    sim.child.kill('SIGKILL');
  }
});

test('bad options end with status 2 and a message naming the option', async () => {
  const sim = run(['--access-code', 'short', '--mqtt-port', '0', '--ftps-port', '0']);
  let stderr = '';
  sim.child.stderr!.on('data', (d) => (stderr += d));
  assert.equal(await sim.exited, 2);
  assert.match(stderr, /access code of 01P00A123456789: expected 8 letters or digits/);
  const bad = run(['--time-scale', 'fast']);
  let badErr = '';
  bad.child.stderr!.on('data', (d) => (badErr += d));
  assert.equal(await bad.exited, 2);
  assert.match(badErr, /--time-scale: expected a number above 0/);
});
