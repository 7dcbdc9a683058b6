/** The profile ids and names a slice records in its G-code header and Bambu slice_info. */
import type { SliceMetadata } from '../engine/api.js';
import type { ProfileCatalogue } from './catalogue.js';

export interface ProfileSelection {
  printerId: string;
  filamentIds: string[];
  processId: string;
}

export function sliceMetadata(catalogue: ProfileCatalogue, selection: ProfileSelection): SliceMetadata {
  return {
    printerId: selection.printerId,
    filamentIds: selection.filamentIds,
    processId: selection.processId,
    printerName: catalogue.name(selection.printerId),
    filamentNames: selection.filamentIds.map((id) => catalogue.name(id)),
    processName: catalogue.name(selection.processId),
  };
}
