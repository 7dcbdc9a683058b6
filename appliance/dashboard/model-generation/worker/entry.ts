/**
 * The generation worker thread: manifold-3d (WASM) is loaded once, when the thread starts; each
 * build message runs one generator and posts its progress, then the stored mesh and its facts
 * (encoding and measuring a large mesh is work too, kept off the dashboard's thread).
 */
import { parentPort } from 'node:worker_threads';
import { manifoldKernel } from '../geometry/manifold.js';
import { encodeMesh, meshFacts } from '../geometry/mesh-store.js';
import { generatorById } from '../generators/catalogue.js';
import type { Generator } from '../generators/generator.js';
import { REMOTE_TEXT_ID, remoteTextGenerator } from '../providers/remote-text.js';
import type { FromWorker, ToWorker } from './protocol.js';

const port = parentPort;
if (!port) throw new Error('model-generation/worker/entry.js runs only as a worker thread');
const kernel = manifoldKernel();

function generatorFor(request: ToWorker): Generator {
  if (request.generator === REMOTE_TEXT_ID) {
    if (!request.provider) throw new Error('no text-to-3D provider is configured');
    return remoteTextGenerator(request.provider);
  }
  const generator = generatorById(request.generator);
  if (!generator) throw new Error(`the generator ${request.generator} is no longer offered`);
  return generator;
}

async function build(request: ToWorker): Promise<void> {
  const post = (message: FromWorker, transfer: ArrayBuffer[] = []) => port?.postMessage(message, transfer);
  try {
    const generator = generatorFor(request);
    const model = await generator.generate(await kernel, request.params, (fraction) => post({ id: request.id, kind: 'progress', fraction }));
    const stored = new Uint8Array(encodeMesh(model.mesh));
    const own = stored.byteOffset === 0 && stored.byteLength === stored.buffer.byteLength ? stored : stored.slice();
    post({ id: request.id, kind: 'done', stored: own, facts: meshFacts(model.mesh), notes: model.notes ?? {} }, [own.buffer as ArrayBuffer]);
  } catch (err) {
    post({ id: request.id, kind: 'failed', message: (err as Error).message ?? String(err) });
  }
}

port.on('message', (request: ToWorker) => void build(request));
