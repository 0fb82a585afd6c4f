/**
 * Reading a Parquet file with parquet-wasm, one row group at a time, each decoded to Arrow record
 * batches. Damage ends in one named line: a file parquet-wasm does not open, a row group it does
 * not decode, or a WebAssembly panic on a data page (caught while the call runs). After a panic
 * the instance is broken: the file's JavaScript wrapper is let go without calling into it, so that
 * no finalizer frees it later (a `memory access out of bounds` trap, uncaught, in the middle of
 * whatever runs next).
 *
 * @module
 */
import { openAsBlob } from 'node:fs';
import { ParlInputError } from '@parl/core';
import { tableFromIPC, type RecordBatch } from 'apache-arrow';
import * as parquet from 'parquet-wasm';

/** Rows per Arrow batch read from a Parquet row group. */
const PARQUET_BATCH_ROWS = 65_536;

/** The error class a WebAssembly trap (a Rust panic ends in one) is thrown as. */
const WasmRuntimeError = (globalThis as unknown as { WebAssembly: { RuntimeError: abstract new () => Error } }).WebAssembly.RuntimeError;

/** Whether the WebAssembly instance panicked: it is not to be called again, not even to free memory. */
interface WasmState {
  panicked: boolean;
}

/**
 * `work` (a parquet-wasm call), or a named error when the WebAssembly panics under it. A panic on
 * damaged data (a data page that does not decode) is thrown from inside a wasm-bindgen callback:
 * an uncaught `RuntimeError` with a Rust stack, while `work` never settles. Such an exception
 * is caught while `work` runs and becomes the rejection of this call (and `state.panicked`); any
 * other uncaught exception is thrown on, as it would have been.
 */
async function withoutWasmPanic<T>(work: Promise<T>, path: string, state: WasmState): Promise<T> {
  let onException: ((err: Error) => void) | undefined;
  const panicked = new Promise<never>((_, reject) => {
    onException = (err: Error): void => {
      if (!(err instanceof WasmRuntimeError)) throw err;
      state.panicked = true;
      reject(parquetDamage(path, 'its data pages', err, 'data that decodes (parquet-wasm panicked)'));
    };
    process.on('uncaughtException', onException);
  });
  try {
    return await Promise.race([work, panicked]);
  } finally {
    process.off('uncaughtException', onException as (err: Error) => void);
  }
}

/** A damaged Parquet file, as a one-line error: the part, what parquet-wasm said (its first line), what was expected. */
function parquetDamage(path: string, field: string, err: unknown, expected: string): ParlInputError {
  const said = (err instanceof Error ? err.message : String(err)).split('\n')[0];
  return new ParlInputError(field, said, expected, `--in ${path} (Parquet)`, 'PARL_ERR_PARSE');
}

/** Let go of a wasm-bindgen wrapper without calling into the instance (its finalizer unregistered, its memory left). */
function forget(wrapper: object): void {
  const destroy = (wrapper as { __destroy_into_raw?: () => number }).__destroy_into_raw;
  if (typeof destroy === 'function') destroy.call(wrapper);
}

/**
 * The record batches of the Parquet file `path`, row group by row group.
 *
 * @throws {@link @parl/core!ParlInputError} (`PARL_ERR_PARSE`) naming the file or the row group and what parquet-wasm said
 */
export async function* parquetBatches(path: string): AsyncGenerator<RecordBatch> {
  const state: WasmState = { panicked: false };
  let file: parquet.ParquetFile;
  try {
    file = await withoutWasmPanic(parquet.ParquetFile.fromFile(await openAsBlob(path)), path, state);
  } catch (err) {
    if (err instanceof ParlInputError) throw err;
    throw parquetDamage(path, 'the file', err, 'a whole Parquet file (magic strings, a footer parquet-wasm reads)');
  }
  try {
    const metadata = file.metadata();
    const groups = metadata.numRowGroups();
    metadata.free();
    for (let group = 0; group < groups; group++) {
      let ipc: Uint8Array;
      try {
        const table = await withoutWasmPanic(file.read({ rowGroups: [group], batchSize: PARQUET_BATCH_ROWS }), path, state);
        ipc = table.intoIPCStream();
      } catch (err) {
        if (err instanceof ParlInputError) throw err;
        if (err instanceof WasmRuntimeError) state.panicked = true;
        throw parquetDamage(path, `row group ${group + 1}`, err, 'a row group parquet-wasm decodes');
      }
      for (const batch of tableFromIPC(ipc).batches) yield batch;
    }
  } finally {
    if (state.panicked) forget(file);
    else file.free();
  }
}
