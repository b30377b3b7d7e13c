import { z } from 'zod';

export const SessionStatus = z.enum(['queued', 'processing', 'completed', 'failed', 'dead_letter', 'uploaded']);
export type SessionStatus = z.infer<typeof SessionStatus>;

export const JobStatus = z.enum(['pending', 'processing', 'completed', 'failed', 'cancelled']);
export type JobStatus = z.infer<typeof JobStatus>;

export const SessionMode = z.enum(['decode', 'align', 'upload']);
export type SessionMode = z.infer<typeof SessionMode>;

export const Role = z.enum(['SYSOP', 'ORGADMIN', 'RESELLER', 'CONTRIBUTOR', 'DEVELOPER', 'CUSTOMER', 'RESELLEE', 'TESTER']);
export type Role = z.infer<typeof Role>;

export const TokenType = z.enum(['batch', 'realtime']);
export type TokenType = z.infer<typeof TokenType>;

export const YearsValid = z.union([z.literal(1), z.literal(2), z.literal(5)], { error: 'must be 1, 2 or 5' });

export const DocumentType = z.enum(['document', 'caption']);
export type DocumentType = z.infer<typeof DocumentType>;

export const TRANSLATION_LANGUAGES = [
  'SQ', 'AR', 'BN', 'BG', 'MY', 'CA', 'ZH', 'HR', 'CS', 'DA', 'NL', 'EN', 'ET', 'FI', 'FR', 'GL', 'DE', 'EL', 'GU',
  'HE', 'HI', 'HU', 'IS', 'ID', 'IT', 'GA', 'JA', 'KN', 'KM', 'KO', 'LO', 'LV', 'LT', 'MS', 'ML', 'MT', 'MR', 'NE',
  'NB', 'FA', 'PL', 'PT', 'PA', 'RO', 'RU', 'SI', 'SK', 'SL', 'ES', 'SW', 'SV', 'TA', 'TE', 'TH', 'TR', 'UK', 'UR',
  'VI', 'CY',
] as const;
export const TranslationLanguage = z.enum(TRANSLATION_LANGUAGES);
export type TranslationLanguage = z.infer<typeof TranslationLanguage>;

export const CAPTION_FORMATS = ['srt', 'vtt', 'sbv', 'ttml', 'stl'] as const;
export const TRANSCRIPT_FORMATS = ['txt', 'html', 'docx', 'pdf'] as const;
export const ExportFormat = z.enum([...CAPTION_FORMATS, ...TRANSCRIPT_FORMATS]);
export type ExportFormat = z.infer<typeof ExportFormat>;

export const WebhookEvent = z.enum(['completed', 'failed']);
export type WebhookEvent = z.infer<typeof WebhookEvent>;

export const SortDirection = z.enum(['asc', 'desc']);
