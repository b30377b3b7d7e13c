/** What New transcription's file choosers accept; the installer's file associations are checked against it. */
export const MEDIA_ACCEPT = 'audio/*,video/*';

export const COMPANION_ACCEPT = {
  align: '.txt,text/plain',
  upload: '.srt,.vtt,.sbv,.ttml,.dfxp,.xml,.stl,.txt,.docx',
} as const;
