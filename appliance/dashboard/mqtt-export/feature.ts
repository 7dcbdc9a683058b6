/** The MQTT export as a feature: no routes, its state in /api/system/info under `mqtt`. */
import type { DashboardFeature } from '../feature.js';
import type { MqttExport } from './mqtt-export.js';

export function createMqttExportFeature(exporter: MqttExport): DashboardFeature {
  return {
    name: 'mqtt',
    routes: [],
    start: () => exporter.start(),
    stop: () => exporter.stop(),
    info: () => ({ ...exporter.info() }),
  };
}
