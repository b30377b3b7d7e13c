import type { SessionMode } from '../../../common/api';

/** What each session mode means in words; the service's names (decode, align, upload) are jargon. */
export const MODE_LABEL: Record<SessionMode, string> = { decode: 'Transcribed', align: 'Aligned text', upload: 'Uploaded document' };
