import { useMediaQuery } from '../lib/useMediaQuery';

/** Below this width the sidebar overlays the content and the top bar folds into a menu (app.css agrees). */
export const NARROW_QUERY = '(max-width: 1099px)';

/** Whether the window is narrow now. */
export const useNarrow = (): boolean => useMediaQuery(NARROW_QUERY);
