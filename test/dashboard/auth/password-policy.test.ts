import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AppError } from '../../../appliance/common/errors.js';
import { COMMON_PASSWORDS } from '../../../appliance/dashboard/auth/common-passwords.js';
import { PASSWORD_MIN_LENGTH } from '../../../appliance/dashboard/auth/password.js';
import { checkNewPassword } from '../../../appliance/dashboard/auth/password-policy.js';

const refused = (pattern: RegExp) => (err: AppError) => err.status === 400 && err.code === 'ERR_VALIDATION' && pattern.test(err.message);

test('the passwords of the finding are refused, each naming its rule', () => {
  assert.throws(() => checkNewPassword('password', 'alice'), refused(/most common passwords/));
  assert.throws(() => checkNewPassword('12345678', 'alice'), refused(/most common passwords/));
  assert.throws(() => checkNewPassword('        ', 'alice'), refused(/one character repeated/));
  assert.throws(() => checkNewPassword('alice.smith', 'alice.smith'), refused(/not be the user name/));
});

test('case does not matter for the list, the name or the repetition', () => {
  for (const password of ['PassWord', 'QWERTYUIOP', 'IloveYou', 'Raspberry'])
    assert.throws(() => checkNewPassword(password, 'bob'), refused(/common/), password);
  assert.throws(() => checkNewPassword('Alice.Smith', 'alice.smith'), refused(/user name/));
  assert.throws(() => checkNewPassword('aAaAaAaA', 'bob'), refused(/repeated/));
  assert.throws(() => checkNewPassword('ßßßßßßßß', 'bob'), refused(/repeated/));
});

test('the length rules still come first', () => {
  assert.throws(() => checkNewPassword('abc', 'bob'), refused(/at least 8/));
  assert.throws(() => checkNewPassword('x'.repeat(300), 'bob'), refused(/at most 256/));
});

test('ordinary passwords pass', () => {
  for (const password of ['correct horse battery', 'admin-password', 'user-password', 'Tr0ub4dor&3', 'alice.smith2', '12345679a']) {
    checkNewPassword(password, 'alice.smith');
  }
});

test('the list holds a few hundred lower-case entries the length rule would not refuse anyway', () => {
  assert.ok(COMMON_PASSWORDS.size >= 300, `${COMMON_PASSWORDS.size} entries`);
  for (const entry of COMMON_PASSWORDS) {
    assert.equal(entry, entry.toLowerCase(), entry);
    assert.ok(entry.length >= PASSWORD_MIN_LENGTH, entry);
  }
});
