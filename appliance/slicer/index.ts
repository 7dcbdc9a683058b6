/**
 * The slicer library's public entry point: what code outside appliance/slicer may use (the
 * dashboard's slicing backends). Everything else in appliance/slicer is internal and may change
 * shape; test/architecture.test.ts keeps other code out of it and keeps this list to what is used.
 */

// Running a slice job: the slice form, the model file, safe names, and tasks in a process of their own.
export { type OutputFormat, outputFileName, outputFormatFor } from './run/file-name.js';
export { sniffModelFile } from './run/model-file.js';
export type { ModelFormat } from './run/model-file.js';
export { parseSliceForm, SLICE_FILE_FIELDS } from './run/slice-form.js';
export type { SliceForm } from './run/slice-form.js';
export { runBounds, runSlice } from './run/task-runner.js';

// Engine facts a caller needs before slicing.
export { DEFAULT_3MF_LIMITS } from './engine/mesh/opc.js';
export type { BBox3 } from './engine/mesh/types.js';
export type { HeightChange } from './engine/gcode/height-changes.js';
export { HEIGHT_CHANGE_SETTINGS, heightChangesProblem, MAX_HEIGHT_CHANGES } from './engine/gcode/height-changes.js';

// Mesh tools (the dashboard's /api/mesh): loading any model file, the edge table, repair, transforms.
export { meshBounds } from './engine/mesh/bounds.js';
export { buildEdgeTable } from './engine/mesh/edges.js';
export { badModel } from './engine/mesh/errors.js';
export { loadModel } from './engine/mesh/load.js';
export { repairMesh } from './engine/mesh/repair.js';
export { type Affine, compose, concatMeshes, identity, linearAffine, rotationAffine, transformMesh } from './engine/mesh/transform.js';
export type { IndexedMesh, RepairReport } from './engine/mesh/types.js';
// Estimating uploaded G-code (the dashboard's G-code tools).
export { estimateGcodeFile, parseSettingLines } from './engine/estimate/index.js';
export type { EstimateResult } from './engine/estimate/index.js';

// Profiles: the catalogue, the settings schema, importers of other slicers' profiles.
export { loadBundledProfiles } from './profiles/bundled.js';
export { ProfileCatalogue } from './profiles/catalogue.js';
export { slugify } from './profiles/ids.js';
export { importOrcaSlicerFolder } from './profiles/import/orcaslicer-json.js';
export { importPrusaSlicerBundle } from './profiles/import/prusaslicer-ini.js';
export { profileLabelProblem } from './profiles/labels.js';
export type { ProfileFileEntry } from './profiles/profile-file.js';
export { inheritanceChain, resolveSettings } from './profiles/resolve.js';
export { isSettingKey, parseSetting, SETTINGS } from './profiles/schema.js';
export type { ConfigPatch, PrintConfig } from './profiles/schema.js';
export { sliceMetadata } from './profiles/slice-metadata.js';
export { PROFILE_KINDS } from './profiles/types.js';
export type { Profile, ProfileKind } from './profiles/types.js';

// Other slicers (PrusaSlicer, CuraEngine): our settings and G-code for them, their reports read back.
export { configFacts, first } from './peers/config-facts.js';
export { curaCommandArgs, curaSettings } from './peers/curaengine.js';
export { curaReport, readGcodeFile } from './peers/output-report.js';
export type { PeerReport } from './peers/output-report.js';
export { peerGcode, peerJob } from './peers/peer-gcode.js';
export { formatPrusaIni, prusaSettings } from './peers/prusaslicer.js';
