/**
 * Keeps caption documents in step with the transcript they follow (issue 18, "Captions follow the
 * transcript"). A caption document follows the transcript recorded in caption_links, or by
 * default its session's transcript (same language first). When that transcript's content differs
 * from what the captions were last built from, the captions are rebuilt with the caption profile
 * from settings (common/transcript/caption-follow.ts keeps hand edits over unchanged words) and
 * saved like any edit: cache and outbox in one transaction, so it works offline and syncs.
 */
import type { CaptionsRebuilt } from '../../common/ipc';
import { followTranscript } from '../../common/transcript/caption-follow';
import type { CaptionProfileId } from '../../common/transcript/captions';
import { captionsToTranscript } from '../../common/transcript/from-captions';
import type { CaptionContent, TranscriptContent } from '../../common/transcript/model';
import type { Cache } from '../cache/cache';
import { captionLink, captionsFollowing, contentHash, linkCaption, unlinkCaption } from '../cache/caption-links';

export interface FollowerDeps {
  cache: Cache;
  /** The caption profile from settings, read at each rebuild. */
  profile: () => CaptionProfileId;
  /** Each rebuild that changed a caption document, for the UI. */
  rebuilt: (r: CaptionsRebuilt) => void;
}

const contentOf = <K extends 'transcript' | 'caption'>(cache: Cache, id: string, kind: K) => {
  const d = cache.getDocument(id);
  const c = d?.body?.content;
  return c && c.kind === kind ? { doc: d, content: c as K extends 'transcript' ? TranscriptContent : CaptionContent } : null;
};

export class CaptionFollower {
  constructor(private readonly o: FollowerDeps) {}

  /** The transcript a caption document follows by default: its session's, the same language first. */
  defaultTranscript(captionId: string): string | null {
    const { cache } = this.o;
    const cap = cache.getDocument(captionId);
    const accountId = cache.currentAccount()?.id;
    if (!cap || accountId === undefined) return null;
    const docs = cache.getSession(accountId, cap.session_id)?.documents.filter((d) => d.type === 'document') ?? [];
    return (docs.find((d) => d.language === cap.language) ?? docs[0])?.id ?? null;
  }

  /**
   * Before a transcript is saved: links the captions that follow it by default and have no link
   * yet, as built from the content it has now, so the save's change is what gets followed.
   */
  linkBeforeSave(transcriptId: string): void {
    const { cache } = this.o;
    const t = contentOf(cache, transcriptId, 'transcript');
    if (!t) return;
    const accountId = cache.currentAccount()?.id;
    if (accountId === undefined) return;
    for (const d of cache.getSession(accountId, t.doc.session_id)?.documents ?? []) {
      if (d.type !== 'caption' || captionLink(cache.db, d.id)) continue;
      if (this.defaultTranscript(d.id) === transcriptId) linkCaption(cache.db, d.id, transcriptId, t.content);
    }
  }

  /** Rebuilds the captions following each of these transcripts whose content moved on; returns the caption ids saved. */
  followAll(transcriptIds: Iterable<string>): string[] {
    const saved: string[] = [];
    for (const id of new Set(transcriptIds)) {
      for (const link of captionsFollowing(this.o.cache.db, id)) {
        const r = this.follow(link.captionId, false);
        if (r && (r.changed.length || r.removed.length)) saved.push(link.captionId);
      }
    }
    return saved;
  }

  /** followAll, but a rebuild that fails is logged and undone (its savepoint) rather than failing the transcript's save around it. */
  followAllSafely(transcriptIds: Iterable<string>): string[] {
    try {
      return this.o.cache.db.transaction(() => this.followAll(transcriptIds))();
    } catch (err) {
      process.stderr.write(`captions: rebuild failed: ${(err as Error).message}\n`);
      return [];
    }
  }

  /**
   * After a sync wrote these documents: captions seen for the first time are linked to their
   * session's transcript as it is now; transcripts that moved on have their captions rebuilt.
   * Returns the caption ids saved.
   */
  afterSync(documentIds: string[]): string[] {
    const { cache } = this.o;
    const transcripts: string[] = [];
    for (const id of documentIds) {
      const d = cache.getDocument(id);
      if (!d?.body) continue;
      if (d.type === 'document') transcripts.push(id);
      else if (!captionLink(cache.db, id)) {
        const tid = this.defaultTranscript(id);
        const t = tid ? contentOf(cache, tid, 'transcript') : null;
        if (tid && t) linkCaption(cache.db, id, tid, t.content);
      }
    }
    return this.followAll(transcripts);
  }

  /** The captions' pending rebuild, if their transcript moved on (before an export). True when it saved. */
  applyPending(captionId: string): boolean {
    const r = captionLink(this.o.cache.db, captionId) ? this.follow(captionId, false) : null;
    return !!r && (r.changed.length > 0 || r.removed.length > 0);
  }

  /**
   * Rebuilds one caption document. `explicit`: asked for by the user, so it runs even when the
   * transcript did not move on (a deleted cue comes back), and an unlinked caption document is
   * linked to its session's transcript, taking its own words as what it was built from.
   */
  follow(captionId: string, explicit: boolean): CaptionsRebuilt | null {
    const { cache } = this.o;
    const cap = contentOf(cache, captionId, 'caption');
    const link = captionLink(cache.db, captionId);
    if (!cap) {
      if (link && !cache.getDocument(captionId)) unlinkCaption(cache.db, captionId);
      return null;
    }
    const transcriptId = link?.transcriptId ?? this.defaultTranscript(captionId);
    const t = transcriptId ? contentOf(cache, transcriptId, 'transcript') : null;
    if (!transcriptId || !t) return null;
    const hash = contentHash(t.content);
    if (!explicit && link?.builtHash === hash) return null;
    const before = link?.builtFrom ?? captionsToTranscript(cap.content);
    const result = followTranscript({ before, after: t.content, captions: cap.content, profile: this.o.profile() });
    const differs = JSON.stringify(result.content) !== JSON.stringify(cap.content);
    // One transaction: the rebuilt captions (cache + outbox) and the content they now follow.
    cache.db.transaction(() => {
      if (differs) cache.saveDocument(captionId, result.content);
      linkCaption(cache.db, captionId, transcriptId, t.content);
    }).immediate();
    const r: CaptionsRebuilt = { documentId: captionId, transcriptId, changed: differs ? result.changed : [], removed: differs ? result.removed : [], keptEdits: result.keptEdits };
    if (differs || explicit) this.o.rebuilt(r);
    return r;
  }
}
