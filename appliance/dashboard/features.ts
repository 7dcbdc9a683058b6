/**
 * What the dashboard is made of: the authenticator and the features, in start order (they stop
 * in reverse). app.ts composes this list; adding a feature is one import and one line here.
 * The server's own parts (system info, the OpenAPI description and docs) are not listed: they
 * describe the others and are added by app.ts around them.
 */
import type { DashboardContext, DashboardFeature } from './feature.js';
import type { Authenticator } from './http/route.js';
import { createAuthFeature, openAuthenticator } from './auth/feature.js';
import { createLiveFeature } from './live/feature.js';
import { createNotificationsFeature } from './notifications/feature.js';
import { createPrintersFeature } from './printers/feature.js';
import { createBridgeFeature } from './slicing/bridge/feature.js';
import { createNativeSlicingFeature } from './slicing/native/feature.js';
import { createSlicerServiceFeature } from './slicing/remote/feature.js';

export type FeatureFactory = (ctx: DashboardContext) => DashboardFeature;

/** The context before the authenticator exists: what the authenticator itself may use. */
export type AuthenticatorContext = Omit<DashboardContext, 'auth'>;
export type AuthenticatorFactory = (ctx: AuthenticatorContext) => Authenticator | Promise<Authenticator>;

export const FEATURES: readonly FeatureFactory[] = [
  createAuthFeature,
  createNotificationsFeature,
  createPrintersFeature,
  createLiveFeature,
  createNativeSlicingFeature,
  createBridgeFeature,
  createSlicerServiceFeature,
];

/** Users, session tokens and API keys (auth/): the AuthService that the auth feature's routes manage. */
export const createAuthenticator: AuthenticatorFactory = (ctx) => openAuthenticator(ctx);
