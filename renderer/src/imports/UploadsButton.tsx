import { isActive, useImportItems } from './useImportItems';

/** The header's "Uploads" toggle, with how many uploads are still under way. */
export function UploadsButton({ pressed, onClick }: { pressed: boolean; onClick: () => void }) {
  const { items } = useImportItems();
  const active = items.filter(isActive).length;
  return (
    <button type="button" className={`link uploads-button ${pressed ? 'active' : ''}`} aria-pressed={pressed} onClick={onClick}>
      Uploads
      {active > 0 && (
        <span className="badge">
          {active}
          <span className="visually-hidden"> under way</span>
        </span>
      )}
    </button>
  );
}
