/**
 * What the crash test asserts about one lane, from the steps its children announced (WILL) and
 * acknowledged (ACK): acknowledged changes are never lost, and none is applied twice. A step
 * announced but not acknowledged may or may not have been recorded before the kill.
 */
import type { Step } from './crash-child';

export interface LoggedStep {
  step: Step;
  acked: boolean;
}

export interface ServiceView {
  mainText: string;
  mainFilename: string;
  originalFilename: string;
  docs: { id: string; filename: string }[];
}

export interface OutboxView {
  entries: { document_id: string; op: string; payload: string }[];
  /** local id -> service id, for copies made here. */
  aliases: Map<string, string>;
}

const named = (view: ServiceView, filename: string) => view.docs.filter((d) => d.filename === filename).length;

/** Filenames a later announced step may have deleted. */
function deletedAfter(log: LoggedStep[], index: number, filename: string): boolean {
  return log.slice(index + 1).some((l) => l.step.op === 'delete' && l.step.filename === filename);
}

function lastAckedRename(log: LoggedStep[]): { index: number; filename: string } | null {
  for (let i = log.length - 1; i >= 0; i--) {
    const l = log[i];
    if (l.acked && l.step.op === 'rename') return { index: i, filename: l.step.filename };
  }
  return null;
}

/** Before a clean sync: every acknowledged change is on the service or still in the outbox. */
export function lostChanges(log: LoggedStep[], service: ServiceView, outbox: OutboxView): string[] {
  const problems: string[] = [];
  const queued = (text: string) => outbox.entries.some((e) => e.payload.includes(text));
  log.forEach(({ step, acked }, i) => {
    if (!acked) return;
    // A queued save carries the marker as its segment's id.
    if (step.op === 'save' && !service.mainText.includes(`edit ${step.marker}`) && !queued(`"${step.marker}"`)) problems.push(`save ${step.marker} lost`);
    if ((step.op === 'copy' || step.op === 'merge') && !named(service, step.filename) && !queued(`"${step.filename}"`) && !deletedAfter(log, i, step.filename)) {
      problems.push(`${step.op} ${step.filename} lost`);
    }
    if (step.op === 'delete') {
      const id = outbox.aliases.get(step.documentId) ?? step.documentId;
      const pending = outbox.entries.some((e) => e.op === 'delete' && (e.document_id === id || e.document_id === step.documentId));
      if (service.docs.some((d) => d.id === id) && !pending) problems.push(`delete of ${step.filename} lost`);
    }
  });
  const rename = lastAckedRename(log);
  if (rename) {
    const later = log.slice(rename.index + 1).some((l) => l.step.op === 'rename');
    if (service.mainFilename !== rename.filename && !queued(`"filename":"${rename.filename}"`) && !later) problems.push(`rename to ${rename.filename} lost`);
  }
  return problems;
}

/** After a clean sync (outbox empty): every acknowledged change applied, and nothing applied twice. */
export function wrongOutcomes(log: LoggedStep[], service: ServiceView, aliases: Map<string, string>): string[] {
  const problems: string[] = [];
  const markers = service.mainText.split('\n').filter((l) => l.startsWith('edit '));
  if (new Set(markers).size !== markers.length) problems.push('a save was applied twice');
  log.forEach(({ step, acked }, i) => {
    if (step.op === 'save' && acked && !markers.includes(`edit ${step.marker}`)) problems.push(`save ${step.marker} missing`);
    if (step.op === 'copy' || step.op === 'merge') {
      const n = named(service, step.filename);
      if (n > 1) problems.push(`${step.op} ${step.filename} applied ${n} times`);
      if (acked && n === 0 && !deletedAfter(log, i, step.filename)) problems.push(`${step.op} ${step.filename} missing`);
    }
    if (step.op === 'delete' && acked && service.docs.some((d) => d.id === (aliases.get(step.documentId) ?? step.documentId))) problems.push(`${step.filename} not deleted`);
  });
  const rename = lastAckedRename(log);
  const allowed = rename
    ? [rename.filename, ...log.slice(rename.index + 1).flatMap((l) => (l.step.op === 'rename' ? [l.step.filename] : []))]
    : [service.originalFilename, ...log.flatMap((l) => (l.step.op === 'rename' ? [l.step.filename] : []))];
  if (!allowed.includes(service.mainFilename)) problems.push(`main document is named ${service.mainFilename}, expected one of ${allowed.join(', ')}`);
  return problems;
}
