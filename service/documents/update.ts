/** The document update (PUT), shared by the owner's route and the magic-link route. */
import type { DocumentBody } from '../../common/transcript/model';
import type { ServiceContext } from '../context';
import { validationError } from '../http/errors';
import { checkDocumentFitsMedia } from './limits';
import { updateDocument, type DocumentColumns, type ScopedDocument } from './store';

export interface UpdateBody {
  filename?: string;
  document?: DocumentBody;
  plain_document_changed?: 'true' | 'false';
  timecode_offset?: string;
}

/**
 * Writes filename, timecode_offset and the body. plain_document_changed ('true'/'false' text, as
 * the spec sends it) is kept as the boolean metadata.plain_document_changed of the stored body,
 * so every reader can tell a hand-edited text from the engine's; without a body it says nothing.
 */
export function applyUpdate(ctx: ServiceContext, doc: ScopedDocument, body: UpdateBody): ScopedDocument {
  const cols: DocumentColumns = {};
  if (body.filename !== undefined) cols.filename = body.filename;
  if (body.timecode_offset !== undefined) cols.timecode_offset = body.timecode_offset;
  if (body.document !== undefined) {
    const wantKind = doc.type === 'caption' ? 'caption' : 'transcript';
    if (body.document.content.kind !== wantKind || body.document.document_type !== wantKind) {
      throw validationError(`document: this is a ${wantKind} document; its content must be of kind ${wantKind}`);
    }
    checkDocumentFitsMedia(ctx.db, doc.session_pk, body.document);
    const metadata = { ...body.document.metadata, ...(body.plain_document_changed ? { plain_document_changed: body.plain_document_changed === 'true' } : {}) };
    cols.body = { ...body.document, metadata };
  }
  // Compare-and-set against the row the preconditions were checked on: a write in between is 412, never lost.
  return ctx.db.transaction(() => updateDocument(ctx.db, doc, cols)).immediate();
}
