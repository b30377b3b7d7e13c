import { useState, type ReactNode } from 'react';
import { FolderBrowser } from '../ui/FolderBrowser';
import { hasNativeDialogs, openNative } from './nativeDialogs';

/**
 * "Choose folder…": the native folder dialog in the Electron app, the folder browser in browser
 * mode. Render `browser` where the view renders its dialogs; `choose` opens whichever there is.
 */
export function useFolderChooser(onChosen: (path: string) => void, title = 'Choose a folder'): { choose: () => Promise<void>; browser: ReactNode } {
  const [browsing, setBrowsing] = useState(false);
  async function choose() {
    if (!hasNativeDialogs()) return setBrowsing(true);
    const paths = await openNative('folder', false);
    if (paths?.[0]) onChosen(paths[0]);
  }
  const browser = browsing ? <FolderBrowser title={title} onChoose={onChosen} onClose={() => setBrowsing(false)} /> : null;
  return { choose, browser };
}
