declare module 'clipper2-wasm/dist/es/clipper2z.js' {
  import type { MainModule } from 'clipper2-wasm/dist/clipper2z.js';
  /** Emscripten's hook for instantiating the module yourself: `info` is the import object (its imports under `a`). */
  interface ModuleArg {
    instantiateWasm?: (info: { a: Record<string, unknown> }, receive: (instance: unknown, module: unknown) => void) => object;
  }
  /** The module also exports its WASM memory as bytes (a new view whenever the memory grows). */
  const factory: (moduleArg?: ModuleArg) => Promise<MainModule & { HEAPU8: Uint8Array }>;
  export default factory;
}
