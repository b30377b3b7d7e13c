import { useEffect, useState } from 'react';
import type { ImportItem } from '../../../common/ipc';
import { subscribe } from '../lib/bridge';
import { modalOpen } from '../lib/keys';
import { useCommand } from '../ui/useCommand';
import { NewTranscriptionDialog } from './NewTranscriptionDialog';
import { pickedFromFile, pickedFromPath, pickedKey, readDrop, type Picked } from './pickedFiles';
import { onNewTranscriptionRequest, requestNewTranscription } from './requests';
import './imports.css';

const carriesFiles = (e: DragEvent) => e.dataTransfer?.types.includes('Files') ?? false;

/**
 * Everything that starts a new transcription, mounted once in the shell: Ctrl/Cmd+N, the app
 * menu's command, a drop of files or folders anywhere on the window (with a visible overlay while
 * dragging), and the dialog they open. Drops while the dialog is open add to its files.
 */
export function ImportLayer({ onQueued }: { onQueued: (items: ImportItem[]) => void }) {
  const [open, setOpen] = useState(false);
  const [files, setFiles] = useState<Picked[]>([]);
  const [leftOut, setLeftOut] = useState(0);
  const [dragging, setDragging] = useState(false);
  // A caption file the system opened: the dialog starts over in upload mode with it.
  const [captions, setCaptions] = useState<{ picked: Picked; key: number } | null>(null);

  // Files the system asked the app to open (an associated file double-clicked, "Open with").
  useEffect(
    () =>
      subscribe('app.openFiles', (opened) => {
        setFiles((now) => {
          const known = new Set(now.map(pickedKey));
          return [...now, ...opened.media.map(pickedFromPath).filter((p) => !known.has(pickedKey(p)))];
        });
        if (opened.captions) setCaptions({ picked: pickedFromPath(opened.captions), key: Date.now() });
        setOpen(true);
      }),
    [],
  );

  useEffect(
    () =>
      onNewTranscriptionRequest((r) => {
        setFiles((now) => {
          const known = new Set(now.map(pickedKey));
          return [...now, ...r.files.map(pickedFromFile).filter((p) => !known.has(pickedKey(p)))];
        });
        setLeftOut((n) => n + r.leftOut);
        setOpen(true);
      }),
    [],
  );

  // The menu's command too waits while another dialog is open.
  useCommand('newTranscription', 'new-transcription', () => !modalOpen() && requestNewTranscription());

  useEffect(() => {
    // dragenter/dragleave fire for every child crossed: count them to know when the drag left the window.
    let depth = 0;
    const enter = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      e.preventDefault();
      depth++;
      setDragging(true);
    };
    const over = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      // Without this the browser (or Electron) opens the dropped file in place of the app.
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
    };
    const leave = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDragging(false);
    };
    const drop = (e: DragEvent) => {
      if (!carriesFiles(e) || !e.dataTransfer) return;
      e.preventDefault();
      depth = 0;
      setDragging(false);
      void readDrop(e.dataTransfer).then((dropped) => {
        if (dropped.files.length || dropped.leftOut) requestNewTranscription(dropped);
      });
    };
    document.addEventListener('dragenter', enter);
    document.addEventListener('dragover', over);
    document.addEventListener('dragleave', leave);
    document.addEventListener('drop', drop);
    return () => {
      document.removeEventListener('dragenter', enter);
      document.removeEventListener('dragover', over);
      document.removeEventListener('dragleave', leave);
      document.removeEventListener('drop', drop);
    };
  }, []);

  const close = () => {
    setOpen(false);
    setFiles([]);
    setLeftOut(0);
    setCaptions(null);
  };

  return (
    <>
      {dragging && (
        <div className="drop-overlay" aria-hidden="true">
          <div className="drop-target">
            <strong>Drop to transcribe</strong>
            <span>Files or whole folders of audio and video</span>
          </div>
        </div>
      )}
      {open && (
        <NewTranscriptionDialog
          key={captions?.key ?? 0}
          captions={captions?.picked ?? null}
          files={files}
          leftOut={leftOut}
          onFiles={setFiles}
          onClose={close}
          onQueued={(items) => {
            close();
            onQueued(items);
          }}
        />
      )}
    </>
  );
}
