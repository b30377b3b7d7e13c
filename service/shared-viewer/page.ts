/**
 * The shared-link viewer's HTML, rendered on the service: the document as text (segments with
 * their speakers and times, or cues), the kept media, and only the controls the link allows.
 * Everything is escaped here; the page's script (./assets.ts) only wires what is already there.
 */
import { CAPTION_FORMATS, TRANSCRIPT_FORMATS } from '../../common/api';
import { escapeXml } from '../../common/formats/text';
import type { DocumentBody } from '../../common/transcript/model';

export interface ViewerModel {
  filename: string;
  kind: 'transcript' | 'caption';
  body: DocumentBody;
  etag: string;
  /** The shared document API path (…/document/{id}/shared), without the token. */
  apiPath: string;
  token: string;
  allowEditing: boolean;
  allowExport: boolean;
  /** A signed path to the kept media, when the session kept it. */
  mediaPath: string | null;
  expires: string;
}

/** The export writers' escape (text and attribute values alike). */
const esc = escapeXml;

function clock(ms: number): string {
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(h ? 2 : 1, '0');
  return `${h ? `${h}:` : ''}${mm}:${String(s % 60).padStart(2, '0')}`;
}

function shell(title: string, main: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${esc(title)}</title>
<link rel="stylesheet" href="/shared-viewer/viewer.css">
</head>
<body>
${main}
</body>
</html>
`;
}

function rows(m: ViewerModel): string {
  const editable = m.allowEditing ? ' contenteditable="plaintext-only" spellcheck="true"' : '';
  const c = m.body.content;
  if (c.kind === 'transcript') {
    const names = new Map(c.speakers.map((s) => [s.id, s.name]));
    return c.segments
      .map((s, i) => {
        const who = s.speaker_id ? names.get(s.speaker_id) : undefined;
        return `<li class="row"><button type="button" class="time" data-start="${s.start_ms}" aria-label="Play from ${clock(s.start_ms)}">${clock(s.start_ms)}</button>${
          who ? `<span class="speaker">${esc(who)}</span>` : ''
        }<p class="text" data-index="${i}" aria-label="Segment at ${clock(s.start_ms)}"${editable}>${esc(s.words.map((w) => w.text).join(' '))}</p></li>`;
      })
      .join('\n');
  }
  return c.cues
    .map(
      (q, i) =>
        `<li class="row"><button type="button" class="time" data-start="${q.start_ms}" aria-label="Play from ${clock(q.start_ms)}">${clock(q.start_ms)}–${clock(q.end_ms)}</button><p class="text cue" data-index="${i}" aria-label="Caption at ${clock(q.start_ms)}"${editable}>${esc(q.lines.join('\n'))}</p></li>`,
    )
    .join('\n');
}

function exportBar(m: ViewerModel): string {
  if (!m.allowExport) return '<p class="note" id="export-note">This link does not allow export.</p>';
  const formats = m.kind === 'caption' ? CAPTION_FORMATS : TRANSCRIPT_FORMATS;
  const links = formats
    .map((f) => `<a class="button" download href="${esc(`${m.apiPath}/export/${f}?token=${encodeURIComponent(m.token)}`)}">${f.toUpperCase()}</a>`)
    .join(' ');
  return `<nav class="exports" aria-label="Download"><span>Download as</span> ${links}</nav>`;
}

/** The last day in words (December 24, 2026): the page is in English, and 2026-12-24 reads as a code. */
function untilDay(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso.slice(0, 10) : d.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
}

export function viewerPage(m: ViewerModel): string {
  const what = m.kind === 'caption' ? 'Shared captions' : 'Shared transcript';
  const summary = m.body.content.kind === 'transcript' ? m.body.content.summary : undefined;
  const rights = m.allowEditing ? 'You can read and edit this document: click any line to change it, then save.' : 'Read only: this link does not allow editing.';
  const main = `<main id="viewer" data-api="${esc(m.apiPath)}" data-etag="${esc(m.etag)}" data-kind="${m.kind}" data-edit="${m.allowEditing}">
<header>
<p class="eyebrow">${what}</p>
<h1>${esc(m.filename)}</h1>
<p class="rights" id="rights">${rights} <span class="expires">The link works until ${esc(untilDay(m.expires))}.</span></p>
</header>
${m.mediaPath ? `<audio controls preload="metadata" src="${esc(m.mediaPath)}"></audio>` : '<p class="note">No recording was kept with this document.</p>'}
<div class="toolbar">
${exportBar(m)}
${m.allowEditing ? '<button type="button" id="save" class="primary" disabled>Save changes</button>' : ''}
</div>
<p id="status" role="status" aria-live="polite"></p>
${summary ? `<section class="summary" aria-label="Summary"><h2>Summary</h2><p>${esc(summary)}</p></section>` : ''}
<ol class="document">
${rows(m)}
</ol>
</main>
<script src="/shared-viewer/viewer.js"></script>`;
  return shell(`${m.filename} · ${what}`, main);
}

const EXPIRED_TITLE = 'This link has expired';

/**
 * The notice for a revoked, expired or unknown link, one text for both places that show it: the
 * server's page and the script, when a save finds the link gone (`afterwards` says what became of the edits).
 */
export function expiredNotice(afterwards = ''): { title: string; html: string } {
  const text = `The link you opened has expired or was withdrawn by the person who shared it. Ask them for a new link.${afterwards ? ` ${afterwards}` : ''}`;
  return { title: EXPIRED_TITLE, html: `<main class="expired" id="expired"><h1>${EXPIRED_TITLE}</h1><p>${esc(text)}</p></main>` };
}

/** Too many wrong links tried from this address: a short wait, said in words. */
export function tooManyPage(): string {
  const title = 'Too many tries';
  return shell(title, `<main class="expired"><h1>${title}</h1><p>${esc('Too many links that do not work were opened from this network. Wait a few minutes, then open your link again.')}</p></main>`);
}

/** A revoked, expired or unknown link: it says so, and nothing else happens (no one is signed out). */
export function expiredPage(): string {
  const { title, html } = expiredNotice();
  return shell(title, html);
}
