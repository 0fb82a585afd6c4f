/**
 * The options of `parl swarm run` that shape its lines, as flag texts: what every rollout line
 * carries as `rollout_options`, so a rerun resumes only a run of the same configuration.
 *
 * @module
 */
import { optionRows } from '@parl/core';
import { SWARM_RUN_OPTIONS, type SwarmRunOptions } from '../options.js';
import type { RunOptionTexts } from './rollout-file.js';

/**
 * The options that do not shape a line: where the endpoint is, where the files and the queue are,
 * how long to wait on a request, whether to start over, and the MCP servers' credentials (headers,
 * forwarded variables, the OAuth client: never written to a file). Every other option — a new row of
 * the table included — counts, so a resume never mixes lines of two configurations.
 */
export const NON_SHAPING_OPTIONS: ReadonlySet<string> = new Set(['baseUrl', 'out', 'spans', 'queue', 'queueName', 'restart', 'requestTimeout', 'mcpHeader', 'mcpEnv', 'mcpClientId', 'mcpClientSecret']);

/** The flag texts of `options` that shape an episode's line (a switch that is off is left out). */
export function runOptionTexts(options: SwarmRunOptions): RunOptionTexts {
  const texts: Record<string, string> = {};
  for (const [key, row] of optionRows(SWARM_RUN_OPTIONS)) {
    if (NON_SHAPING_OPTIONS.has(key)) continue;
    const value: unknown = options[key];
    if (value === undefined || value === false) continue;
    texts[row.flag] = typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
  return texts;
}
