/**
 * Light and dark: the system's choice (prefers-color-scheme, in the style sheet) unless the person
 * picked one with the toggle, kept in localStorage and set as `data-theme` on <html>.
 */
import { signal } from '@preact/signals';

export type ThemeMode = 'system' | 'light' | 'dark';
const KEY = 'printyard.theme';
const ORDER: readonly ThemeMode[] = ['system', 'light', 'dark'];

function stored(): ThemeMode {
  const value = localStorage.getItem(KEY);
  return ORDER.find((m) => m === value) ?? 'system';
}

export const theme = signal<ThemeMode>(stored());

function apply(mode: ThemeMode): void {
  if (mode === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = mode;
}

apply(theme.value);

export function nextTheme(): void {
  const next = ORDER[(ORDER.indexOf(theme.value) + 1) % ORDER.length];
  theme.value = next;
  if (next === 'system') localStorage.removeItem(KEY);
  else localStorage.setItem(KEY, next);
  apply(next);
}
