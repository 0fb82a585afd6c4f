/**
 * When the episode log is flushed to disk (`--fsync`): the policies, declared once.
 *
 * @module
 */

/** The ways the episode log is flushed to disk (see {@link FsyncPolicy}). */
export const FSYNC_POLICIES = ['always', 'interval', 'never'] as const;

/**
 * When the log reaches the disk:
 * - `always` (default): each write is followed by `fdatasync` before the requests in it are
 *   answered; an acknowledged episode survives a crash of the process and of the machine;
 * - `interval`: written to the operating system before the answer, fsynced every
 *   `fsyncIntervalMs`; survives a crash of the process (kill -9), not of the machine;
 * - `never`: written to the operating system before the answer, never fsynced by the server.
 */
export type FsyncPolicy = (typeof FSYNC_POLICIES)[number];
