/** Content-Type headers as the service compares them. */

/** The media type of a Content-Type header, without parameters, lower case ('' when absent). */
export function mediaType(header: string | string[] | undefined): string {
  return String(header ?? '').split(';')[0].trim().toLowerCase();
}
