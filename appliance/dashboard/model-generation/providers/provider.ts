/**
 * A remote text-to-3D provider as the jobs see it: the admin's settings (`model_provider`), taken
 * only when the provider is enabled and has an API key. With none, nothing is listed and nothing
 * is contacted: the box never depends on a provider.
 */
import type { DashboardSettings } from '../../settings/settings.js';

export type ProviderKind = DashboardSettings['model_provider']['kind'];

/** What a build needs to speak to the provider (sent to the generation worker with each job). */
export interface ProviderConfig {
  kind: ProviderKind;
  /** Base URL of the API, without a trailing slash. */
  url: string;
  apiKey: string;
  timeoutMs: number;
  pollIntervalMs: number;
}

export const PROVIDER_TITLES: Readonly<Record<ProviderKind, string>> = { meshy: 'Meshy' };

export function configuredProvider(settings: DashboardSettings['model_provider']): ProviderConfig | null {
  if (!settings.enabled || settings.api_key === '') return null;
  return {
    kind: settings.kind,
    url: settings.url.replace(/\/+$/, ''),
    apiKey: settings.api_key,
    timeoutMs: settings.timeout_s * 1000,
    pollIntervalMs: Math.round(settings.poll_interval_s * 1000),
  };
}
