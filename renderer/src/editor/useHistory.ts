import { useCallback, useMemo, useReducer, useRef } from 'react';

/** One state in the history, with what made it (for "Undo split segment"). */
interface Entry<T> {
  value: T;
  label: string;
}

const LIMIT = 200;

export interface History<T> {
  present: T | null;
  /** The newest value even inside an event handler that ran before React re-rendered. */
  latest(): T | null;
  /** The value last loaded or saved. */
  saved(): T | null;
  dirty: boolean;
  undoLabel: string | null;
  redoLabel: string | null;
  /** A new state from an edit; clears what could be redone. */
  push(value: T, label: string): void;
  undo(): string | null;
  redo(): string | null;
  /** A fresh start from a loaded document: no history, nothing unsaved. */
  reset(value: T): void;
  /** `value` is what is now stored; dirty compares against it, so undoing back to it is clean. */
  markSaved(value: T): void;
}

/**
 * An undo/redo stack of whole values. Values are immutable document contents, so keeping each
 * one is cheap (unchanged segments are shared) and undo can never disagree with what was shown.
 * The stack lives in a ref so that save reads the newest value synchronously.
 */
export function useHistory<T>(): History<T> {
  const past = useRef<Entry<T>[]>([]);
  const future = useRef<Entry<T>[]>([]);
  const present = useRef<Entry<T> | null>(null);
  const saved = useRef<T | null>(null);
  const [, render] = useReducer((n: number) => n + 1, 0);

  const push = useCallback((value: T, label: string) => {
    if (present.current?.value === value) return;
    if (present.current) past.current = [...past.current.slice(-(LIMIT - 1)), present.current];
    present.current = { value, label };
    future.current = [];
    render();
  }, []);
  const undo = useCallback(() => {
    const prev = past.current.at(-1);
    if (!prev || !present.current) return null;
    const undone = present.current;
    future.current = [...future.current, undone];
    past.current = past.current.slice(0, -1);
    present.current = prev;
    render();
    return undone.label;
  }, []);
  const redo = useCallback(() => {
    const next = future.current.at(-1);
    if (!next) return null;
    if (present.current) past.current = [...past.current, present.current];
    future.current = future.current.slice(0, -1);
    present.current = next;
    render();
    return next.label;
  }, []);
  const reset = useCallback((value: T) => {
    past.current = [];
    future.current = [];
    present.current = { value, label: 'open' };
    saved.current = value;
    render();
  }, []);
  const markSaved = useCallback((value: T) => {
    saved.current = value;
    render();
  }, []);
  const latest = useCallback(() => present.current?.value ?? null, []);
  const savedValue = useCallback(() => saved.current, []);

  const value = present.current?.value ?? null;
  const undoLabel = past.current.length ? (present.current?.label ?? null) : null;
  const redoLabel = future.current.at(-1)?.label ?? null;
  const dirty = value !== null && value !== saved.current;
  return useMemo(
    () => ({ present: value, latest, saved: savedValue, dirty, undoLabel, redoLabel, push, undo, redo, reset, markSaved }),
    [value, latest, savedValue, dirty, undoLabel, redoLabel, push, undo, redo, reset, markSaved],
  );
}
