/**
 * The badge on a conflict copy's tab. A click on it opens the side-by-side view straight away
 * (the tab's own click would open the copy in the editor, whose notice offers the same by keyboard).
 */
export function ConflictCopyBadge({ onOpen }: { onOpen: () => void }) {
  return (
    <span
      className="badge warn conflict-badge"
      title="A conflict copy: click to compare it with the original and resolve"
      onClick={(e) => {
        e.stopPropagation();
        onOpen();
      }}
    >
      conflict copy
    </span>
  );
}
