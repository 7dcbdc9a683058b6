/** Style sheets are bundled by esbuild (build/build-web.ts), imported for their effect only. */
declare module '*.css';
