import { useEffect, useMemo, useRef, useState } from 'react';
import type { ConflictPair } from '../../../../common/ipc';
import { undecided, wordDiff, type ConflictSide, type DiffPart } from '../../../../common/transcript/conflict-pair';
import { call } from '../../lib/bridge';
import { clock } from '../../lib/format';
import { useAction } from '../../lib/useAction';
import { useCacheChanged, useChannel } from '../../lib/useChannel';
import './conflicts.css';

type Row = ConflictPair['rows'][number];
type Choices = Record<string, ConflictSide>;

/**
 * A conflict copy beside its original, segment by segment: for each segment that differs the
 * user keeps theirs (the original, as the service has it) or mine (the copy); Apply writes the
 * picks into the original and deletes the copy. If either document changes while the view is
 * open, it says so (Apply would be refused) and "Compare again" reads the pair anew, keeping the
 * picks of the rows that did not change.
 */
export function ConflictView({ documentId, onClose }: { documentId: string; onClose: (openDocumentId?: string) => void }) {
  const read = useChannel('conflicts.get', { documentId });
  const pair = read.value;
  const last = useRef<Picked>({ rows: [], choices: {} });
  if (read.error) return <Frame onClose={onClose}><p className="error" role="alert">{read.error}</p></Frame>;
  if (!pair) return <Frame onClose={onClose}>{read.loading ? <div className="loading">Loading…</div> : <p className="muted">This conflict is resolved (or the copy is gone).</p>}</Frame>;
  return <PairView key={pair.version} pair={pair} last={last} onReload={read.reload} onClose={onClose} />;
}

interface Picked {
  rows: Row[];
  choices: Choices;
}

/** The picks of a former reading that still apply: rows that differ now exactly as they did then. */
function carried(last: Picked, rows: Row[]): Choices {
  const before = new Map(last.rows.map((r) => [r.id, JSON.stringify(r)]));
  return Object.fromEntries(rows.filter((r) => r.status === 'differs' && last.choices[r.id] && before.get(r.id) === JSON.stringify(r)).map((r) => [r.id, last.choices[r.id]]));
}

function Frame({ onClose, children }: { onClose: () => void; children: React.ReactNode }) {
  return (
    <section className="conflict-view" aria-label="Resolve conflict">
      <div className="toolbar"><button type="button" onClick={() => onClose()}>Back to the editor</button></div>
      {children}
    </section>
  );
}

function PairView({ pair, last, onReload, onClose }: { pair: ConflictPair; last: React.RefObject<Picked>; onReload: () => void; onClose: (openDocumentId?: string) => void }) {
  const [choices, setChoices] = useState<Choices>(() => carried(last.current, pair.rows));
  useEffect(() => {
    last.current = { rows: pair.rows, choices };
  }, [last, pair.rows, choices]);
  const [showEqual, setShowEqual] = useState(false);
  const action = useAction();
  const differing = useMemo(() => pair.rows.filter((r) => r.status === 'differs'), [pair]);
  const left = undecided(pair.rows, choices).length;
  const equalCount = pair.rows.length - differing.length;
  const unit = pair.kind === 'caption' ? 'cue' : 'segment';
  const all = (side: ConflictSide) => setChoices(Object.fromEntries(differing.map((r) => [r.id, side])));
  const apply = () =>
    action.run(async () => {
      const r = await call('conflicts.resolve', { copyId: pair.copyId, version: pair.version, choices });
      onClose(r.documentId);
    });
  // Either document changed (a sync, another window): Apply would be refused, so say so now.
  // Only a change to one of the two is asked about: others cannot change the pair's version.
  const [outdated, setOutdated] = useState(false);
  useCacheChanged(
    () => void call('conflicts.get', { documentId: pair.copyId }).then((now) => now?.version !== pair.version && setOutdated(true), () => {}),
    (c) => !!c.documents?.some((id) => id === pair.copyId || id === pair.originalId),
  );
  const stale = outdated || (action.problem !== null && /changed since/.test(action.problem));
  // Keyboard and screen reader users start at the title, which says where they are.
  const title = useRef<HTMLHeadingElement>(null);
  useEffect(() => title.current?.focus(), []);

  return (
    <section className="conflict-view" aria-labelledby="conflict-title">
      <header className="conflict-head">
        <h2 id="conflict-title" ref={title} tabIndex={-1}>Resolve conflict</h2>
        <p className="muted small">
          Some {unit}s were changed both here and elsewhere. The other version (theirs) stayed in <strong>{pair.originalFilename}</strong>; yours went into the copy{' '}
          <strong>{pair.copyFilename}</strong>. Pick the version to keep for each {unit} that differs; Apply puts your picks into the original and deletes the copy.
        </p>
        <div className="toolbar conflict-actions">
          <button type="button" className="primary" onClick={() => void apply()} disabled={left > 0 || action.busy} aria-describedby="conflict-left">
            Apply
          </button>
          <button type="button" onClick={() => all('theirs')}>Keep all theirs</button>
          <button type="button" onClick={() => all('ours')}>Keep all mine</button>
          <span id="conflict-left" className={left ? 'conflict-left' : 'conflict-left all-decided'} role="status">
            {left ? `${left} of ${differing.length} undecided` : `All ${differing.length} decided`}
          </span>
          <span className="spacer" />
          {equalCount > 0 && (
            <label className="check small">
              <input type="checkbox" checked={showEqual} onChange={(e) => setShowEqual(e.target.checked)} /> Show {equalCount} unchanged
            </label>
          )}
          <button type="button" onClick={() => onClose()}>Cancel</button>
        </div>
        {(action.problem || outdated) && (
          <p className="error" role="alert">
            {action.problem ?? 'The document or its conflict copy changed since you opened the comparison.'}
            {stale && (
              <>
                {' '}
                <button type="button" className="link" onClick={onReload}>Compare again</button>
              </>
            )}
          </p>
        )}
      </header>
      <div className="conflict-columns" aria-hidden="true">
        <span>Theirs · {pair.originalFilename}</span>
        <span>Mine · {pair.copyFilename}</span>
      </div>
      <ol className="conflict-rows" aria-label={`${unit === 'cue' ? 'Cues' : 'Segments'} of the two versions`}>
        {pair.rows.map((r) =>
          r.status === 'equal' ? (
            showEqual && <EqualRow key={r.id} row={r} />
          ) : (
            <DiffRow key={r.id} row={r} unit={unit} choice={choices[r.id]} onPick={(side) => setChoices((c) => ({ ...c, [r.id]: side }))} />
          ),
        )}
      </ol>
      {differing.length === 0 && <p className="muted">The two versions are the same: Apply deletes the copy.</p>}
    </section>
  );
}

