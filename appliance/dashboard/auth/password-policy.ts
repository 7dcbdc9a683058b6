/**
 * What a new password must be, wherever one is set (first-run setup, a new user, a changed
 * password): the length rules of password.ts, and none of the passwords a guesser tries first —
 * one character repeated (eight spaces included), the user's own name, or one of the most common
 * passwords. Names and the list are compared without regard to case. Each refusal is a 400
 * ERR_VALIDATION naming the rule it broke.
 */
import { AppError, ErrorCode } from '../../common/errors.js';
import { COMMON_PASSWORDS } from './common-passwords.js';
import { checkPasswordRules } from './password.js';

function refuse(rule: string): never {
  throw new AppError(ErrorCode.validation, 400, `the password ${rule}`);
}

export function checkNewPassword(password: string, username: string): void {
  checkPasswordRules(password);
  const folded = password.normalize('NFC').toLowerCase();
  if (/^(.)\1*$/su.test(folded)) refuse('must not be one character repeated');
  if (folded === username.normalize('NFC').toLowerCase()) refuse('must not be the user name');
  if (COMMON_PASSWORDS.has(folded)) refuse('is one of the most common passwords, which are tried first: choose another');
}
