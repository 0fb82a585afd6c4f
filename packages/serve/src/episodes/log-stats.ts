/**
 * The episode log's figures, as `/metrics` reports them.
 *
 * @module
 */

/** Figures about the log, for `/metrics`. */
export interface LogStats {
  /** Bytes written since start. */
  bytes: number;
  /** Writes (each possibly holding many entries). */
  writes: number;
  /** fdatasync calls. */
  fsyncs: number;
  /** Writes that failed and were cut back off the file. */
  failedWrites: number;
}
