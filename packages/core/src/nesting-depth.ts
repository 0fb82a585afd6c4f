/**
 * How deep sub-agent entries may nest (spec §5.2), in a module of its own so that validation and
 * typo hints share it without importing each other.
 *
 * @module
 */

/** The deepest nesting of sub-agent entries a record may have (spec §5.2): deeper is an input error. */
export const MAX_NESTING_DEPTH = 16;
