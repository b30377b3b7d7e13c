import { useMediaQuery } from '../lib/useMediaQuery';

/**
 * Short or narrow windows (800x600, or 1280x800 at 200% zoom: 640x400), where the editor folds its
 * document actions into one menu and starts with the caption problems collapsed, so the document
 * keeps at least half the height. editor.css and captions.css use the same query.
 */
export const COMPACT_EDITOR_QUERY = '(max-height: 700px), (max-width: 899px)';

/** Whether the editor is compact now. */
export const useCompactEditor = (): boolean => useMediaQuery(COMPACT_EDITOR_QUERY);
