/**
 * The OpenTelemetry resource the swarm's captured spans carry: the SDK's default attributes, the
 * service named `parl-swarm` unless the environment names it (`OTEL_SERVICE_NAME`, or
 * `service.name` in `OTEL_RESOURCE_ATTRIBUTES`, read by the SDK's own environment detector), never
 * the SDK's `unknown_service:node`. Loaded only with the SDK (see `spans-file.ts`).
 *
 * @module
 */
import type { Resource } from '@opentelemetry/resources';

/** The service name of the swarm's spans when the environment names none. */
export const SWARM_SERVICE_NAME = 'parl-swarm';

/** The resource of the swarm's spans, from the environment as it is now. */
export async function swarmSpanResource(): Promise<Resource> {
  const { defaultResource, detectResources, envDetector, resourceFromAttributes } = await import('@opentelemetry/resources');
  return defaultResource()
    .merge(resourceFromAttributes({ 'service.name': SWARM_SERVICE_NAME }))
    .merge(detectResources({ detectors: [envDetector] }));
}
