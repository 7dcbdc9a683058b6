/**
 * A scene sliced and started on a dashboard printer, through the same printer side as
 * `POST /api/slicer/remote/slice-and-send` (slicing/send-to-printer.ts): the printer is checked
 * before anything is sliced (unknown 404, cannot take files 422, offline, busy or in error 409) and
 * again before the upload; the result is stored first, so a printer that refuses it after the slice
 * leaves it downloadable (`details.result`).
 */
import type { Principal } from '../../http/route.js';
import { validationError } from '../../http/validate.js';
import { readyPrinter, type SentResult, sendStoredResult } from '../../slicing/send-to-printer.js';
import { ownerOf } from '../../slicing/ownership.js';
import type { SceneSliceOptions, SceneSlicing, SlicingPath } from './scene-slicing.js';
import type { SceneStore } from './scene-store.js';

export interface SceneSendOptions extends Omit<SceneSliceOptions, 'printer_id'> {
  /** The dashboard printer to print on (GET /api/printers). */
  printer_id: string;
  /** The printer profile to slice with; default the printer's own `printer_profile`, then the scene's. */
  printer_profile_id?: string;
}

export class SceneSending {
  constructor(
    private readonly scenes: SceneStore,
    private readonly slicing: SceneSlicing,
    private readonly path: SlicingPath,
  ) {}

  async send(sceneId: string, options: SceneSendOptions, principal: Principal | null, signal: AbortSignal): Promise<SentResult> {
    const scene = this.scenes.get(sceneId);
    const { printer_id: printerId, printer_profile_id: profileId, ...slice } = options;
    const { printer } = readyPrinter(this.path.printers, printerId);
    // The printer's own profile describes the machine that prints; the scene's was chosen for its layout.
    const profile = profileId ?? printer.printer_profile ?? scene.printer_id;
    if (!profile) {
      throw validationError([
        { path: 'body/printer_profile_id', message: `is required: printer "${printer.name}" has no printer_profile and the scene none` },
      ]);
    }
    const prepared = await this.slicing.prepare(sceneId, { ...slice, printer_id: profile });
    const result = await this.slicing.run(prepared, ownerOf(principal), signal);
    return sendStoredResult(this.path.printers, printerId, result, this.path.results.filePath(result), { principal, spools: this.path.spools });
  }
}
