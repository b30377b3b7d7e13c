import type { ExportFormat } from '../../../common/api';

export const FORMAT_LABELS: Record<ExportFormat, string> = { srt: 'SRT', vtt: 'WebVTT', sbv: 'SBV', ttml: 'TTML (IMSC)', stl: 'EBU STL', txt: 'Text', html: 'HTML', docx: 'Word (DOCX)', pdf: 'PDF' };
