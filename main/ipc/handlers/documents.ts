/**
 * documents.*: reads from the cache; every edit goes to the cache and the outbox in one
 * transaction. Translate, revoking a link and sharing by e-mail need the service at once (the
 * engine or the link's token is there), so they call it directly and say so when offline.
 */
import { TRANSLATION_LANGUAGES, type TranslationLanguage } from '../../../common/api';
import { changesFinishedDocument, FINISHED_REFUSAL } from '../../../common/ipc/finished';
import { ApiError } from '../../api/errors';
import { dropShareLink, dropShareLinks, reconcileShareLinks, recordOf } from '../../cache/share-links';
import { UserFacingError } from '../user-facing-error';
import { requireAccount, type AreaHandlers, type CoreContext } from './context';

export function documentsHandlers(ctx: CoreContext): AreaHandlers<'documents'> {
  const { cache, accountId, changedLocally, client } = ctx;
  /** Pairs the engine said it cannot serve (501), with its words: shown as unavailable, not as errors. */
  const unavailable = new Map<string, string>();
  const pairKey = (source: string, target: string) => `${source.slice(0, 2).toUpperCase()}>${target}`;

  const onService = (documentId: string) => {
    requireAccount(ctx);
    const doc = cache.getDocument(documentId);
    if (!doc) throw new UserFacingError('NOT_FOUND', 'That document is not in the local cache.');
    const serverId = cache.resolveId(documentId);
    if (serverId === documentId && cache.row(documentId)?.local_only) {
      throw new UserFacingError('NOT_SENT', 'This document is not on the service yet; try again after the next sync.');
    }
    return { doc, params: { sessionId: doc.session_id, documentId: serverId } };
  };
  // The editors disable these changes on a finished document; one that reaches here anyway is refused in words.
  const refuseIfFinished = (documentId: string) => {
    if (cache.row(documentId)?.finished) throw new UserFacingError('FINISHED', FINISHED_REFUSAL);
  };

  return {
    'documents.get': async ({ documentId }) => (accountId() === null ? null : cache.getDocument(documentId)),
    'documents.save': async ({ documentId, content, filename }) => {
      requireAccount(ctx);
      refuseIfFinished(documentId);
      // A transcript's captions follow it (main/captions), saved in the same transaction.
      const { rec, rebuilt } =
        content.kind === 'transcript' ? ctx.captions.saveTranscript(documentId, content, filename) : { rec: cache.saveDocument(documentId, content, filename), rebuilt: [] };
      changedLocally([documentId, ...rebuilt], rec.session_id);
      return rec;
    },
    'documents.mutate': async ({ documentId, mutation }) => {
      requireAccount(ctx);
      if (changesFinishedDocument(mutation.op)) refuseIfFinished(documentId);
      const sessionId = cache.getDocument(documentId)?.session_id;
      const r = cache.mutate(documentId, mutation);
      changedLocally([documentId, ...(r.documentId && r.documentId !== documentId ? [r.documentId] : [])], sessionId);
      return r;
    },
    'documents.discardUnsent': async ({ documentId }) => {
      requireAccount(ctx);
      const sessionId = cache.row(documentId)?.session_id;
      const r = cache.discardUnsent(documentId);
      changedLocally([documentId], sessionId);
      return r;
    },
    'documents.merge': async ({ documentIds, outputFilename }) => {
      requireAccount(ctx);
      cache.queueMerge(documentIds, outputFilename);
      ctx.engine.kick();
      return { queued: true as const };
    },
    'documents.shareLinks': async ({ documentId }) => {
      if (accountId() === null) return { links: [], pending: false, listed: false };
      const local = cache.shareLinks(documentId);
      const mine = { links: local.links.map(recordOf), pending: local.pending, listed: false };
      let params;
      try {
        ({ params } = onService(documentId));
      } catch {
        return mine; // not on the service yet: only what is queued here
      }
      const askedAt = new Date().toISOString();
      try {
        const r = await client.call('documents.shareList', { params }, { timeoutMs: 8000 });
        return { links: reconcileShareLinks(cache.db, documentId, r.links, askedAt), pending: local.pending, listed: true };
      } catch {
        // Offline, or a service without the list: the links made here, said so in the dialog.
        return mine;
      }
    },
    'documents.translate': async ({ documentId, targetLanguage }) => {
      const { doc, params } = onService(documentId);
      try {
        const made = await client.call('documents.translate', { params, body: { target_language: targetLanguage } });
        cache.upsertServerDocument(made, made.session_id ?? doc.session_id);
        changedLocally([made.id], doc.session_id);
        return { documentId: made.id };
      } catch (e) {
        if (e instanceof ApiError && e.status === 501) unavailable.set(pairKey(doc.language, targetLanguage), e.message);
        throw e;
      }
    },
    'documents.translateLanguages': async ({ documentId }) => {
      // The service says which pairs its engine serves; offline, every language is offered but
      // those it refused before (501) are marked, and the document's own language.
      const { doc, params } = onService(documentId);
      try {
        const r = await client.call('documents.translateTargets', { params });
        return { languages: r.languages.map((l) => ({ code: l.code, available: l.available, reason: l.available ? null : (l.reason ?? 'The service cannot translate into this language.') })) };
      } catch (e) {
        if (!(e instanceof ApiError) || e.status >= 500 || e.status === 404) {
          const source = doc.language.slice(0, 2).toUpperCase();
          return {
            languages: TRANSLATION_LANGUAGES.map((code: TranslationLanguage) => {
              const reason = code === source ? 'This is the language of the document.' : (unavailable.get(pairKey(source, code)) ?? null);
              return { code, available: reason === null, reason };
            }),
          };
        }
        throw e;
      }
    },
    'documents.revokeShare': async ({ documentId, linkId }) => {
      const { params } = onService(documentId);
      try {
        await client.call('documents.shareRevoke', { params: { ...params, token: linkId } });
      } catch (e) {
        // Already revoked or gone on the service: forget it here too.
        if (!(e instanceof ApiError && e.status === 404)) throw e;
      }
      dropShareLink(cache.db, documentId, linkId);
      ctx.emit('cache.changed', { documents: [documentId] });
      return { revoked: true };
    },
    'documents.revokeAllShares': async ({ documentId }) => {
      const { params } = onService(documentId);
      const r = await client.call('documents.shareRevokeAll', { params });
      dropShareLinks(cache.db, params.documentId);
      ctx.emit('cache.changed', { documents: [documentId] });
      return { revoked: r.revoked };
    },
    'documents.shareEmail': async ({ documentId, email, message }) => {
      const { params } = onService(documentId);
      const r = await client.call('documents.shareEmail', { params, body: { email, message } });
      const linkUrl = r.link_url ?? null;
      // Not sent: the same message, to send from the person's own mail app.
      const body = [message.trim(), linkUrl].filter(Boolean).join('\n\n');
      const mailto = !r.sent && linkUrl ? `mailto:${encodeURIComponent(email)}?subject=${encodeURIComponent('A shared transcript')}&body=${encodeURIComponent(body)}` : null;
      return { sent: r.sent, draftPath: r.draft_path ?? null, linkUrl, localOnly: r.local_only === true, mailto: mailto && mailto.length <= 16_384 ? mailto : null };
    },
  };
}
