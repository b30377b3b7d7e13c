/**
 * Keeps caption documents in step with the transcript they follow. A caption document follows the transcript recorded in caption_links, or by
 * default its session's transcript in its language. When that transcript's content differs from
 * what the captions were last built from, the captions are rebuilt with the caption profile from
 * settings (common/transcript/caption-follow.ts keeps hand edits over unchanged words) and saved
 * like any edit: cache and outbox in one transaction, so it works offline and syncs.
 *
 * Whether a rebuild is due is asked of SQLite (caption-links.ts): a sync reports every document it
 * wrote, and parsing each body here again would cost the main thread what the pull saved.
 */
import type { CaptionsRebuilt, DocumentRecord } from '../../common/ipc';
import { followTranscript } from '../../common/transcript/caption-follow';
import type { CaptionProfileId } from '../../common/transcript/captions';
import { captionsToTranscript } from '../../common/transcript/from-captions';
import type { CaptionContent, TranscriptContent } from '../../common/transcript/model';
import type { Cache } from '../cache/cache';
import { captionLink, captionPending, defaultTranscript, documentKind, linkCaption, pendingCaptions, unlinkCaption, unlinkedCaptions } from '../cache/caption-links';

export interface FollowerDeps {
  cache: Cache;
  /** The caption profile from settings, read at each rebuild. */
  profile: () => CaptionProfileId;
  /** Each rebuild that changed a caption document (and each explicit one), for the UI. */
  rebuilt: (r: CaptionsRebuilt) => void;
}

const contentOf = <K extends 'transcript' | 'caption'>(cache: Cache, id: string, kind: K) => {
  const c = cache.getDocument(id)?.body?.content;
  return c && c.kind === kind ? (c as K extends 'transcript' ? TranscriptContent : CaptionContent) : null;
};

/**
 * Whether a rebuild left the captions as they were: followTranscript keeps every cue that stands
 * as the same object and gives every other a fresh id, so comparing the cues by reference says
 * what comparing the whole documents' JSON said, without writing out 2,700 cues twice.
 */
function sameCaptions(rebuilt: CaptionContent, before: CaptionContent): boolean {
  const { cues, speakers, ...rest } = rebuilt;
  const { cues: beforeCues, speakers: beforeSpeakers, ...beforeRest } = before;
  return (
    cues.length === beforeCues.length &&
    cues.every((q, i) => q === beforeCues[i]) &&
    JSON.stringify(speakers) === JSON.stringify(beforeSpeakers) &&
    JSON.stringify(rest) === JSON.stringify(beforeRest)
  );
}

const kindOf = (cache: Cache, id: string) => documentKind(cache.db, id);

export class CaptionFollower {
  constructor(private readonly o: FollowerDeps) {}

  /** Links the session's unlinked captions that follow this transcript by default, as built from its content now. */
  private linkDefaults(sessionId: string, transcriptId?: string): void {
    const { db } = this.o.cache;
    for (const id of unlinkedCaptions(db, sessionId)) {
      const t = defaultTranscript(db, id);
      if (t && (transcriptId === undefined || t === transcriptId)) linkCaption(db, id, t);
    }
  }

  /**
   * Before a transcript is saved: links the captions that follow it by default and have no link
   * yet, as built from the content it has now, so the save's change is what gets followed.
   */
  private linkBeforeSave(transcriptId: string): void {
    const d = kindOf(this.o.cache, transcriptId);
    if (d?.type === 'document') this.linkDefaults(d.session_id, transcriptId);
  }

  /**
   * Rebuilds the captions following each of these transcripts whose content moved on; returns the
   * caption ids saved. `saved`: a transcript's content as just saved, so it is not read back and parsed again.
   */
  followAll(transcriptIds: Iterable<string>, saved?: { id: string; content: TranscriptContent }): string[] {
    const rebuilt: string[] = [];
    for (const id of new Set(transcriptIds)) {
      for (const captionId of pendingCaptions(this.o.cache.db, id)) {
        const r = this.follow(captionId, false, saved);
        if (r && (r.changed.length || r.removed.length)) rebuilt.push(captionId);
      }
    }
    return rebuilt;
  }

