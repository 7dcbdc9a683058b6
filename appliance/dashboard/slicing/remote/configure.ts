/**
 * The rules of `POST /api/slicer/remote/configure` that keep the token where it was given. A
 * token is given for an origin (scheme, host and port): `***`, or no token at all, keeps the
 * stored one only while the URL stays on that origin; a URL on another origin needs the token
 * again (or `''` for none), else 400. A URL with a user name or password is refused: the token
 * goes in `token`, and a URL is shown to view users.
 *
 * The environment: SLICER_URL and SLICER_TOKEN win over config.json. The file's URL and token
 * are checked against each other as above, whatever the environment holds, so the pair the file
 * keeps is safe once the environment is gone. While SLICER_TOKEN holds the token and SLICER_URL
 * does not hold the URL, a URL on another origin would take the environment's token there, and
 * the API cannot replace that token: such a change is 409 (set SLICER_URL too, or unset
 * SLICER_TOKEN).
 */
import { AppError, ErrorCode } from '../../../common/errors.js';
import { validationError } from '../../http/validate.js';
import type { Settings } from '../../settings/settings.js';
import { displayUrl, hasCredentials, originOf, sameOrigin } from './address.js';

/** The token value that means "keep the stored one". */
export const KEEP_TOKEN = '***';

export interface ConfigureBody {
  url?: string;
  token?: string;
  enabled?: boolean;
}

/** The settings patch a configure request stands for; throws when it would move a kept token. */
export function configurePatch(settings: Settings, input: ConfigureBody): ConfigureBody {
  const patch: ConfigureBody = {};
  if (input.enabled !== undefined) patch.enabled = input.enabled;
  if (input.token !== undefined && input.token !== KEEP_TOKEN) patch.token = input.token;
  if (input.url === undefined) return patch;

  if (hasCredentials(input.url)) {
    throw validationError([{ path: 'body/url', message: 'must not contain a user name or password; give the token in "token"' }]);
  }
  const saved = settings.saved.slicer_service;
  if (saved.token !== '' && patch.token === undefined && !sameOrigin(input.url, saved.url)) {
    throw validationError([
      {
        path: 'body/token',
        message:
          `must be given again for a new address: the stored token was given for ${originOf(saved.url) ?? displayUrl(saved.url)}, ` +
          `not ${originOf(input.url) ?? displayUrl(input.url)} (send the token, or '' for none)`,
      },
    ]);
  }
  const environment = settings.overrides.slicer_service ?? {};
  const current = settings.current.slicer_service;
  if (environment.token !== undefined && environment.url === undefined && !sameOrigin(input.url, current.url)) {
    throw new AppError(
      ErrorCode.conflict,
      409,
      'the token comes from SLICER_TOKEN, which the API cannot change, and would go to the new address: ' +
        'set SLICER_URL along with it, or remove SLICER_TOKEN and give the token here',
    );
  }
  patch.url = input.url;
  return patch;
}

/** The keys of the patch that the environment still holds. */
export function overriddenKeys(settings: Settings, patch: ConfigureBody): ('url' | 'token')[] {
  const environment = settings.overrides.slicer_service ?? {};
  return (['url', 'token'] as const).filter((key) => patch[key] !== undefined && environment[key] !== undefined);
}
