import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const PACKAGES = join(import.meta.dirname, '..', '..');

interface Manifest {
  readonly name: string;
  readonly private?: boolean;
  readonly dependencies?: Record<string, string>;
  readonly optionalDependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

function manifests(): Manifest[] {
  return readdirSync(PACKAGES, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => {
      try {
        return [JSON.parse(readFileSync(join(PACKAGES, entry.name, 'package.json'), 'utf8')) as Manifest];
      } catch {
        return [];
      }
    });
}

describe('where node-llama-cpp may be', () => {
  it('is installed for test support only: no published package depends on it, at most as an optional peer', () => {
    const published = manifests().filter((m) => m.private !== true);
    expect(published.length).toBeGreaterThan(0);
    for (const manifest of published) {
      const hard = { ...manifest.dependencies, ...manifest.optionalDependencies };
      const llamaPackages = Object.keys(hard).filter((name) => name === 'node-llama-cpp' || name.startsWith('@node-llama-cpp/'));
      expect(llamaPackages, `${manifest.name} depends on ${llamaPackages.join(', ')}`).toEqual([]);
      if (manifest.peerDependencies?.['node-llama-cpp'] !== undefined) {
        expect(manifest.peerDependenciesMeta?.['node-llama-cpp']?.optional, `${manifest.name}: node-llama-cpp peer must be optional`).toBe(true);
      }
    }
  });

  it('is pinned exactly in test support, with the CPU binary listed directly', () => {
    const own = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')) as Manifest;
    expect(own.private).toBe(true);
    expect(own.dependencies?.['node-llama-cpp']).toBe('3.21.1');
    expect(own.optionalDependencies?.['@node-llama-cpp/linux-x64']).toBe('3.21.1');
  });
});
