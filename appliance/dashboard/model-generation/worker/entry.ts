/**
 * The generation worker thread: manifold-3d (WASM) is loaded once, when the thread starts; each
 * build message runs one generator and posts its progress, then the stored mesh and its facts
 * (encoding and measuring a large mesh is work too, kept off the dashboard's thread); a convert
 * message writes a stored mesh as the STL or 3MF of a download.
 */
import { parentPort } from 'node:worker_threads';
import { manifoldKernel } from '../geometry/manifold.js';
import { meshFile } from '../geometry/mesh-files.js';
import { decodeMesh, encodeMesh, meshFacts } from '../geometry/mesh-store.js';
import { generatorById } from '../generators/catalogue.js';
import type { Generator } from '../generators/generator.js';
import { REMOTE_TEXT_ID, remoteTextGenerator } from '../providers/remote-text.js';
import type { BuildRequest, ConvertRequest, FromWorker, ToWorker } from './protocol.js';

const port = parentPort;
if (!port) throw new Error('model-generation/worker/entry.js runs only as a worker thread');
const kernel = manifoldKernel();

type Message<R> = { id: number } & R;

/** A typed array that owns its whole buffer, so the buffer can be transferred. */
function owning(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
}

function post(message: FromWorker, transfer: ArrayBuffer[] = []): void {
  port?.postMessage(message, transfer);
}

function generatorFor(request: BuildRequest): Generator {
  if (request.generator === REMOTE_TEXT_ID) {
    if (!request.provider) throw new Error('no text-to-3D provider is configured');
    return remoteTextGenerator(request.provider);
  }
  const generator = generatorById(request.generator);
  if (!generator) throw new Error(`the generator ${request.generator} is no longer offered`);
  return generator;
}

async function build(request: Message<BuildRequest>): Promise<void> {
  const generator = generatorFor(request);
  const model = await generator.generate(
    await kernel,
    request.params,
    (fraction) => post({ id: request.id, kind: 'progress', fraction }),
    // A Buffer arrives as a plain Uint8Array; the picture decoders want a Buffer.
    request.file && Buffer.from(request.file.buffer, request.file.byteOffset, request.file.byteLength),
  );
  const stored = owning(new Uint8Array(encodeMesh(model.mesh)));
  post({ id: request.id, kind: 'done', stored, facts: meshFacts(model.mesh), notes: model.notes ?? {} }, [stored.buffer as ArrayBuffer]);
}

function convert(request: Message<ConvertRequest>): void {
  const stored = request.stored;
  const file = owning(meshFile(decodeMesh(Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength)), request.name, request.format));
  post({ id: request.id, kind: 'converted', file }, [file.buffer as ArrayBuffer]);
}

port.on('message', async (request: ToWorker) => {
  try {
    if (request.kind === 'build') await build(request);
    else convert(request);
  } catch (err) {
    post({ id: request.id, kind: 'failed', message: (err as Error).message ?? String(err) });
  }
});