function EqualRow({ row }: { row: Row }) {
  const u = row.theirs!;
  return (
    <li className="conflict-row equal">
      <span className="conflict-time">{clock(u.start_ms)}</span>
      <span className="conflict-equal-text">{u.speaker && <b>{u.speaker}: </b>}{u.text}</span>
      <span className="muted small">same in both</span>
    </li>
  );
}

function DiffRow({ row, unit, choice, onPick }: { row: Row; unit: string; choice: ConflictSide | undefined; onPick: (side: ConflictSide) => void }) {
  const diff = useMemo(() => wordDiff(row.theirs?.text ?? '', row.ours?.text ?? ''), [row]);
  const start = (row.theirs ?? row.ours)!.start_ms;
  const headId = `conflict-${row.id}`;
  const why = !row.theirs ? 'only in mine' : !row.ours ? 'only in theirs' : row.bothChanged ? 'changed on both sides' : 'changed on one side';
  // Same words, other timing or speaker: say what differs, since no word is marked.
  const sameWords = !!row.theirs && !!row.ours && row.theirs.text === row.ours.text;
  const what = !sameWords ? null : row.theirs!.speaker !== row.ours!.speaker ? 'other speaker' : 'same words, other timing';
  return (
    <li className={`conflict-row differs${choice ? ' decided' : ''}`}>
      <div className="conflict-row-head" id={headId}>
        {unit === 'cue' ? 'Cue' : 'Segment'} at {clock(start)} <span className={row.bothChanged ? 'badge warn' : 'badge'}>{why}</span>
        {what && <span className="badge">{what}</span>}
        {!choice && <span className="visually-hidden">, undecided</span>}
      </div>
      <div className="conflict-pair" role="radiogroup" aria-labelledby={headId}>
        <Side side="theirs" label="Keep theirs" row={row} unit={unit} parts={diff.a} chosen={choice} onPick={onPick} />
        <Side side="ours" label="Keep mine" row={row} unit={unit} parts={diff.b} chosen={choice} onPick={onPick} />
      </div>
    </li>
  );
}

function Side({ side, label, row, unit, parts, chosen, onPick }: { side: ConflictSide; label: string; row: Row; unit: string; parts: DiffPart[]; chosen: ConflictSide | undefined; onPick: (side: ConflictSide) => void }) {
  const u = side === 'theirs' ? row.theirs : row.ours;
  const state = chosen === undefined ? '' : chosen === side ? ' kept' : ' dropped';
  return (
    <label className={`conflict-side ${side}${state}`}>
      <span className="conflict-pick">
        <input type="radio" name={`pick-${row.id}`} value={side} checked={chosen === side} onChange={() => onPick(side)} />
        {label}
      </span>
      {u ? (
        <span className="conflict-text">
          {u.speaker && <b>{u.speaker}: </b>}
          {parts.map((p, i) => (p.changed ? <mark key={i}>{p.text}</mark> : <span key={i}>{p.text}</span>))}
          {!u.text && <em className="muted">(no words)</em>}
        </span>
      ) : (
        <em className="conflict-text muted">Not in this version: keeping this side removes the {unit}.</em>
      )}
    </label>
  );
}
