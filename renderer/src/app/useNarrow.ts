import { useEffect, useState } from 'react';

/** Below this width the sidebar overlays the content and the top bar folds into a menu (app.css agrees). */
export const NARROW_QUERY = '(max-width: 1099px)';

/** Whether the window is narrow now; follows resizes and zoom. */
export function useNarrow(): boolean {
  const [narrow, setNarrow] = useState(() => matchMedia(NARROW_QUERY).matches);
  useEffect(() => {
    const mq = matchMedia(NARROW_QUERY);
    const on = () => setNarrow(mq.matches);
    mq.addEventListener('change', on);
    return () => mq.removeEventListener('change', on);
  }, []);
  return narrow;
}
