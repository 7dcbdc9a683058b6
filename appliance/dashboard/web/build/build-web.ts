/**
 * `npm run build`'s web step (scripts/setup.mjs runs it after tsc): writes the API types from the
 * dashboard's own OpenAPI description, type-checks the client against them, bundles it with esbuild
 * into content-hashed files, writes index.html naming them, and puts a gzip and a brotli copy beside
 * every text file (the server sends those as they are). Prints the sizes of the first page.
 *
 * Run from dist/: `node dist/appliance/dashboard/web/build/build-web.js`.
 */
import { spawnSync } from 'node:child_process';
import { copyFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { openApiToTypeScript } from './api-types.js';
import { dashboardOpenApi } from './openapi-snapshot.js';

const ROOT = fileURLToPath(new URL('../../../../../', import.meta.url));
const CLIENT = path.join(ROOT, 'appliance', 'dashboard', 'web', 'client');
/** Beside the compiled feature.js, which serves it (feature.ts DEFAULT_WEB_DIR). */
const OUT = path.join(ROOT, 'dist', 'appliance', 'dashboard', 'web', 'public');
const ENTRY = path.join(CLIENT, 'main.tsx');
const GENERATED_TYPES = path.join(CLIENT, 'api', 'openapi.gen.ts');
const COMPRESSIBLE = /\.(html|js|css|svg|json|map)$/;
/** Files copied as they are, at the root: names browsers ask for by convention. */
const STATIC_FILES = ['favicon.svg'];

export interface PageSize {
  file: string;
  raw: number;
  gzip: number;
  brotli: number;
}

async function writeApiTypes(): Promise<void> {
  const doc = await dashboardOpenApi();
  await writeFile(GENERATED_TYPES, openApiToTypeScript(doc));
}

function typeCheck(): void {
  const tsc = path.join(ROOT, 'node_modules', '.bin', 'tsc');
  const r = spawnSync(tsc, ['-p', path.join(CLIENT, 'tsconfig.json')], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('the web app does not type-check (an API change shows here as an error in client/)');
}

/** The files the page loads: index.html names them, and the first page's size counts them. */
interface Bundle {
  scripts: string[];
  styles: string[];
  /** The entry's static imports, loaded with it (pages opened later are chunks of their own). */
  preloads: string[];
}

/** Bundles the client; returns the files the first page loads (URL paths). */
async function bundle(): Promise<Bundle> {
  const result = await build({
    entryPoints: [ENTRY],
    bundle: true,
    splitting: true,
    format: 'esm',
    target: ['chrome100', 'firefox100', 'safari15'],
    minify: true,
    sourcemap: 'linked',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    outdir: path.join(OUT, 'assets'),
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
    assetNames: '[name]-[hash]',
    metafile: true,
    legalComments: 'eof',
    logLevel: 'warning',
  });
  const outputs = result.metafile.outputs;
  const url = (file: string) => `/${path.relative(OUT, path.join(ROOT, file)).split(path.sep).join('/')}`;
  const scripts: string[] = [];
  const styles: string[] = [];
  const preloads = new Set<string>();
  const addStaticImports = (file: string) => {
    for (const imported of outputs[file].imports) {
      if (imported.kind !== 'import-statement' || preloads.has(url(imported.path))) continue;
      preloads.add(url(imported.path));
      addStaticImports(imported.path);
    }
  };
  for (const [file, output] of Object.entries(outputs)) {
    // Dynamically imported pages are entry points to esbuild too; only main.tsx is the page's.
    if (output.entryPoint === undefined || path.resolve(ROOT, output.entryPoint) !== ENTRY) continue;
    scripts.push(url(file));
    if (output.cssBundle) styles.push(url(output.cssBundle));
    addStaticImports(file);
  }
  return { scripts, styles, preloads: [...preloads] };
}

async function writeIndex({ scripts, styles, preloads }: Bundle): Promise<void> {
  const template = await readFile(path.join(CLIENT, 'index.html'), 'utf8');
  const tags = [
    ...styles.map((href) => `<link rel="stylesheet" href="${href}">`),
    ...preloads.map((href) => `<link rel="modulepreload" href="${href}">`),
    ...scripts.map((src) => `<script type="module" src="${src}"></script>`),
  ].join('\n    ');
  if (!template.includes('<!-- assets -->')) throw new Error('client/index.html has no <!-- assets --> marker');
  await writeFile(path.join(OUT, 'index.html'), template.replace('<!-- assets -->', tags));
}

async function compress(files: string[]): Promise<void> {
  for (const file of files.filter((f) => COMPRESSIBLE.test(f))) {
    const body = await readFile(file);
    await writeFile(`${file}.gz`, gzipSync(body, { level: 9 }));
    await writeFile(`${file}.br`, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
  }
}

/** Builds the app into dist/…/web/public; returns the sizes of what the first page loads. */
export async function buildWeb(): Promise<PageSize[]> {
  await writeApiTypes();
  typeCheck();
  await rm(OUT, { recursive: true, force: true });
  await mkdir(OUT, { recursive: true });
  const files = await bundle();
  await writeIndex(files);
  for (const name of STATIC_FILES) await copyFile(path.join(CLIENT, name), path.join(OUT, name));
  const assets = (await readdir(path.join(OUT, 'assets'))).map((f) => path.join(OUT, 'assets', f));
  await compress([path.join(OUT, 'index.html'), ...STATIC_FILES.map((name) => path.join(OUT, name)), ...assets]);
  const firstPage = ['/index.html', ...files.styles, ...files.scripts, ...files.preloads];
  const sizes: PageSize[] = [];
  for (const url of firstPage) {
    const file = path.join(OUT, url);
    sizes.push({
      file: url,
      raw: (await readFile(file)).length,
      gzip: (await readFile(`${file}.gz`)).length,
      brotli: (await readFile(`${file}.br`)).length,
    });
  }
  return sizes;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  buildWeb().then(
    (sizes) => {
      const total = (key: 'raw' | 'gzip' | 'brotli') => sizes.reduce((sum, s) => sum + s[key], 0);
      const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
      process.stderr.write(
        `[web] first page: ${kb(total('raw'))} raw, ${kb(total('gzip'))} gzip, ${kb(total('brotli'))} brotli ` +
          `(${sizes.map((s) => `${s.file} ${kb(s.gzip)}`).join(', ')})\n`,
      );
      // The dashboard started for the description may leave handles (timers of its features) behind.
      process.exit(0);
    },
    (err) => {
      process.stderr.write(`[web] ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
