/** Speaker edits over transcripts and captions alike. Pure: each returns a new content. */
import { EditError, freshId } from './edit-error';
import type { DocumentContent, Speaker } from './model';

function requireSpeaker(content: DocumentContent, id: string): Speaker {
  const s = content.speakers.find((x) => x.id === id);
  if (!s) throw new EditError(`no speaker with id "${id}"`);
  return s;
}

/** Add a speaker with a fresh id; returns the content and the new id. */
export function addSpeaker<C extends DocumentContent>(content: C, name: string): { content: C; id: string } {
  const id = freshId(`spk-${content.speakers.length + 1}`, content.speakers.map((s) => s.id));
  return { content: { ...content, speakers: [...content.speakers, { id, name }] }, id };
}

/** Rename a speaker everywhere (names live in one place; segments and cues refer by id). */
export function renameSpeaker<C extends DocumentContent>(content: C, speakerId: string, name: string): C {
  requireSpeaker(content, speakerId);
  return { ...content, speakers: content.speakers.map((s) => (s.id === speakerId ? { ...s, name } : s)) };
}

/** Merge speaker `fromId` into `intoId`: everything `fromId` said is now `intoId`'s; `fromId` goes. */
export function mergeSpeakers<C extends DocumentContent>(content: C, intoId: string, fromId: string): C {
  requireSpeaker(content, intoId);
  requireSpeaker(content, fromId);
  if (intoId === fromId) return content;
  const speakers = content.speakers.filter((s) => s.id !== fromId);
  const re = (id: string | null | undefined) => (id === fromId ? intoId : id);
  if (content.kind === 'transcript') {
    return { ...content, speakers, segments: content.segments.map((s) => ({ ...s, speaker_id: re(s.speaker_id) ?? null })) };
  }
  return { ...content, speakers, cues: content.cues.map((c) => ({ ...c, speaker_id: re(c.speaker_id) })) };
}

/**
 * Two names for one person, made one in a single edit (one undo step): `fromId` merges into
 * `intoId`, which then carries `name` (when given and not blank) everywhere it is referred to.
 */
export function mergeSpeakersAs<C extends DocumentContent>(content: C, intoId: string, fromId: string, name?: string): C {
  if (intoId === fromId) throw new EditError('choose two different speakers to merge');
  const merged = mergeSpeakers(content, intoId, fromId);
  const clean = name?.trim();
  return clean ? renameSpeaker(merged, intoId, clean) : merged;
}

/** Assign one segment (or cue) to a speaker, or to nobody with null. */
export function assignSpeaker<C extends DocumentContent>(content: C, itemId: string, speakerId: string | null): C {
  if (speakerId !== null) requireSpeaker(content, speakerId);
  if (content.kind === 'transcript') {
    if (!content.segments.some((s) => s.id === itemId)) throw new EditError(`no segment with id "${itemId}"`);
    return { ...content, segments: content.segments.map((s) => (s.id === itemId ? { ...s, speaker_id: speakerId } : s)) };
  }
  if (!content.cues.some((c) => c.id === itemId)) throw new EditError(`no cue with id "${itemId}"`);
  return { ...content, cues: content.cues.map((c) => (c.id === itemId ? { ...c, speaker_id: speakerId } : c)) };
}