  /** followAll, but a rebuild that fails is logged and undone (its savepoint) rather than failing the transcript's save around it. */
  private followAllSafely(transcriptIds: Iterable<string>, saved?: { id: string; content: TranscriptContent }): string[] {
    try {
      return this.o.cache.db.transaction(() => this.followAll(transcriptIds, saved))();
    } catch (err) {
      process.stderr.write(`captions: rebuild failed: ${(err as Error).message}\n`);
      return [];
    }
  }

  /**
   * Saves a transcript edit with its captions following it: linked as they were, then rebuilt, in
   * one transaction (a savepoint inside a caller's), so no crash leaves them behind it (watch
   * folders deliver them). Returns the saved record and the caption ids rebuilt.
   */
  saveTranscript(transcriptId: string, content: TranscriptContent, filename?: string): { rec: DocumentRecord; rebuilt: string[] } {
    const { cache } = this.o;
    return cache.db
      .transaction(() => {
        this.linkBeforeSave(transcriptId);
        return { rec: cache.saveDocument(transcriptId, content, filename), rebuilt: this.followAllSafely([transcriptId], { id: transcriptId, content }) };
      })
      .immediate();
  }

  /**
   * After a sync wrote these documents: captions seen for the first time are linked to their
   * session's transcript as it is now; transcripts that moved on have their captions rebuilt.
   * Returns the caption ids saved.
   */
  afterSync(documentIds: string[]): string[] {
    const transcripts: string[] = [];
    const sessions = new Set<string>();
    for (const id of documentIds) {
      const d = kindOf(this.o.cache, id);
      if (d?.type === 'document') transcripts.push(id);
      else if (d?.type === 'caption') sessions.add(d.session_id);
    }
    for (const s of sessions) this.linkDefaults(s);
    return this.followAll(transcripts);
  }

  /** The captions' pending rebuild, if their transcript moved on (before an export). True when it saved. */
  applyPending(captionId: string): boolean {
    if (!captionPending(this.o.cache.db, captionId)) return false;
    const r = this.follow(captionId, false);
    return !!r && (r.changed.length > 0 || r.removed.length > 0);
  }

  /**
   * Rebuilds one caption document. Callers that follow a change ask first whether it is due
   * (pendingCaptions, captionPending: SQLite compares the bodies, so it is asked once, not again here).
   * `explicit`: asked for by the user, so it runs even when the transcript did not move on (a
   * deleted cue comes back) and always reports; a caption document with no link is linked to its
   * session's transcript, taking its own words as what it was built from. Captions marked
   * finished are final: they are not rebuilt, and the rebuild stays due until they are reopened.
   */
  follow(captionId: string, explicit: boolean, saved?: { id: string; content: TranscriptContent }): CaptionsRebuilt | null {
    const { cache } = this.o;
    const doc = cache.getDocument(captionId);
    if (!explicit && doc?.finished) return null;
    const c = doc?.body?.content;
    const captions = c?.kind === 'caption' ? c : null;
    const link = captionLink(cache.db, captionId);
    if (!captions) {
      if (link && !doc) unlinkCaption(cache.db, captionId);
      return null;
    }
    const transcriptId = link?.transcriptId ?? defaultTranscript(cache.db, captionId);
    const after = !transcriptId ? null : saved?.id === transcriptId ? saved.content : contentOf(cache, transcriptId, 'transcript');
    if (!transcriptId || !after) return null;
    const before = link?.builtFrom ?? captionsToTranscript(captions);
    const result = followTranscript({ before, after, captions, profile: this.o.profile() });
    const differs = !sameCaptions(result.content, captions);
    // One transaction: the rebuilt captions (cache + outbox) and the content they now follow.
    cache.db.transaction(() => {
      if (differs) cache.saveDocument(captionId, result.content);
      linkCaption(cache.db, captionId, transcriptId);
    }).immediate();
    const r: CaptionsRebuilt = { documentId: captionId, transcriptId, changed: differs ? result.changed : [], removed: differs ? result.removed : [], keptEdits: result.keptEdits };
    if (differs || explicit) this.o.rebuilt(r);
    return r;
  }
}
