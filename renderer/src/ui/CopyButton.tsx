import { useState } from 'react';

/** Copies `text` to the clipboard and says so. */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [done, setDone] = useState<string | null>(null);
  return (
    <>
      <button
        type="button"
        onClick={() =>
          navigator.clipboard.writeText(text).then(
            () => setDone('Copied.'),
            () => setDone('The clipboard is not available here: select the text and copy it.'),
          )
        }
      >
        {label}
      </button>
      <span className="muted small" role="status">
        {done}
      </span>
    </>
  );
}
