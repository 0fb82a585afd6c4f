/**
 * What a request's `content-type` says about its body.
 *
 * @module
 */

/** True for the protobuf content types OTLP exporters send. */
export function isProtobuf(contentType: string | undefined): boolean {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/x-protobuf' || type === 'application/protobuf';
}
