/** The path of src/batch/kernels.wat. */
export declare const WAT_PATH: string;
/** The path of src/batch/kernels-wasm.ts. */
export declare const GENERATED_PATH: string;
/** The module's bytes for WebAssembly text `wat` (SIMD and multiple results on, no names section). */
export declare function assembleKernels(wat: string): Promise<Uint8Array>;
/** The text of kernels-wasm.ts for the module's bytes. */
export declare function generatedSource(bytes: Uint8Array): string;
