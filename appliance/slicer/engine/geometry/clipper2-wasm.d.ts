declare module 'clipper2-wasm/dist/es/clipper2z.js' {
  import type { MainModule } from 'clipper2-wasm/dist/clipper2z.js';
  /** The module also exports its WASM memory as bytes (a new view whenever the memory grows). */
  const factory: () => Promise<MainModule & { HEAPU8: Uint8Array }>;
  export default factory;
}
