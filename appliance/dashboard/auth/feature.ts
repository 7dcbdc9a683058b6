/**
 * The auth feature: session, user and API key routes over the AuthService that app.ts made the
 * dashboard's authenticator (features.ts wires `openAuthenticator` as the factory). When a test
 * composes the dashboard with another authenticator, there are no users or keys here to manage,
 * so the feature has no routes.
 */
import type { DashboardContext, DashboardFeature } from '../feature.js';
import { apiKeyRoutes } from './routes/api-keys.js';
import { sessionRoutes } from './routes/session.js';
import { userRoutes } from './routes/users.js';
import { AuthService, type AuthDeps, type AuthOptions } from './service.js';

/** The authenticator factory of features.ts; tests pass options (a clock, a faster throttle). */
export function openAuthenticator(ctx: AuthDeps, options: AuthOptions = {}): Promise<AuthService> {
  return AuthService.open(ctx, options);
}

export function createAuthFeature(ctx: DashboardContext): DashboardFeature {
  const auth = ctx.auth;
  if (!(auth instanceof AuthService)) {
    ctx.log.info('the authenticator is not the AuthService: the user and API key routes are left out');
    return { name: 'auth', routes: [] };
  }
  return {
    name: 'auth',
    routes: [...sessionRoutes(auth), ...userRoutes(auth), ...apiKeyRoutes(auth)],
    info: () => ({
      setup_needed: auth.setup.needed,
      setup_code_required: auth.setup.codeRequired,
      users: auth.users.count(),
      api_keys: auth.apiKeys.list().length,
    }),
    stop: () => auth.apiKeys.saveUsage(),
  };
}
