/**
 * Free text that comes from the slicer service (error messages, its version and upstream labels,
 * error codes, job records) is the service's to write and the dashboard's to show: before anyone
 * sees it, the dashboard's own token and anything that looks like a credential are replaced by
 * `***`, control and bidirectional-override characters become spaces, and the length is capped.
 * Server paths inside text are hidden from those who may not see server paths (ownership.ts).
 */

export const MASK = '***';
/** Longer upstream strings are cut: a message is for reading, not for carrying data. */
export const MAX_TEXT = 500;

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is what this pattern is for.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069]+/g;
/** `scheme://user:password@` in a URL. */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]+@/gi;
/** `Authorization`-style values: `Bearer <token>`, `Basic <base64>`. */
const AUTH_SCHEME = /\b([Bb]earer|Basic)(\s+)[A-Za-z0-9][A-Za-z0-9._~+/-]*=*/g;
/** Setting names whose values are secrets, as alternatives of a regular expression. */
const SECRET_KEYS = [
  'access[_-]?code',
  'api[_-]?key',
  '(?:access[_-]?|auth[_-]?|bearer[_-]?|refresh[_-]?)?token',
  'secret',
  'password',
  'passwd',
  'pwd',
  'credentials?',
];
/** `token=…`, `"password": "…"`, `api_key: …` and the like. */
const KEY_VALUE = new RegExp(String.raw`(?<![A-Za-z0-9])(${SECRET_KEYS.join('|')})("?\s*[:=]\s*"?)[^\s"',;&}]+`, 'gi');
/** A JSON Web Token. */
const JWT = /\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g;
/** An absolute filesystem path of two segments or more (not the API's own `/api/…` paths). */
const ABSOLUTE_PATH = /(?<![\w.:/~-])\/(?!api\/)[\w.@+~-]+(?:\/[\w.@+~-]*)+/g;
const CODE = /^[A-Z][A-Z0-9_]{0,63}$/;

function replaceAll(text: string, secret: string): string {
  return secret === '' ? text : text.split(secret).join(MASK);
}

/** The text with `secrets` (the token) and credential-like parts masked, one line, capped. */
export function cleanText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    out = replaceAll(out, secret);
    out = replaceAll(out, encodeURIComponent(secret));
  }
  out = out
    .replace(CONTROL, ' ')
    .replace(URL_USERINFO, `$1${MASK}@`)
    .replace(AUTH_SCHEME, `$1$2${MASK}`)
    .replace(KEY_VALUE, `$1$2${MASK}`)
    .replace(JWT, MASK);
  return out.length > MAX_TEXT ? `${out.slice(0, MAX_TEXT)}…` : out;
}

/** An upstream error code as the dashboard passes it on: the contract's `ERR_…` shape, else `fallback`. */
export function cleanCode(code: string, fallback: string): string {
  return CODE.test(code) ? code : fallback;
}

/** True for a string that is an absolute filesystem path (POSIX or Windows), or a file URL. */
export function isServerPath(text: string): boolean {
  return /^(\/(?!api\/)[^\s]*|[A-Za-z]:[\\/][^\s]*|file:\/\/\S*)$/.test(text) && !/^\/$/.test(text);
}

/** Server paths inside a text replaced by `…`. */
export function hidePaths(text: string): string {
  return text.replace(ABSOLUTE_PATH, '…');
}
