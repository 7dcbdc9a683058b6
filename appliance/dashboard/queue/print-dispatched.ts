/**
 * What the queue announces on the event bus just before it starts a print on a printer: history
 * ties the next print of that printer to the job (who queued it, the slicer's estimate, the planned
 * filament per slot and the spools, the thumbnail), and takes the used filament off those spools.
 */
import type { FilamentSlot } from '../printers/filament-slot.js';

export interface PlannedFilament {
  /** The slicer's filament number, 1-based, as in the G-code and Bambu's project settings. */
  filament: number;
  slot: FilamentSlot;
  /** The spool in that slot when the print was started, if the inventory knows it. */
  spool_id: number | null;
  material: string;
  color_hex: string | null;
  /** The slicer's estimate for the whole print, or null when the file does not say. */
  grams: number | null;
  length_mm: number | null;
}

export interface PrintDispatched {
  printer_id: string;
  job_id: string;
  /** 1-based: which copy of the job this print is. */
  copy: number;
  /** The file name the printer reports while it prints (PrinterStatus.job.file). */
  file: string;
  /** The user who queued the job, or null for an automation (API key, Node-RED). */
  user: string | null;
  estimate_s: number | null;
  filaments: PlannedFilament[];
  /** A PNG of the plate taken from the file, written by the queue into the data dir, or null. */
  thumbnail_path: string | null;
  at: string;
}
