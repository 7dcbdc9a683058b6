/**
 * The built-in engine's parts for one dashboard: its user profiles (opened on first use), its slice
 * slots and its backend. services.ts makes one and hands it to the native routes, the bridge and
 * the remote routes' fallback chain, so they share one queue and one profile table.
 */
import path from 'node:path';
import type { DashboardContext } from '../../feature.js';
import { NativeBackend, outputLimits } from './backend.js';
import { UserProfiles } from './user-profiles.js';
import { SliceSlots, type SlotLimits } from './slice-slots.js';

/** One slice at a time (the engine uses every core), three more may wait. */
export const NATIVE_SLOTS: SlotLimits = { running: 1, waiting: 3 };

export class NativeSlicing {
  readonly slots: SliceSlots;
  readonly backend: NativeBackend;
  /** Where native/slice keeps an upload and its result until the reply is sent. */
  readonly workDir: string;
  private opened: Promise<UserProfiles> | null = null;

  constructor(
    private readonly ctx: Pick<DashboardContext, 'stores' | 'dataDir' | 'settings'>,
    limits: SlotLimits = NATIVE_SLOTS,
  ) {
    this.slots = new SliceSlots(limits, 'the built-in engine');
    this.backend = new NativeBackend(
      () => this.userProfiles(),
      this.slots,
      () => outputLimits(ctx.settings.current.slicing),
    );
    this.workDir = path.join(ctx.dataDir, 'slicing-work', 'native');
  }

  userProfiles(): Promise<UserProfiles> {
    this.opened ??= UserProfiles.open(this.ctx.stores).catch((err: unknown) => {
      this.opened = null;
      throw err;
    });
    return this.opened;
  }
}
