/**
 * What the dashboard is made of: the authenticator and the features, in start order (they stop
 * in reverse), each given the services it uses (services.ts builds them), so every dependency
 * between features is on one line here. app.ts composes this list; adding a feature is one import
 * and one line. The server's own parts (system info, the OpenAPI description and docs) are not
 * listed: they describe the others and are added by app.ts around them.
 */
import { createAuthFeature, openAuthenticator } from './auth/feature.js';
import type { DashboardContext, DashboardFeature } from './feature.js';
import { createGcodeToolsFeature } from './gcode-tools/feature.js';
import { createGpioFeature } from './gpio/feature.js';
import { createHistoryFeature } from './history/feature.js';
import type { Authenticator } from './http/route.js';
import { createInventoryFeature } from './inventory/feature.js';
import { createInventoryToolsFeature } from './inventory/tools-feature.js';
import { createModelGenerationFeature } from './model-generation/feature.js';
import { createLiveFeature } from './live/feature.js';
import { createMeshToolsFeature } from './mesh-tools/feature.js';
import { createMqttExportFeature } from './mqtt-export/feature.js';
import { createNetworkFeature } from './network/feature.js';
import { createNotificationsFeature } from './notifications/feature.js';
import { createPrinterDiscoveryFeature } from './printers/discovery/feature.js';
import { createPrintersFeature } from './printers/feature.js';
import { createQueueFeature } from './queue/feature.js';
import type { DashboardServices } from './services.js';
import { createSettingsFeature } from './settings/feature.js';
import { createSystemUpdateFeature } from './system-update/feature.js';
import { createBridgeFeature } from './slicing/bridge/feature.js';
import { createNativeSlicingFeature } from './slicing/native/feature.js';
import { createSlicerServiceFeature } from './slicing/remote/feature.js';
import { createWebFeature } from './web/feature.js';
import { createWebhooksFeature } from './webhooks/feature.js';

export type FeatureFactory = (ctx: DashboardContext, services: DashboardServices) => DashboardFeature;

/** The context before the authenticator exists: what the authenticator itself may use. */
export type AuthenticatorContext = Omit<DashboardContext, 'auth'>;
export type AuthenticatorFactory = (ctx: AuthenticatorContext) => Authenticator | Promise<Authenticator>;

export const authFeature: FeatureFactory = (ctx) => createAuthFeature(ctx);
export const notificationsFeature: FeatureFactory = (_ctx, { notifications }) => createNotificationsFeature(notifications);
export const printersFeature: FeatureFactory = (_ctx, { printers }) => createPrintersFeature(printers);
export const printerDiscoveryFeature: FeatureFactory = (_ctx, { discovery }) => createPrinterDiscoveryFeature(discovery);
export const historyFeature: FeatureFactory = (_ctx, { history }) => createHistoryFeature(history);
export const liveFeature: FeatureFactory = (ctx, { queue }) => createLiveFeature(ctx, {}, { plateCleared: (id, by) => queue.plateCleared(id, by) });
export const settingsFeature: FeatureFactory = (ctx) => createSettingsFeature(ctx);
export const nativeSlicingFeature: FeatureFactory = (_ctx, { native }) => createNativeSlicingFeature(native);
export const bridgeFeature: FeatureFactory = (_ctx, { bridge, printers, spoolDirectory }) => createBridgeFeature(bridge, printers, spoolDirectory);
export const slicerServiceFeature: FeatureFactory = (ctx, { remote, bridge, native, printers, spoolDirectory }) =>
  createSlicerServiceFeature(ctx, {
    remote,
    fallback: [remote.backend, bridge.backend, native.backend],
    userProfiles: () => native.userProfiles(),
    printers,
    spools: spoolDirectory,
  });
export const queueFeature: FeatureFactory = (ctx, { queue }) => createQueueFeature(ctx, queue);
/** The box's pins (gpio/): after the printers and the queue, which its roles act on. */
export const gpioFeature: FeatureFactory = (_ctx, { gpio }) => createGpioFeature(gpio);

/** Incoming webhooks of print monitors (webhooks/): after the printers and history, which their actions reach. */
export const webhooksFeature: FeatureFactory = (_ctx, { webhooks }) => createWebhooksFeature(webhooks);
/** Models made on the box (model-generation/): text signs, boxes, gears, calibration pieces, as jobs. */
export const modelGenerationFeature: FeatureFactory = (ctx) => createModelGenerationFeature(ctx);
/** The printers on an MQTT broker (mqtt-export/): after the printers, whose states and controls it mirrors. */
export const mqttExportFeature: FeatureFactory = (_ctx, { mqtt }) => createMqttExportFeature(mqtt);

export const inventoryFeature: FeatureFactory = (ctx, { inventory, locations }) => createInventoryFeature(ctx, inventory, locations);
export const inventoryToolsFeature: FeatureFactory = (ctx, { spoolDirectory, locations, usage }) =>
  createInventoryToolsFeature(ctx, { spools: spoolDirectory, storage: locations, usage });

/** Mesh analysis, repair, conversion, transforms and splitting (mesh-tools/): stateless. */
export const meshToolsFeature: FeatureFactory = () => createMeshToolsFeature();
/** G-code estimate and reference (gcode-tools/): no state, no services. */
export const gcodeToolsFeature: FeatureFactory = () => createGcodeToolsFeature();

/** OS updates through RAUC (system-update/): the slots, a bundle uploaded and installed, the reboot into it. */
export const systemUpdateFeature: FeatureFactory = (_ctx, { updates }) => createSystemUpdateFeature(updates);

/** The browser app at `/` (web/): its files and the fallback to index.html for the app's own paths. */
export const webFeature: FeatureFactory = (ctx) => createWebFeature({ log: ctx.log.child('web') });

/** The mDNS announcement and the other boxes' slicers; last, so its goodbye goes out first on stop. */
export const networkFeature: FeatureFactory = (_ctx, { presence }) => createNetworkFeature(presence);

export const FEATURES: readonly FeatureFactory[] = [
  authFeature,
  settingsFeature,
  notificationsFeature,
  printersFeature,
  printerDiscoveryFeature,
  inventoryFeature,
  inventoryToolsFeature,
  historyFeature,
  liveFeature,
  nativeSlicingFeature,
  bridgeFeature,
  slicerServiceFeature,
  queueFeature,
  gpioFeature,
  webhooksFeature,
  modelGenerationFeature,
  mqttExportFeature,
  meshToolsFeature,
  gcodeToolsFeature,
  systemUpdateFeature,
  webFeature,
  networkFeature,
];

/** Users, session tokens and API keys (auth/): the AuthService that the auth feature's routes manage. */
export const createAuthenticator: AuthenticatorFactory = (ctx) => openAuthenticator(ctx);
