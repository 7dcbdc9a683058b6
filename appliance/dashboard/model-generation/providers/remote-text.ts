/**
 * The `remote-text` generator: a prompt sent to the admin's text-to-3D provider, its model file
 * downloaded and made a printable solid (printable-mesh.ts). It runs in the generation worker like
 * every other generator, so reading and repairing a large file never holds the dashboard.
 */
import type { JsonSchema } from '../../../common/json-schema.js';
import type { Generator } from '../generators/generator.js';
import { numberParam } from '../generators/generator.js';
import { MeshyClient, type PreviewRequest } from './meshy.js';
import { printableMesh } from './printable-mesh.js';
import { PROVIDER_TITLES, type ProviderConfig } from './provider.js';

export const REMOTE_TEXT_ID = 'remote-text';

/** Formats the box reads, in the order it takes them when the provider offers several. */
const READABLE_FORMATS = ['stl', '3mf', 'obj'] as const;

interface RemoteTextParams extends PreviewRequest {
  size_mm: number;
}

const SCHEMA: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    prompt: {
      type: 'string',
      description: 'What the model is, in words (the provider takes at most 600 characters).',
      minLength: 1,
      maxLength: 600,
      pattern: '\\S',
      default: 'a small owl figurine sitting on a branch',
    },
    model_type: {
      type: 'string',
      enum: ['standard', 'lowpoly'],
      description: 'standard: a detailed mesh; lowpoly: fewer, cleaner faces.',
      default: 'standard',
    },
    size_mm: numberParam("The model's largest side once scaled for printing (mm).", 5, 300, 60),
  },
};

async function generateRemotely(provider: ProviderConfig, raw: Record<string, unknown>, progress: (fraction: number) => void) {
  const p = raw as unknown as RemoteTextParams;
  const signal = AbortSignal.timeout(provider.timeoutMs);
  const client = new MeshyClient(provider, signal);
  const taskId = await client.createPreview({ prompt: p.prompt, model_type: p.model_type });
  progress(0.1);
  const task = await client.finished(taskId, (fraction) => progress(0.1 + 0.7 * fraction));
  if (task.status === 'FAILED') {
    const said = task.task_error?.message?.trim();
    throw new Error(`the text-to-3D provider could not make the model${said ? `: ${said.slice(0, 200)}` : ''}`);
  }
  if (task.status === 'CANCELED') throw new Error('the task was cancelled at the text-to-3D provider');
  const format = READABLE_FORMATS.find((f) => typeof task.model_urls?.[f] === 'string');
  if (!format) {
    const offered = Object.keys(task.model_urls ?? {}).join(', ') || 'none';
    throw new Error(`the text-to-3D provider offered no model file the box reads (STL, 3MF or OBJ; offered: ${offered})`);
  }
  const bytes = await client.download(task.model_urls?.[format] as string);
  progress(0.85);
  // Meshy's models are Y-up (the glTF convention its exports follow).
  const printable = printableMesh(bytes, `${taskId}.${format}`, p.size_mm, 'y');
  return {
    mesh: printable.mesh,
    notes: { provider: provider.kind, provider_task: taskId, source_format: printable.sourceFormat, repair: printable.repair },
  };
}

/** The generator for a configured provider (its title names the provider). */
export function remoteTextGenerator(provider: ProviderConfig): Generator {
  return {
    id: REMOTE_TEXT_ID,
    title: `Text to 3D (${PROVIDER_TITLES[provider.kind]})`,
    description:
      "A model from a description in words, made by the admin's text-to-3D provider (an online service): the untextured mesh, " +
      'repaired into a closed solid and scaled to the size asked for.',
    schema: SCHEMA,
    generate: (_kernel, params, progress) => generateRemotely(provider, params, progress),
  };
}

/** The schema without a provider, for the route's validation (the route exists whether or not one is configured). */
export const REMOTE_TEXT_SCHEMA = SCHEMA;
