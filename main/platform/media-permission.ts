/**
 * Electron's permission answers: live transcription captures audio, so the app's own page (and
 * nothing else: no other origin, no subframe) may ask for media capture of audio; every other
 * permission stays refused, as before.
 */
export function allowMediaRequest(permission: string, requestingUrl: string | undefined, rendererUrl: string, mediaTypes: readonly string[] | undefined): boolean {
  if (permission !== 'media' || requestingUrl !== rendererUrl) return false;
  return (mediaTypes ?? []).every((t) => t === 'audio');
}

/** Checks (enumerating devices, navigator.permissions): media, for the app's own page only. */
export function allowMediaCheck(permission: string, requestingUrl: string | undefined, rendererUrl: string): boolean {
  return permission === 'media' && requestingUrl === rendererUrl;
}
