/**
 * Push: the outbox, oldest first (so every document's edits go in order), one entry at a time.
 *
 * Idempotence: a lost answer never applies an edit twice. Every send of a mutation is recorded
 * (attempts, and the document's service version then) before it goes out, and is made without the
 * client's own retries; a later retry of the entry first reads the service and completes without
 * sending when the earlier send landed:
 * - save: sent with If-Match; the read-back shows our content already there.
 * - rename, timecode offset, finalize, clear text: the read-back shows the effect.
 * - reset, summarize: the document's version moved on since the recorded one (read just before
 *   the send, so another device's edit in between is all but impossible).
 * - copy, merge: the read-back finds a document of the new name in the session, unknown to the
 *   cache, and adopts it.
 * - delete: the retry's 404 means done.
 * - session rename: the same name sent again answers the same.
 * - share: a link we already hold for the same rights is reused. A share whose answer was lost
 *   cannot be found again (the service keeps only a hash of the token and lists no links), so the
 *   retry makes a new link; the lost one was never seen by anyone.
 *
 * Failures: a refusal (4xx) blocks the entry at once; an error answer (5xx, a malformed answer) or
 * an unexpected failure counts against the entry, which is blocked at MAX_FAILURES; until then its
 * document waits for the next push while other documents go on (up to a few failing documents,
 * then the service itself seems unwell and the push stops). No answer at all, 401 and 429 stop
 * the push without counting. A blocked entry stays in the outbox, visible, and holds back later
 * entries of the same document only. The push throws the first failure after doing what it could.
 */
import type { Document } from '../../common/api';
import type { DocumentMutation } from '../../common/ipc';
import type { DocumentBody, DocumentContent } from '../../common/transcript/model';
import { ApiError } from '../api/errors';
import { classifyFailure } from '../api/failure';
import type { ApiClient } from '../api/client';
import { MAX_FAILURES, type Cache, type OutboxEntry } from '../cache/cache';
import { sessionDeleted, sessionDeleteRefused, sessionName, sessionRenamed } from '../cache/sessions';
import { liveShareLink } from '../cache/share-links';
import { describeBlocked, stopsTheRun } from './errors';
import { mergeContent } from './merge';

export interface PushContext {
  client: ApiClient;
  cache: Cache;
  signal?: AbortSignal;
  progress?: (done: number, total: number) => void;
  changed?: (change: { sessions: string[]; documents: string[] }) => void;
  conflict?: (e: { documentId: string; conflictCopyId: string; filename: string }) => void;
}

