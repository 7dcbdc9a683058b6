/** JSON schema of the mesh report (analysis.ts builds it). */
import type { JsonSchema } from '../http/route.js';

const count = (description: string): JsonSchema => ({ type: 'integer', minimum: 0, description });
const xyz: JsonSchema = { type: 'array', items: { type: 'number' }, minItems: 3, maxItems: 3 };

const factProperties: Record<string, JsonSchema> = {
  triangles: count('Triangles as uploaded.'),
  vertices: count('Distinct points as uploaded.'),
  volume: { type: 'number', description: 'mm³ of the repaired mesh, cavities subtracted.' },
  area: { type: 'number', description: 'mm² of the repaired surface.' },
  bbox: {
    type: 'object',
    properties: { min: xyz, max: xyz, size: xyz },
    required: ['min', 'max', 'size'],
    description: 'Bounding box in mm, as uploaded.',
  },
  shells: count('Edge-connected pieces of the repaired surface (a hollow part has two).'),
  openEdges: count('Edges used by one triangle only (after welding).'),
  holes: count('Closed loops of open edges.'),
  nonManifoldEdges: count('Edges shared by more than two triangles.'),
  flippedNormals: count('Triangles wound against their neighbours or facing inward.'),
  invertedShells: count('Shells that were inside out.'),
  degenerateFaces: count('Triangles with no area.'),
  duplicateFaces: count('Triangles repeating another one.'),
  needsRepair: { type: 'boolean', description: 'True when any of the counts above is a defect, or points needed welding.' },
};
const factNames = Object.keys(factProperties);

const repairChanges: JsonSchema = {
  type: 'object',
  description: 'What repair changes (for /api/mesh/repair: changed).',
  properties: {
    weldedVertices: count('Points merged into a neighbour closer than 0.1 µm.'),
    degenerateRemoved: count('Triangles without area removed.'),
    duplicatesRemoved: count('Repeated triangles removed.'),
    trianglesFlipped: count('Triangles reversed.'),
    holesFilled: count('Holes closed.'),
    trianglesAdded: count('Triangles added to close them.'),
    openEdgesLeft: count('Open edges left (holes where two meet at a point).'),
    nonManifoldEdgesLeft: count('Edges still shared by more than two triangles.'),
  },
};

export const modelReportSchema: JsonSchema = {
  type: 'object',
  properties: {
    format: { type: 'string', enum: ['stl-binary', 'stl-ascii', '3mf', 'obj'] },
    ...factProperties,
    objects: {
      type: 'array',
      items: { type: 'object', properties: { name: { type: 'string' }, ...factProperties }, required: ['name', ...factNames] },
    },
    repair: repairChanges,
    warnings: { type: 'array', items: { type: 'string' }, description: 'What the loader skipped or fixed while reading.' },
  },
  required: ['format', ...factNames, 'objects', 'repair', 'warnings'],
};
