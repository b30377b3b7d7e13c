/**
 * electron-updater's Linux (.deb) updater with its Node-side pieces: the app as plain values and
 * HTTP over Node. It checks, reads the notes, downloads and verifies exactly as in the installed
 * app; only the executor and the app adapter differ.
 */
import { DebUpdater } from 'electron-updater';
import type { AppAdapter } from 'electron-updater/out/AppAdapter';
import { NodeHttpExecutor } from './node-http-executor';

export function nodeUpdater(feedUrl: string, app: AppAdapter): DebUpdater {
  const updater = new DebUpdater(null, app);
  // electron-updater leaves the executor unset when it is given an app adapter of its caller's;
  // the feed's provider takes the executor when it is made, so the feed comes after.
  (updater as unknown as { httpExecutor: NodeHttpExecutor }).httpExecutor = new NodeHttpExecutor();
  updater.setFeedURL({ provider: 'generic', url: feedUrl });
  updater.logger = null;
  return updater;
}
