// The module hook of loaded-modules.mjs: appends each resolved ES module URL to the file.
import { appendFileSync } from 'node:fs';

let file;

export function initialize(data) {
  file = data.file;
}

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(file, `${resolved.url}\n`);
  return resolved;
}