export interface PushResult {
  done: number;
  /** A sentence for each entry blocked in this push. */
  blocked: string[];
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
/** Conflicts that a fresh read and merge can resolve: someone changed the document between our read and our write. */
const isRace = (e: unknown) => e instanceof ApiError && (e.status === 412 || e.status === 409);
/**
 * The service (or our own request check) refuses this entry for good; retrying cannot help. A
 * malformed success answer is refused too, but counts against the entry instead: it may pass.
 */
const isRefusal = (e: unknown) => {
  const f = classifyFailure(e);
  return f?.kind === 'refused' && (f.status === 0 || f.status >= 400);
};
/** Failures that say nothing about this entry: no answer, cancelled, signed out, slow down, or a 408 (the request never arrived whole). */
const isTransient = (e: unknown) => stopsTheRun(e) || classifyFailure(e)?.status === 408;
/** Error answers for this many documents in one push: the service itself is unwell, so stop. */
const MAX_FAILED_DOCUMENTS_A_PUSH = 3;
/** Mutations go out once per attempt: the outbox, not the client, decides about retrying. */
const ONCE = { retries: 0 };

export function conflictCopyName(filename: string, at = new Date()): string {
  const stamp = at.toISOString().slice(0, 16).replace('T', ' ');
  const dot = filename.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [filename.slice(0, dot), filename.slice(dot)] : [filename, ''];
  return `${stem} (conflict copy ${stamp})${ext}`.slice(0, 255);
}

export async function pushAll(ctx: PushContext): Promise<PushResult> {
  const result: PushResult = { done: 0, blocked: [] };
  // A document whose entry failed waits for the next push; the others go on, unless the service seems unwell.
  const failed = new Set<string>();
  let firstFailure: unknown;
  const refused = (entry: OutboxEntry, reason: string) => result.blocked.push(blockedSentence(ctx.cache, entry, reason));
  const block = (entry: OutboxEntry, reason: string) => {
    ctx.cache.block(entry.seq, reason);
    refused(entry, reason);
  };
  for (;;) {
    const entry = ctx.cache.nextOutbox(failed);
    if (!entry) {
      if (failed.size) throw firstFailure;
      return result;
    }
    ctx.progress?.(result.done, result.done + ctx.cache.pendingCount());
    try {
      const reason = await pushOne(ctx, entry);
      if (reason) refused(entry, reason);
    } catch (err) {
      if (err instanceof ApiError && err.status === 404 && entry.op.op === 'delete') {
        ctx.cache.complete(entry.seq, entry.document_id, null, { deleted: true });
      } else if (err instanceof ApiError && err.status === 404) {
        // The service lost the document or its session: keep our edit, flagged, never dropped.
        block(entry, `the service no longer has this document (${err.message})`);
        ctx.cache.db.prepare('UPDATE documents SET deleted_on_server = 1 WHERE id = ?').run(entry.document_id);
      } else if (isRefusal(err)) {
        block(entry, (err as ApiError).message);
      } else if (isTransient(err)) {
        throw err;
      } else {
        const message = (err as Error)?.message ?? String(err);
        if (ctx.cache.noteFailure(entry.seq, message) >= MAX_FAILURES) block(entry, `it failed ${MAX_FAILURES} times, last with: ${message}`);
        else {
          if (!failed.size) firstFailure = err;
          failed.add(entry.document_id);
          if (failed.size >= MAX_FAILED_DOCUMENTS_A_PUSH) throw firstFailure;
          continue;
        }
      }
    }
    result.done++;
    ctx.changed?.({ sessions: [entry.session_id], documents: [ctx.cache.resolveId(entry.document_id)] });
  }
}

/** The sentence for an entry the service refused: a session's delete names the session (its entry is keyed by the session id), the rest their document. */
export function blockedSentence(cache: Cache, entry: OutboxEntry, reason: string): string {
  if (entry.op.op === 'deleteSession') return describeBlocked(sessionName(cache.db, entry.session_id) ?? entry.session_id, 'delete session', reason);
  if (entry.op.op === 'renameSession') return describeBlocked(sessionName(cache.db, entry.session_id) ?? entry.session_id, 'rename session', reason);
  return describeBlocked(cache.row(cache.resolveId(entry.document_id))?.filename ?? entry.document_id, entry.op.op, reason);
}

async function readDoc(ctx: PushContext, sessionId: string, documentId: string) {
  const { data, headers } = await ctx.client.callWithMeta('documents.get', { params: { sessionId, documentId } }, { signal: ctx.signal });
  return { doc: data, etag: headers.get('etag') };
}

type DocumentOp = Extract<DocumentMutation, { op: 'finalize' | 'rename' | 'setTimecodeOffset' | 'resetToOriginal' | 'clearText' | 'summarize' }>;

function isCleared(doc: Document): boolean {
  const c = doc.document?.content;
  if (!c) return false;
  return c.kind === 'transcript' ? c.segments.every((s) => s.words.length === 0) : c.cues.every((q) => q.lines.length === 0);
}

function hasSummary(doc: Document): boolean {
  const body = doc.document;
  return !!body && (body.content.kind === 'transcript' ? !!body.content.summary : body.metadata.summary !== undefined);
}

/** Whether an earlier send of `op` already shows on the service's document. */
function landed(op: DocumentOp, doc: Document, sentVersion: string | null): boolean {
  switch (op.op) {
    case 'finalize':
      return doc.finished === op.finished;
    case 'rename':
      return doc.filename === op.filename;
    case 'setTimecodeOffset':
      return doc.timecode_offset === op.timecodeOffset;
    case 'clearText':
      return isCleared(doc);
    case 'summarize':
      return doc.last_modified !== sentVersion && hasSummary(doc);
    case 'resetToOriginal':
      return doc.last_modified !== sentVersion;
  }
}

async function pushDocumentOp(ctx: PushContext, entry: OutboxEntry, op: DocumentOp, documentId: string): Promise<void> {
  const { client, cache, signal } = ctx;
  const params = { sessionId: entry.session_id, documentId };
  const done = (doc: Document) => cache.complete(entry.seq, documentId, doc);
  if (entry.attempts > 0) {
    const { doc } = await readDoc(ctx, entry.session_id, documentId);
    if (landed(op, doc, entry.sent_version)) return done(doc);
  }
  // Reset and summarize are recognised by a moved version, so note the version right before sending.
  const versioned = op.op === 'resetToOriginal' || op.op === 'summarize';
  const before = versioned ? (await readDoc(ctx, entry.session_id, documentId)).doc.last_modified : (cache.row(documentId)?.server_version ?? null);
  cache.noteSent(entry.seq, before);
  switch (op.op) {
    case 'finalize':
      return done(await client.call('documents.finishedStatus', { params, query: { status: op.finished } }, { signal, ...ONCE }));
    case 'rename':
      return done(await client.call('documents.update', { params, body: { filename: op.filename } }, { signal, ...ONCE }));
    case 'setTimecodeOffset':
      return done(await client.call('documents.update', { params, body: { timecode_offset: op.timecodeOffset } }, { signal, ...ONCE }));
    case 'resetToOriginal':
      return done(await client.call('documents.resetToOriginal', { params }, { signal, ...ONCE }));
    case 'clearText':
      return done(await client.call('documents.clearText', { params }, { signal, ...ONCE }));
    case 'summarize':
      return done((await client.call('documents.summarize', { params }, { signal, ...ONCE })).document);
  }
}

async function pushShare(ctx: PushContext, entry: OutboxEntry, op: Extract<DocumentMutation, { op: 'share' }>, documentId: string): Promise<void> {
  const { client, cache, signal } = ctx;
  if (liveShareLink(cache.db, documentId, op)) return cache.complete(entry.seq, documentId, null);
  cache.noteSent(entry.seq, null);
  const link = await client.call('documents.share', { params: { sessionId: entry.session_id, documentId }, body: { allow_editing: op.allowEditing, allow_export: op.allowExport } }, { signal, ...ONCE });
  cache.completeShare(entry.seq, documentId, link);
}

/**
 * The legacy DELETE erases the session (the service keeps an empty one in its list, which the
 * cache keeps hidden). Already gone (404) is done; a refusal shows the session again with the
 * reason, returned for the sync's message.
 */
async function pushSessionDelete(ctx: PushContext, entry: OutboxEntry): Promise<string | void> {
  const sessionId = entry.session_id;
  ctx.cache.noteSent(entry.seq, null);
  try {
    await ctx.client.call('sessions.delete', { params: { sessionId } }, { signal: ctx.signal, ...ONCE });
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 404)) {
      if (!isRefusal(err)) throw err;
      sessionDeleteRefused(ctx.cache.db, entry.seq, sessionId, (err as Error).message);
      return (err as Error).message;
    }
  }
  sessionDeleted(ctx.cache.db, entry.seq, sessionId);
}

