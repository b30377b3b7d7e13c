/**
 * Push: the outbox, oldest first (so every document's edits go in order), one entry at a time.
 *
 * Idempotence: a content save is sent with If-Match (the ETag of the version we just read), and
 * before every send we read the document back. If the service already has exactly our content
 * (a previous attempt landed but its answer was lost), the entry is done without sending again.
 * Non-idempotent creations (copy, merge) record the attempt before sending; a retry first looks
 * for the document that attempt may have made (same session, same new file name, unknown to the
 * cache) and adopts it instead of creating a second one.
 */
import type { Document } from '../../common/api';
import type { DocumentBody, DocumentContent } from '../../common/transcript/model';
import { ApiError } from '../api/errors';
import type { ApiClient } from '../api/client';
import type { Cache, OutboxEntry } from '../cache/cache';
import { mergeContent } from './merge';

export interface PushContext {
  client: ApiClient;
  cache: Cache;
  signal?: AbortSignal;
  progress?: (done: number, total: number) => void;
  changed?: (change: { sessions: string[]; documents: string[] }) => void;
  conflict?: (e: { documentId: string; conflictCopyId: string; filename: string }) => void;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
/** Conflicts that a fresh read and merge can resolve: someone changed the document between our read and our write. */
const isRace = (e: unknown) => e instanceof ApiError && (e.status === 412 || e.status === 409);
/** The service refuses this entry for good; retrying cannot help. */
const isRefusal = (e: unknown) => e instanceof ApiError && e.status >= 400 && e.status < 500 && e.status !== 401 && e.status !== 408 && e.status !== 429;

export function conflictCopyName(filename: string, at = new Date()): string {
  const stamp = at.toISOString().slice(0, 16).replace('T', ' ');
  const dot = filename.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [filename.slice(0, dot), filename.slice(dot)] : [filename, ''];
  return `${stem} (conflict copy ${stamp})${ext}`.slice(0, 255);
}

export async function pushAll(ctx: PushContext): Promise<number> {
  let done = 0;
  for (;;) {
    const entry = ctx.cache.nextOutbox();
    if (!entry) return done;
    ctx.progress?.(done, done + ctx.cache.pendingCount());
    try {
      await pushOne(ctx, entry);
    } catch (err) {
      if (err instanceof ApiError && err.status === 404 && entry.op.op === 'delete') {
        ctx.cache.complete(entry.seq, entry.document_id, null, { deleted: true });
      } else if (err instanceof ApiError && err.status === 404) {
        // The service lost the document or its session: keep our edit, flagged, never dropped.
        ctx.cache.block(entry.seq, `the service no longer has this document (${err.message})`);
        ctx.cache.db.prepare('UPDATE documents SET deleted_on_server = 1 WHERE id = ?').run(entry.document_id);
      } else if (isRefusal(err)) {
        ctx.cache.block(entry.seq, (err as ApiError).message);
      } else {
        if (err instanceof ApiError) ctx.cache.noteAttempt(entry.seq, err.message);
        throw err;
      }
    }
    done++;
    ctx.changed?.({ sessions: [entry.session_id], documents: [ctx.cache.resolveId(entry.document_id)] });
  }
}

async function readDoc(ctx: PushContext, sessionId: string, documentId: string) {
  const { data, headers } = await ctx.client.callWithMeta('documents.get', { params: { sessionId, documentId } }, { signal: ctx.signal });
  return { doc: data, etag: headers.get('etag') };
}

async function pushOne(ctx: PushContext, entry: OutboxEntry): Promise<void> {
  const { client, cache, signal } = ctx;
  const op = entry.op;
  const sessionId = entry.session_id;
  const documentId = cache.resolveId(entry.document_id);
  const params = { sessionId, documentId };
  const done = (doc: Document | null) => cache.complete(entry.seq, documentId, doc);
  switch (op.op) {
    case 'save':
      return pushSave(ctx, entry, op.content, op.filename);
    case 'finalize':
      return done(await client.call('documents.finishedStatus', { params, query: { status: op.finished } }, { signal }));
    case 'rename':
      return done(await client.call('documents.update', { params, body: { filename: op.filename } }, { signal }));
    case 'setTimecodeOffset':
      return done(await client.call('documents.update', { params, body: { timecode_offset: op.timecodeOffset } }, { signal }));
    case 'resetToOriginal':
      return done(await client.call('documents.resetToOriginal', { params }, { signal }));
    case 'clearText':
      return done(await client.call('documents.clearText', { params }, { signal }));
    case 'summarize':
      return done((await client.call('documents.summarize', { params }, { signal })).document);
    case 'share':
      await client.call('documents.share', { params, body: { allow_editing: op.allowEditing, allow_export: op.allowExport } }, { signal });
      return done(null);
    case 'delete':
      await client.call('documents.delete', { params }, { signal });
      return cache.complete(entry.seq, documentId, null, { deleted: true });
    case 'copy': {
      const source = cache.resolveId(op.sourceId ?? documentId);
      const earlier = entry.attempts > 0 ? await findCreated(ctx, sessionId, op.newFilename) : null;
      if (!earlier) cache.noteAttempt(entry.seq, null);
      const made = earlier ?? (await client.call('documents.copy', { params: { sessionId }, body: { source_document_id: source, new_filename: op.newFilename } }, { signal }));
      // The copy's body is the service's version; fetch it when the answer carried none.
      const full = made.document ? made : (await readDoc(ctx, sessionId, made.id)).doc;
      return cache.adoptServerId(entry.seq, entry.document_id, full);
    }
    case 'merge': {
      const ids = op.documentIds.map((id) => cache.resolveId(id));
      const earlier = entry.attempts > 0 ? await findCreated(ctx, sessionId, op.outputFilename) : null;
      if (!earlier) cache.noteAttempt(entry.seq, null);
      const made = earlier ?? (await client.call('documents.merge', { body: { document_ids: ids, output_filename: op.outputFilename } }, { signal }));
      const full = made.document ? made : (await readDoc(ctx, made.session_id ?? sessionId, made.id)).doc;
      cache.db.transaction(() => {
        cache.upsertServerDocument(full, full.session_id ?? sessionId);
        cache.complete(entry.seq, documentId, null);
      })();
      return;
    }
  }
}

/** A document an earlier attempt may have created: in the session, with that name, unknown to the cache. */
async function findCreated(ctx: PushContext, sessionId: string, filename: string): Promise<Document | null> {
  for await (const d of ctx.client.items('documents.list', { params: { sessionId } }, { signal: ctx.signal })) {
    if (d.filename === filename && !ctx.cache.row(d.id)) return d;
  }
  return null;
}

async function pushSave(ctx: PushContext, entry: OutboxEntry, ours: DocumentContent, filename: string | undefined): Promise<void> {
  const { client, cache, signal } = ctx;
  const sessionId = entry.session_id;
  const documentId = cache.resolveId(entry.document_id);
  for (let attempt = 0; ; attempt++) {
    const row = cache.row(documentId);
    const { doc: server, etag } = await readDoc(ctx, sessionId, documentId);
    const theirs = server.document?.content ?? null;
    const baseBody = row?.base_body ?? null;
    const base = baseBody ? (JSON.parse(baseBody) as DocumentBody).content : null;
    let content = ours;
    let conflicts: string[] = [];
    if (theirs && row?.server_version !== server.last_modified) {
      // The service moved on since our base (someone else, or our own earlier attempt that landed).
      const merged = mergeContent(base, ours, theirs);
      content = merged.content;
      conflicts = merged.conflicts;
    }
    const nameDone = !filename || filename === server.filename;
    if (theirs && same(content, theirs) && nameDone) {
      finish(ctx, entry, documentId, server, conflicts, ours);
      return;
    }
    const body: DocumentBody = {
      document_type: content.kind,
      metadata: server.document?.metadata ?? (row?.body ? (JSON.parse(row.body) as DocumentBody).metadata : {}),
      content,
    };
    try {
      const updated = await client.call(
        'documents.update',
        { params: { sessionId, documentId }, body: { document: body, plain_document_changed: 'true', ...(filename ? { filename } : {}) }, headers: etag ? { 'if-match': etag } : {} },
        { signal },
      );
      finish(ctx, entry, documentId, updated, conflicts, ours);
      return;
    } catch (err) {
      if (isRace(err) && attempt < 5) continue;
      throw err;
    }
  }
}

/** Completes a save; when segments clashed, in the same transaction saves ours as a conflict copy. */
function finish(ctx: PushContext, entry: OutboxEntry, documentId: string, server: Document, conflicts: string[], ours: DocumentContent): void {
  const { cache } = ctx;
  let copy: { id: string; filename: string } | null = null;
  cache.db.transaction(() => {
    if (conflicts.length) {
      const filename = conflictCopyName(server.filename);
      const oursBody: DocumentBody = { document_type: ours.kind, metadata: server.document?.metadata ?? {}, content: ours };
      copy = { id: cache.addConflictCopy(documentId, filename, oursBody), filename };
    }
    cache.complete(entry.seq, documentId, server, { conflict: conflicts.length > 0 });
  })();
  if (copy) ctx.conflict?.({ documentId, conflictCopyId: (copy as { id: string }).id, filename: (copy as { filename: string }).filename });
}
