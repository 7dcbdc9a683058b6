declare module 'clipper2-wasm/dist/es/clipper2z.js' {
  import type { MainModule } from 'clipper2-wasm/dist/clipper2z.js';
  const factory: () => Promise<MainModule>;
  export default factory;
}
