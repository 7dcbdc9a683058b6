/**
 * Clipper2's WebAssembly module (clipper2-wasm), instantiated here so that the entry points behind
 * its bindings can be called directly. A call through a binding runs embind's JS invoker: the
 * arguments' wire conversions, and for a result returned by value a new handle (an `Object.create`
 * with a property descriptor each, 7 µs) to be deleted again; the bearing's slice made 3,400 such
 * handles and 13,000 method calls. The entry point behind a binding takes the same numbers (object
 * addresses, enum values, doubles) and returns an address. They are recorded as the module
 * registers its bindings (its `_embind_register_*` imports, found by their function names) and
 * checked against the bindings by the modules that use them (geometry/wasm-paths.ts).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import factory from 'clipper2-wasm/dist/es/clipper2z.js';

/** What this module uses of the WebAssembly API (the project's TypeScript libraries do not describe it). */
interface WasmApi {
  instantiate(bytes: Uint8Array, imports: object): Promise<{ instance: WasmInstance; module: unknown }>;
  Memory: abstract new (...args: never[]) => { buffer: ArrayBuffer };
  Table: abstract new (...args: never[]) => { get(index: number): unknown };
}
interface WasmInstance {
  exports: Record<string, unknown>;
}
const Wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

/** A function of the module's table: WASM numbers in, a number (or nothing) out. */
type TableFunction = (...args: number[]) => number;

/** An entry point: its invoker (from the table) and the first argument the invoker takes (the C++ function or method). */
export interface EntryPoint {
  invoke: TableFunction;
  target: number;
}

/** Recorded registrations: invoker and target table indices by `Class.method/argCount` or `function/argCount`; destructors by class. */
const invokers = new Map<string, { invoker: number; target: number }>();
const classNames = new Map<number, string>();
const destructors = new Map<string, number>();
let instance: WasmInstance | null = null;

function exported<T>(kind: abstract new (...args: never[]) => T): T {
  const found = Object.values(instance?.exports ?? {}).find((value) => value instanceof kind);
  if (!found) throw new Error(`clipper2-wasm: the module exports no ${kind.name}`);
  return found as T;
}

/** A C string of the module's memory, up to a `(` (a binding's name may carry its arguments' names, as embind's own lookup drops them). */
function cString(address: number): string {
  const bytes = new Uint8Array(exported(Wasm.Memory).buffer);
  let text = '';
  for (let at = address; bytes[at] !== 0 && bytes[at] !== 40; at++) text += String.fromCharCode(bytes[at]);
  return text;
}

type Import = (...args: number[]) => unknown;

/** Wraps the registration imports to record what they register, then passes each call on unchanged. */
function recordRegistrations(imports: Record<string, Import>): void {
  for (const [key, register] of Object.entries(imports)) {
    if (register.name === '__embind_register_class') {
      imports[key] = (...args) => {
        classNames.set(args[0], cString(args[10]));
        destructors.set(cString(args[10]), args[12]);
        return register(...args);
      };
    } else if (register.name === '__embind_register_class_function') {
      imports[key] = (...args) => {
        invokers.set(`${classNames.get(args[0])}.${cString(args[1])}/${args[2]}`, { invoker: args[5], target: args[6] });
        return register(...args);
      };
    } else if (register.name === '__embind_register_function') {
      imports[key] = (...args) => {
        invokers.set(`${cString(args[0])}/${args[1]}`, { invoker: args[4], target: args[5] });
        return register(...args);
      };
    }
  }
}

/** Found as the package is (`import.meta.resolve` needs Node 20.6). */
const wasmFile = createRequire(import.meta.url).resolve('clipper2-wasm/dist/es/clipper2z.wasm');

export const C = await factory({
  instantiateWasm(info, receive) {
    recordRegistrations(info.a as Record<string, Import>);
    Wasm.instantiate(readFileSync(wasmFile), info).then((result) => {
      instance = result.instance;
      receive(result.instance, result.module);
    });
    return {};
  },
});

if (destructors.size === 0 || invokers.size === 0) {
  throw new Error('clipper2-wasm: its bindings were not seen registering (check the pinned version)');
}

/**
 * The entry point of a binding: `name` is `Class.method` or a function's name, `argCount` embind's
 * count (the result, `this` for a method, then the arguments).
 */
export function entryPoint(name: string, argCount: number): EntryPoint {
  const entry = invokers.get(`${name}/${argCount}`);
  if (!entry) throw new Error(`clipper2-wasm: no binding ${name} with ${argCount} types (check the pinned version)`);
  return { invoke: exported(Wasm.Table).get(entry.invoker) as TableFunction, target: entry.target };
}

/** The function that deletes an object of a bound class, given its address. */
export function destructorOf(className: string): (address: number) => void {
  const index = destructors.get(className);
  if (index === undefined) throw new Error(`clipper2-wasm: no class ${className} (check the pinned version)`);
  return exported(Wasm.Table).get(index) as (address: number) => void;
}
