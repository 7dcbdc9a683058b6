/**
 * The desktop-slicer bridge's parts for one dashboard: the detector, the desktop slicers'
 * profiles, the process runner, the slots and the backend. `desktopBridgeOf(ctx)` gives every
 * feature the same ones (the bridge routes, and the fallback chain of the remote routes).
 */
import path from 'node:path';
import { AppError, ErrorCode } from '../../../common/errors.js';
import type { DashboardContext } from '../../feature.js';
import { nativeSlicingOf } from '../native/native-slicing.js';
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

  constructor(ctx: DashboardContext, readonly options: BridgeOptions = {}) {
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
      native: nativeSlicingOf(ctx),
      timeoutMs: options.timeoutMs ?? BRIDGE_TIMEOUT_MS,
    });
    this.workDir = path.join(ctx.dataDir, 'slicing-work', 'bridge');
  }
}

const instances = new WeakMap<DashboardContext, DesktopBridge>();

/**
 * The context's bridge, created on first call. Options (tests: the search path, a short time-out)
 * can only be given by the first caller, the bridge feature, which is listed before the features
 * that use the bridge backend.
 */
export function desktopBridgeOf(ctx: DashboardContext, options?: BridgeOptions): DesktopBridge {
  let bridge = instances.get(ctx);
  if (bridge && options !== undefined && bridge.options !== options) {
    throw new AppError(ErrorCode.internal, 500, 'the desktop-slicer bridge was created before its options were given: list the bridge feature first');
  }
  if (!bridge) {
    bridge = new DesktopBridge(ctx, options);
    instances.set(ctx, bridge);
  }
  return bridge;
}
