/**
 * The cache as one object for the rest of main: a thin facade over the repository modules
 * (accounts, sessions, documents, outbox, conflicts, push-results, share-links, pull-apply,
 * search), each plain functions over the connection. What it owns itself is the connection's
 * life and the pull's background writer (background.ts).
 */
import type { CurrentUser, Document, Session, ShareLink } from '../../common/api';
import type { DocumentMutation, DocumentRecord, DocumentSummary, SessionSummary } from '../../common/ipc';
import type { DocumentBody, DocumentContent } from '../../common/transcript/model';
import * as accounts from './accounts';
import { startBackgroundWriter, WriterFailure, type BackgroundWriter } from './background';
import * as conflicts from './conflicts';
import type { Db } from './db';
import * as documents from './documents';
import { openCache, type OpenDeps, type Recovery } from './open';
import * as outbox from './outbox';
import { applyPreparedPage, preparePullPage, upsertServerDocument, type PreparedPage, type PulledChanges } from './pull-apply';
import * as results from './push-results';
import { searchText, type SearchHit } from './search';
import { reindexAll } from './search-rows';
import * as sessions from './sessions';
import { shareLinks, type StoredShareLink } from './share-links';

// What callers took from this file before the split, so their imports stay as they are.
export { clearedContent, type DocumentRow } from './documents';
export { MAX_FAILURES, type OutboxEntry, type OutboxOp } from './outbox';
export { prepareDocumentsPage, preparePullPage, type PreparedDocument, type PreparedPage, type PulledChanges } from './pull-apply';

export class Cache {
  readonly recovery: Recovery | null;
  /** The pull's background writer: undefined until first asked for, null when there is none. */
  private writer: BackgroundWriter | null | undefined;

  constructor(
    readonly db: Db,
    recovery: Recovery | null = null,
  ) {
    this.recovery = recovery;
    if (recovery) this.db.transaction(() => reindexAll(this.db))();
  }

  static open(file: string, deps?: OpenDeps): Cache {
    const { db, recovery } = openCache(file, deps);
    return new Cache(db, recovery);
  }

  close(): void {
    this.writer?.close();
    this.writer = null;
    if (this.db.open) this.db.close();
  }

  // --- accounts and cursor (accounts.ts) -------------------------------------------------------

  setCurrentAccount(serviceUrl: string, user: CurrentUser): number {
    return accounts.setCurrentAccount(this.db, serviceUrl, user);
  }
  currentAccount(): { id: number; email: string; user: CurrentUser } | null {
    return accounts.currentAccount(this.db);
  }
  clearCurrentAccount(): void {
    accounts.clearCurrentAccount(this.db);
  }
  getCursor(accountId: number, name: string): string | null {
    return accounts.getCursor(this.db, accountId, name);
  }
  setCursor(accountId: number, name: string, value: string): void {
    accounts.setCursor(this.db, accountId, name, value);
  }

  // --- pull (sessions.ts, pull-apply.ts) -------------------------------------------------------

  sessionNeedsDocs(s: Session): boolean {
    return sessions.sessionNeedsDocs(this.db, s);
  }
  pulledDocumentVersions(sessionId: string): Map<string, string> {
    return sessions.pulledDocumentVersions(this.db, sessionId);
  }
  sessionVersion(sessionId: string): string | null | undefined {
    return sessions.sessionVersion(this.db, sessionId);
  }
  sweepSessions(accountId: number, onServer: Set<string>): string[] {
    return sessions.sweepSessions(this.db, accountId, onServer);
  }
  sessionCount(accountId: number): number {
    return sessions.sessionCount(this.db, accountId);
  }

  /** One pulled page in one transaction (pull-apply.ts). */
  applyPullPage(accountId: number, sessions: Session[], docs: Map<string, Document[]>): PulledChanges {
    return applyPreparedPage(this.db, accountId, preparePullPage(sessions, docs));
  }

  applyPreparedPage(accountId: number, page: PreparedPage): PulledChanges {
    return applyPreparedPage(this.db, accountId, page);
  }

  upsertServerDocument(d: Document, sessionId: string): boolean {
    return upsertServerDocument(this.db, d, sessionId);
  }

  /**
   * The same, in the background when the cache is a file: a worker thread with its own connection
   * writes the page (one transaction, as above) while this thread goes on downloading. Pages given
   * one after another are applied in that order. Falls back to applying here.
   */
  async applyPullPageInBackground(accountId: number, page: PreparedPage): Promise<PulledChanges> {
    // Only pages with content are worth the hand-over (an incremental pull's lists are not).
    if (!page.parsed?.size && ![...page.docs.values()].some((list) => list.some((d) => d.body !== null))) return this.applyPreparedPage(accountId, page);
    this.warmBackgroundWriter();
    if (!this.writer) {
      // Documents checked by a writer that has died since: the caller fetches them again (pull.ts).
      if (page.parsed?.size) throw new WriterFailure("the cache's background writer is gone");
      return this.applyPreparedPage(accountId, page);
    }
    try {
      return await this.writer.apply(accountId, page);
    } catch (err) {
      if (!(err instanceof WriterFailure) || !this.db.open) throw err;
      // The thread is gone (it could not start, say): this page and the rest go on here. A page
      // it committed before failing is applied again, which changes nothing. Documents it held
      // are gone with it: the caller fetches them again (pull.ts).
      this.writer.close();
      this.writer = null;
      if (page.parsed?.size) throw err;
      return this.applyPreparedPage(accountId, page);
    }
  }

