/**
 * GET /api/openapi.json (the description of every registered route, built on first use once all
 * routes are in) and the interactive docs at GET /api/docs: Swagger UI from the swagger-ui-dist
 * package, served from this machine because the appliance may have no internet access.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { sendFile } from '../../common/download.js';
import { PAGE_CSP } from '../../common/security-headers.js';
import type { DashboardFeature } from '../feature.js';
import { Reply, type RouteSpec } from '../http/route.js';
import { buildOpenApi } from './document.js';

const TAG = 'docs';
export const DOCS_PATH = '/api/docs';
export const OPENAPI_PATH = '/api/openapi.json';

/** The page's own script: the page's CSP allows no inline script. */
const START_SCRIPT = 'start-docs.js';

/** The files the page uses (its start script and swagger-ui-dist's), with their types. */
export const DOCS_ASSETS: Readonly<Record<string, string>> = {
  [START_SCRIPT]: 'text/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

function swaggerUiDir(): string {
  return path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
}

function docsPage(): string {
  const asset = (file: string) => `${DOCS_PATH}/${file}`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Printyard dashboard API</title>
  <link rel="stylesheet" href="${asset('swagger-ui.css')}">
  <link rel="icon" type="image/png" href="${asset('favicon-32x32.png')}" sizes="32x32">
  <link rel="icon" type="image/png" href="${asset('favicon-16x16.png')}" sizes="16x16">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="${asset('swagger-ui-bundle.js')}"></script>
  <script src="${asset('swagger-ui-standalone-preset.js')}"></script>
  <script src="${asset(START_SCRIPT)}"></script>
</body>
</html>
`;
}

const startScript = `window.ui = SwaggerUIBundle({
  url: '${OPENAPI_PATH}',
  dom_id: '#swagger-ui',
  deepLinking: true,
  persistAuthorization: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'StandaloneLayout'
});
`;

/** `routes` is read on the first request, when every feature has registered its routes. */
export function createOpenApiFeature(routes: () => readonly RouteSpec[]): DashboardFeature {
  let document: string | null = null;
  const page = docsPage();
  const assetsDir = swaggerUiDir();
  return {
    name: 'openapi',
    routes: [
      {
        method: 'get',
        path: OPENAPI_PATH,
        level: 'public',
        tag: TAG,
        summary: 'This OpenAPI 3.1 description',
        responses: { 200: { description: 'The description', schema: { type: 'object' } } },
        handler: () => {
          document ??= JSON.stringify(buildOpenApi(routes()));
          return new Reply(200, document, { 'content-type': 'application/json' });
        },
      },
      {
        method: 'get',
        path: DOCS_PATH,
        level: 'public',
        tag: TAG,
        summary: 'Interactive API documentation (Swagger UI)',
        responses: { 200: { description: 'The documentation page', contentType: 'text/html' } },
        handler: () => new Reply(200, page, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': PAGE_CSP }),
      },
      {
        method: 'get',
        path: `${DOCS_PATH}/:file`,
        level: 'public',
        tag: TAG,
        summary: 'A file of the documentation page (script, style sheet, icon)',
        params: { file: { type: 'string', enum: Object.keys(DOCS_ASSETS) } },
        responses: { 200: { description: 'The file', contentType: 'application/octet-stream' } },
        handler: async ({ params, res }) => {
          res.header('cache-control', 'public, max-age=86400');
          if (params.file === START_SCRIPT) return new Reply(200, startScript, { 'content-type': DOCS_ASSETS[START_SCRIPT] });
          await sendFile(res, path.join(assetsDir, params.file), { contentType: DOCS_ASSETS[params.file] });
        },
      },
    ],
  };
}
