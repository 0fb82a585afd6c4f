/**
 * How many traces a trace report draws: the bounds the report builder checks and the
 * `--report-drawn` row of the report's options table states (a module of its own, so that the
 * options entry loads without the report).
 *
 * @module
 */

/** Traces drawn by default (the rest are listed). */
export const DEFAULT_REPORT_DRAWN = 20;

/** Traces drawn at most. */
export const MAX_REPORT_DRAWN = 1000;
