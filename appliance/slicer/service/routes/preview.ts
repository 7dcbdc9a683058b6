/**
 * POST /api/preview: a shaded picture of an unsliced model (PNG). Loading and rendering run in a
 * process of their own like a slice, so a large model does not stall the other requests; at most
 * `workers` renders run at once, further ones get 429.
 */
import type { Request } from 'hyper-express';
import { AppError, ErrorCode } from '../../../common/errors.js';
import { discardUploads, readMultipart, UNLIMITED_BODY, type MultipartForm, type UploadedFile } from '../../../common/multipart.js';
import type { MeshView } from '../../engine/preview/mesh-render.js';
import { sniffModelFile } from '../../run/model-file.js';
import { runPreview } from '../../run/task-runner.js';
import type { RouteInstaller } from '../context.js';

const DEFAULT_SIZE = 512;
const VIEWS: readonly MeshView[] = ['iso', 'top'];
const TEXT_FIELDS = ['width', 'height', 'view'];

function bad(message: string): AppError {
  return new AppError(ErrorCode.badRequest, 400, message);
}

function size(form: MultipartForm, field: string, max: number): number {
  const text = form.fields.get(field)?.trim();
  if (text === undefined || text === '') return Math.min(DEFAULT_SIZE, max);
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < 1 || value > max) throw bad(`field "${field}" must be an integer from 1 to ${max}, got "${text}"`);
  return value;
}

export interface PreviewRequest {
  model: UploadedFile;
  width: number;
  height: number;
  view: MeshView;
}

export function parsePreviewForm(form: MultipartForm, maxPx: number): PreviewRequest {
  for (const name of form.fields.keys()) {
    if (!TEXT_FIELDS.includes(name)) throw bad(`unknown field "${name}"`);
  }
  const model = form.files.get('model');
  if (model === undefined) throw bad('field "model" is required (an STL or 3MF file)');
  const view = (form.fields.get('view')?.trim() || 'iso') as MeshView;
  if (!VIEWS.includes(view)) throw bad(`field "view" must be one of ${VIEWS.join(', ')}`);
  return { model, width: size(form, 'width', maxPx), height: size(form, 'height', maxPx), view };
}

export const installPreviewRoutes: RouteInstaller = (app, ctx) => {
  let rendering = 0;

  /** Reads the upload and renders it; the slot and the upload are released before the reply goes out. */
  const render = async (req: Request): Promise<Uint8Array> => {
    if (rendering >= ctx.options.workers) throw new AppError(ErrorCode.tooManyJobs, 429, 'too many previews are being rendered');
    rendering++;
    let form: MultipartForm | null = null;
    try {
      await ctx.store.requireRoom(Number(req.headers['content-length']) || 0);
      form = await readMultipart(req, ctx.store.uploadsDir, ctx.uploadLimits, ['model']);
      const { model, width, height, view } = parsePreviewForm(form, ctx.options.preview_max_px);
      await sniffModelFile(model.path, model.size, model.fileName);
      return await runPreview({
        kind: 'preview',
        modelPath: model.path,
        fileName: model.fileName,
        inflateLimits: ctx.inflateLimits,
        width,
        height,
        view,
      }).result;
    } finally {
      rendering--;
      if (form) await discardUploads(form);
    }
  };

  app.post('/api/preview', UNLIMITED_BODY, async (req, res) => {
    const png = await render(req);
    res.header('content-type', 'image/png').send(Buffer.from(png.buffer, png.byteOffset, png.byteLength));
  });
};
