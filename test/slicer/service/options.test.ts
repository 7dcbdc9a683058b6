import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { exposureWarning, loadOptions, tokenFileWarning } from '../../../appliance/slicer/service/options.js';

test('defaults follow the contract and the XDG base directories', () => {
  const o = loadOptions([], { HOME: '/home/pi' });
  assert.equal(o.rest_port, 8765);
  assert.equal(o.rest_bind, '127.0.0.1');
  assert.equal(o.rest_token, '');
  assert.equal(o.config_dir, '/home/pi/.config/printyard-slicer');
  assert.equal(o.jobs_dir, '/home/pi/.cache/printyard-slicer/jobs');
  assert.equal(o.workers, 1);
  assert.equal(o.queue_size, 4);
  assert.equal(o.job_timeout_s, 1800);
  assert.equal(o.engine_threads, null);
  assert.equal(o.max_output_mb, 1024);
  assert.equal(o.min_free_mb, 256);
  assert.equal(o.rest_token_file, '');
  const xdg = loadOptions([], { HOME: '/home/pi', XDG_CONFIG_HOME: '/etc/xdg-conf', XDG_CACHE_HOME: '/var/cache/pi' });
  assert.equal(xdg.config_dir, '/etc/xdg-conf/printyard-slicer');
  assert.equal(xdg.jobs_dir, '/var/cache/pi/printyard-slicer/jobs');
  assert.equal(loadOptions([], { HOME: '/home/pi', XDG_CONFIG_HOME: 'relative' }).config_dir, '/home/pi/.config/printyard-slicer');
});

test('slicer.json in the config dir is read, and the environment and options override it', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'printyard-options-'));
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'slicer.json'), JSON.stringify({ rest_port: 9000, workers: 2, rest_token: 'from-file' }));
    const fromFile = loadOptions(['--config-dir', dir], {});
    assert.equal(fromFile.rest_port, 9000);
    assert.equal(fromFile.workers, 2);
    assert.equal(fromFile.rest_token, 'from-file');
    const env = loadOptions([], { PRINTYARD_SLICER_CONFIG_DIR: dir, PRINTYARD_SLICER_REST_PORT: '9100' });
    assert.equal(env.rest_port, 9100);
    assert.equal(env.workers, 2);
    assert.equal(loadOptions(['--config-dir', dir, '--rest-port', '9200'], { PRINTYARD_SLICER_REST_PORT: '9100' }).rest_port, 9200);

    writeFileSync(path.join(dir, 'slicer.json'), JSON.stringify({ config_dir: '/elsewhere' }));
    assert.throws(() => loadOptions(['--config-dir', dir], {}), /slicer.json: "config_dir" cannot be set in this file/);
    writeFileSync(path.join(dir, 'slicer.json'), '{ not json');
    assert.throws(
      () => loadOptions(['--config-dir', dir], {}),
      (err: Error & { code?: string }) => err.code === 'ERR_INVALID_CONFIG' && err.message.includes('slicer.json'),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('invalid values are refused with the option named', () => {
  assert.throws(() => loadOptions(['--workers', '0'], {}), /--workers: expected an integer from 1 to 64/);
  assert.throws(() => loadOptions(['--max-upload-mb', '0'], {}), /--max-upload-mb: expected a number above 0/);
  assert.throws(() => loadOptions([], { PRINTYARD_SLICER_QUEUE_SIZE: 'many' }), /PRINTYARD_SLICER_QUEUE_SIZE/);
  assert.throws(() => loadOptions(['--log-level', 'chatty'], {}), /--log-level: expected one of error, warn, info, debug/);
  assert.equal(loadOptions(['--engine-threads', 'auto'], {}).engine_threads, null);
  assert.equal(loadOptions(['--engine-threads', '0'], {}).engine_threads, 0);
});

test('a service reachable from the network without a token is warned about', () => {
  assert.equal(exposureWarning({ rest_bind: '127.0.0.1', rest_token: '' }), null);
  assert.equal(exposureWarning({ rest_bind: '::1', rest_token: '' }), null);
  assert.equal(exposureWarning({ rest_bind: '0.0.0.0', rest_token: 't' }), null);
  assert.match(exposureWarning({ rest_bind: '0.0.0.0', rest_token: '' }) ?? '', /listening on 0.0.0.0 without a token/);
});

/** A token file with the given text and mode in a fresh temp dir; returns its path. */
function tokenFile(dir: string, text: string, mode: number): string {
  const file = path.join(dir, 'slicer.token');
  writeFileSync(file, text);
  chmodSync(file, mode);
  return file;
}

test('the token can come from a file: read once, the trailing newline dropped', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'printyard-token-'));
  try {
    const file = tokenFile(dir, 's3cret-token\n', 0o600);
    const fromFlag = loadOptions(['--rest-token-file', file, '--config-dir', dir], {});
    assert.equal(fromFlag.rest_token, 's3cret-token');
    assert.equal(fromFlag.rest_token_file, file);
    assert.equal(loadOptions(['--config-dir', dir], { PRINTYARD_SLICER_REST_TOKEN_FILE: file }).rest_token, 's3cret-token');
    chmodSync(file, 0o400);
    assert.equal(loadOptions(['--rest-token-file', file, '--config-dir', dir], {}).rest_token, 's3cret-token');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a missing, empty, multi-line or world-readable token file, or a token given twice, is refused naming the option', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'printyard-token-'));
  try {
    const load = (args: string[]) => () => loadOptions([...args, '--config-dir', dir], {});
    const missing = path.join(dir, 'absent.token');
    assert.throws(load(['--rest-token-file', missing]), {
      code: 'ERR_INVALID_CONFIG',
      message: `--rest-token-file: cannot read ${missing}: no such file`,
    });
    assert.throws(load(['--rest-token-file', dir]), /--rest-token-file: cannot read .*EISDIR/);
    assert.throws(load(['--rest-token-file', tokenFile(dir, '\n', 0o600)]), /--rest-token-file: .*slicer\.token is empty/);
    assert.throws(load(['--rest-token-file', tokenFile(dir, 'one\ntwo\n', 0o600)]), /--rest-token-file: .* must hold the token on one line/);
    assert.throws(
      load(['--rest-token-file', tokenFile(dir, 'tok\n', 0o644)]),
      /--rest-token-file: .*slicer\.token is open to other users \(mode 0644\); allow its owner only/,
    );
    assert.throws(
      load(['--rest-token-file', tokenFile(dir, 'tok\n', 0o600), '--rest-token', 'other']),
      /--rest-token and --rest-token-file both give a token: use one of them/,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a token file its group may read is warned about, unless systemd handed it over', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'printyard-token-'));
  try {
    const file = tokenFile(dir, 'tok', 0o640);
    assert.equal(loadOptions(['--rest-token-file', file, '--config-dir', dir], {}).rest_token, 'tok');
    assert.match(
      tokenFileWarning({ rest_token_file: file }, {}) ?? '',
      /--rest-token-file: the group of .*slicer\.token may read the token \(mode 0640\)/,
    );
    assert.equal(tokenFileWarning({ rest_token_file: file }, { CREDENTIALS_DIRECTORY: dir }), null);
    assert.equal(tokenFileWarning({ rest_token_file: file }, { CREDENTIALS_DIRECTORY: `${dir}-other` }) === null, false);
    chmodSync(file, 0o600);
    assert.equal(tokenFileWarning({ rest_token_file: file }, {}), null);
    assert.equal(tokenFileWarning({ rest_token_file: '' }, {}), null);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
