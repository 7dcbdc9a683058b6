/**
 * The desktop-slicer bridge's parts for one dashboard: the detector, the desktop slicers'
 * profiles, the process runner, the slots and the backend. services.ts makes one and hands it to
 * the bridge routes and to the fallback chain of the remote routes. It slices with the built-in
 * engine's user profiles, so it is made with the dashboard's NativeSlicing.
 */
import path from 'node:path';
import type { DashboardContext } from '../../feature.js';
import type { NativeSlicing } from '../native/native-slicing.js';
import { SliceSlots, type SlotLimits } from '../native/slice-slots.js';
import { BRIDGE_TIMEOUT_MS, BridgeBackend } from './backend.js';
import { SlicerDetector, type DetectOptions } from './detect.js';
import { DesktopProfiles } from './desktop-profiles.js';
import { CliRunner } from './run-cli.js';
import { defaultSearchDirs } from './slicers.js';

export interface BridgeOptions {
  /** Folders searched for the slicers' executables; default PATH and the usual install folders. */
  searchDirs?: readonly string[];
  extraProfileDirs?: DetectOptions['extraProfileDirs'];
  /** A slice's time limit; default the spec's 10 minutes. */
  timeoutMs?: number;
  slots?: SlotLimits;
}

/** One desktop slicer process at a time (each takes every core), two more may wait. */
export const BRIDGE_SLOTS: SlotLimits = { running: 1, waiting: 2 };

export class DesktopBridge {
  readonly detector: SlicerDetector;
  readonly desktopProfiles = new DesktopProfiles();
  readonly runner = new CliRunner();
  readonly slots: SliceSlots;
  readonly backend: BridgeBackend;
  /** Where bridge/slice keeps an upload and its result until the reply is sent. */
  readonly workDir: string;

  constructor(
    ctx: Pick<DashboardContext, 'dataDir'>,
    native: NativeSlicing,
    readonly options: BridgeOptions = {},
  ) {
    this.detector = new SlicerDetector({
      searchDirs: options.searchDirs ?? defaultSearchDirs(),
      ...(options.extraProfileDirs ? { extraProfileDirs: options.extraProfileDirs } : {}),
    });
    this.slots = new SliceSlots(options.slots ?? BRIDGE_SLOTS, 'the desktop-slicer bridge');
    this.backend = new BridgeBackend({
      detector: this.detector,
      desktopProfiles: this.desktopProfiles,
      runner: this.runner,
      slots: this.slots,
      native,
      timeoutMs: options.timeoutMs ?? BRIDGE_TIMEOUT_MS,
    });
    this.workDir = path.join(ctx.dataDir, 'slicing-work', 'bridge');
  }
}
