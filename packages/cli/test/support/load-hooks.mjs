// Module resolve hook (node:module register): appends every resolved module URL to $PARL_LOADS_FILE.
import { appendFileSync } from 'node:fs';

export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  if (process.env.PARL_LOADS_FILE) appendFileSync(process.env.PARL_LOADS_FILE, `${result.url}\n`);
  return result;
}