/**
 * A session's rename: the same name twice answers the same, so a retry after a lost answer just
 * sends it again. A session the service no longer has (404) blocks the entry, kept and shown.
 */
async function pushSessionRename(ctx: PushContext, entry: OutboxEntry, filename: string): Promise<void> {
  ctx.cache.noteSent(entry.seq, null);
  try {
    const { result } = await ctx.client.call('sessions.rename', { params: { sessionId: entry.session_id }, body: { filename } }, { signal: ctx.signal, ...ONCE });
    sessionRenamed(ctx.cache.db, entry.seq, result);
  } catch (err) {
    // Refused for good as a session, not the push's "no longer has this document".
    if (err instanceof ApiError && err.status === 404) throw new ApiError(err.routeId, { status: 410, code: 'gone', message: `the service no longer has this session (${err.message})`, details: {} });
    throw err;
  }
}

/** Sends one entry; a string is why the service refused it when the entry was settled without blocking. */
async function pushOne(ctx: PushContext, entry: OutboxEntry): Promise<string | void> {
  const { client, cache, signal } = ctx;
  const op = entry.op;
  const sessionId = entry.session_id;
  const documentId = cache.resolveId(entry.document_id);
  switch (op.op) {
    case 'save':
      return pushSave(ctx, entry, op.content, op.filename);
    case 'share':
      return pushShare(ctx, entry, op, documentId);
    case 'deleteSession':
      return pushSessionDelete(ctx, entry);
    case 'renameSession':
      return pushSessionRename(ctx, entry, op.filename);
    case 'delete':
      await client.call('documents.delete', { params: { sessionId, documentId } }, { signal, ...ONCE });
      return cache.complete(entry.seq, documentId, null, { deleted: true });
    case 'copy': {
      const source = cache.resolveId(op.sourceId ?? documentId);
      const earlier = entry.attempts > 0 ? await findCreated(ctx, sessionId, op.newFilename) : null;
      if (!earlier) cache.noteSent(entry.seq, null);
      const made = earlier ?? (await client.call('documents.copy', { params: { sessionId }, body: { source_document_id: source, new_filename: op.newFilename } }, { signal, ...ONCE }));
      // The copy's body is the service's version; fetch it when the answer carried none.
      const full = made.document ? made : (await readDoc(ctx, sessionId, made.id)).doc;
      return cache.adoptServerId(entry.seq, entry.document_id, full);
    }
    case 'merge': {
      const ids = op.documentIds.map((id) => cache.resolveId(id));
      const earlier = entry.attempts > 0 ? await findCreated(ctx, sessionId, op.outputFilename) : null;
      if (!earlier) cache.noteSent(entry.seq, null);
      const made = earlier ?? (await client.call('documents.merge', { body: { document_ids: ids, output_filename: op.outputFilename } }, { signal, ...ONCE }));
      const full = made.document ? made : (await readDoc(ctx, made.session_id ?? sessionId, made.id)).doc;
      cache.db.transaction(() => {
        cache.upsertServerDocument(full, full.session_id ?? sessionId);
        cache.complete(entry.seq, documentId, null);
      }).immediate(); // immediate: the pull worker may be writing too (README: Writing a first sync)
      return;
    }
    default:
      return pushDocumentOp(ctx, entry, op, documentId);
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
      copy = { id: cache.addConflictCopy(documentId, filename, oursBody, conflicts), filename };
    }
    cache.complete(entry.seq, documentId, server, { conflict: conflicts.length > 0 });
  }).immediate();
  if (copy) ctx.conflict?.({ documentId, conflictCopyId: (copy as { id: string }).id, filename: (copy as { filename: string }).filename });
}