  /** Starts the background writer ahead of a pull that will bring content (a first sync), so its start overlaps the first download. */
  warmBackgroundWriter(): void {
    if (this.writer === undefined) this.writer = startBackgroundWriter(this.db);
  }

  /** The background writer, to check document pages in (background.ts); null where there is none or it was not started. */
  backgroundWriter(): BackgroundWriter | null {
    return this.writer ?? null;
  }

  // --- reads for the UI (sessions.ts, documents.ts, search.ts) ---------------------------------

  listSessions(accountId: number, page: sessions.SessionListPage): { items: SessionSummary[]; total: number } {
    return sessions.listSessions(this.db, accountId, page);
  }
  sessionFacets(accountId: number): { languages: string[]; modes: string[] } {
    return sessions.sessionFacets(this.db, accountId);
  }
  uiState(accountId: number, name: string): string | null {
    return sessions.uiState(this.db, accountId, name);
  }
  setUiState(accountId: number, name: string, value: string): void {
    sessions.setUiState(this.db, accountId, name, value);
  }
  deleteSessions(accountId: number, sessionIds: string[]): string[] {
    return sessions.deleteSessions(this.db, accountId, sessionIds);
  }
  renameSession(accountId: number, sessionId: string, filename: string): boolean {
    return sessions.renameSession(this.db, accountId, sessionId, filename);
  }
  getSession(accountId: number, sessionId: string): { session: SessionSummary; documents: DocumentSummary[]; engine: string | null } | null {
    return sessions.getSession(this.db, accountId, sessionId);
  }
  row(documentId: string): documents.DocumentRow | null {
    return documents.documentRow(this.db, documentId);
  }
  getDocument(documentId: string): DocumentRecord | null {
    return documents.getDocument(this.db, documentId);
  }
  search(accountId: number, q: string, limit: number): SearchHit[] {
    return searchText(this.db, accountId, q, limit);
  }

  // --- local edits, each with its outbox entry in one transaction (documents.ts) ---------------

  saveDocument(documentId: string, content: DocumentContent, filename?: string): DocumentRecord {
    return documents.saveDocument(this.db, documentId, content, filename);
  }
  mutate(documentId: string, m: DocumentMutation): { documentId: string | null } {
    return documents.mutate(this.db, documentId, m);
  }
  queueMerge(documentIds: string[], outputFilename: string): void {
    documents.queueMerge(this.db, documentIds, outputFilename);
  }
  shareLinks(documentId: string): { links: StoredShareLink[]; pending: boolean } {
    return shareLinks(this.db, documentId);
  }

  // --- outbox, for the push (outbox.ts, push-results.ts, conflicts.ts) -------------------------

  nextOutbox(skip: Iterable<string> = []): outbox.OutboxEntry | null {
    return outbox.nextOutbox(this.db, skip);
  }
  pendingCount(): number {
    return outbox.pendingCount(this.db);
  }
  blockedCount(): number {
    return outbox.blockedCount(this.db);
  }
  outboxEntries(): outbox.OutboxEntry[] {
    return outbox.outboxEntries(this.db);
  }
  blockedEntries(): outbox.OutboxEntry[] {
    return outbox.blockedEntries(this.db);
  }
  resolveId(id: string): string {
    return outbox.resolveId(this.db, id);
  }
  noteSent(seq: number, sentVersion: string | null): void {
    outbox.noteSent(this.db, seq, sentVersion);
  }
  noteFailure(seq: number, error: string): number {
    return outbox.noteFailure(this.db, seq, error);
  }
  rewrite(seq: number, op: outbox.OutboxOp): void {
    outbox.rewrite(this.db, seq, op);
  }
  complete(seq: number, documentId: string, server: Document | null, opts: { deleted?: boolean; conflict?: boolean } = {}): void {
    results.complete(this.db, seq, documentId, server, opts);
  }
  completeShare(seq: number, documentId: string, link: ShareLink): void {
    results.completeShare(this.db, seq, documentId, link);
  }
  adoptServerId(seq: number, localId: string, server: Document): void {
    results.adoptServerId(this.db, seq, localId, server);
  }
  dropDocument(documentId: string): void {
    results.dropDocument(this.db, documentId);
  }
  addConflictCopy(sourceId: string, filename: string, ours: DocumentBody, clashed: readonly string[] = []): string {
    return conflicts.addConflictCopy(this.db, sourceId, filename, ours, clashed);
  }
  block(seq: number, error: string): void {
    conflicts.block(this.db, seq, error);
  }
  requeueBlocked(documentId?: string): number {
    return conflicts.requeueBlocked(this.db, documentId);
  }
  discardUnsent(documentId: string): { documentId: string | null } {
    return conflicts.discardUnsent(this.db, documentId);
  }
}
