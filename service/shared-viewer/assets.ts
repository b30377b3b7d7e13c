/**
 * The viewer page's script and style, served from the service itself (the CSP allows 'self' only).
 * The script is plain ES2020 with no imports: it plays from a segment's time, and where the link
 * allows editing it saves through the shared document API with the link's token and If-Match.
 * A segment whose word count is unchanged keeps its word times; otherwise its words share the
 * segment's span by length (the app's editor re-aligns by diff; this page carries no libraries).
 */
import { expiredNotice } from './page';

const EXPIRED = expiredNotice('Your unsaved changes were not saved.');

export const VIEWER_JS = String.raw`(function () {
  'use strict';
  var root = document.getElementById('viewer');
  if (!root) return;
  var token = new URLSearchParams(location.search).get('token') || '';
  var api = root.dataset.api + '?token=' + encodeURIComponent(token);
  var status = document.getElementById('status');
  var audio = document.querySelector('audio');
  var saveButton = document.getElementById('save');
  var etag = root.dataset.etag;
  var dirty = new Set();

  function say(text, kind) {
    status.textContent = text;
    status.className = kind || '';
  }

  function expired() {
    document.title = ${JSON.stringify(EXPIRED.title)};
    root.outerHTML = ${JSON.stringify(EXPIRED.html)};
  }

  document.querySelectorAll('button.time').forEach(function (b) {
    b.addEventListener('click', function () {
      if (!audio) return;
      audio.currentTime = Number(b.dataset.start) / 1000;
      void audio.play().catch(function () {});
    });
  });

  if (root.dataset.edit !== 'true' || !saveButton) return;

  document.querySelectorAll('.text[contenteditable]').forEach(function (el) {
    el.addEventListener('input', function () {
      dirty.add(Number(el.dataset.index));
      saveButton.disabled = false;
      say('Unsaved changes.');
    });
  });

  window.addEventListener('beforeunload', function (e) {
    if (dirty.size > 0) e.preventDefault();
  });

  function words(old, text, start, end) {
    var tokens = text.split(/\s+/).filter(Boolean);
    if (tokens.length === old.length) return old.map(function (w, i) { return Object.assign({}, w, { text: tokens[i] }); });
    var total = tokens.reduce(function (n, t) { return n + Math.max(1, t.length); }, 0);
    var span = Math.max(0, end - start);
    var acc = 0;
    return tokens.map(function (t) {
      var s = start + Math.round((span * acc) / total);
      acc += Math.max(1, t.length);
      return { text: t, start_ms: s, end_ms: start + Math.round((span * acc) / total), confidence: 1 };
    });
  }

  function applyEdits(body) {
    var c = body.content;
    dirty.forEach(function (i) {
      var el = document.querySelector('.text[data-index="' + i + '"]');
      if (!el) return;
      var text = el.innerText.replace(/\u00a0/g, ' ');
      if (c.kind === 'transcript') {
        var s = c.segments[i];
        s.words = words(s.words, text, s.start_ms, s.end_ms);
      } else {
        c.cues[i].lines = text.split('\n').map(function (l) { return l.trim(); }).filter(Boolean);
      }
    });
    return body;
  }

  function refused(r) {
    if (r.status === 401) { dirty.clear(); expired(); return true; }
    if (r.status === 403) { say('This link does not allow editing; nothing was saved.', 'error'); return true; }
    if (r.status === 412) { say('Someone else changed this document since you opened it. Copy your changes, then reload the page.', 'error'); return true; }
    if (!r.ok) { say('Saving failed (' + r.status + '). Try again.', 'error'); return true; }
    return false;
  }

  saveButton.addEventListener('click', function () {
    saveButton.disabled = true;
    say('Saving…');
    fetch(api, { headers: { accept: 'application/json' }, cache: 'no-store' })
      .then(function (r) {
        if (refused(r)) return null;
        if (r.headers.get('etag') !== etag) { say('Someone else changed this document since you opened it. Copy your changes, then reload the page.', 'error'); return null; }
        return r.json().then(function (doc) {
          var body = applyEdits(doc.document);
          return fetch(api, { method: 'PUT', headers: { 'content-type': 'application/json', 'if-match': etag }, body: JSON.stringify({ document: body, plain_document_changed: 'true' }) });
        });
      })
      .then(function (r) {
        if (!r || refused(r)) return;
        etag = r.headers.get('etag') || etag;
        dirty.clear();
        say('Saved.', 'ok');
      })
      .catch(function () {
        saveButton.disabled = false;
        say('The service could not be reached; your changes are still here. Try again.', 'error');
      })
      .finally(function () {
        if (dirty.size > 0 && document.getElementById('save')) saveButton.disabled = false;
      });
  });
})();
`;

export const VIEWER_CSS = `:root { color-scheme: light dark; --bg: #fbfbfa; --fg: #1d1d1f; --muted: #5f6368; --line: #dcdcdc; --accent: #1a5fb4; --accent-fg: #fff; --error: #b3261e; --ok: #1e7a34; --field: #fff; }
@media (prefers-color-scheme: dark) { :root { --bg: #1b1c1e; --fg: #ececec; --muted: #a8abb0; --line: #3a3c40; --accent: #78aeed; --accent-fg: #0b1a2c; --error: #ff8a80; --ok: #7bd88f; --field: #242528; } }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); font: 16px/1.55 system-ui, -apple-system, "Segoe UI", sans-serif; }
main { max-width: 52rem; margin: 0 auto; padding: 2rem 1.25rem 4rem; }
header h1 { margin: 0.1rem 0 0.4rem; font-size: 1.6rem; line-height: 1.25; overflow-wrap: anywhere; }
.eyebrow { margin: 0; color: var(--muted); font-size: 0.85rem; text-transform: uppercase; letter-spacing: 0.06em; }
.rights { margin: 0 0 1rem; }
.expires, .note { color: var(--muted); }
.expires { white-space: nowrap; }
audio { width: 100%; margin: 0.5rem 0 1rem; }
.toolbar { display: flex; flex-wrap: wrap; gap: 0.75rem; align-items: center; justify-content: space-between; padding: 0.75rem 0; border-top: 1px solid var(--line); border-bottom: 1px solid var(--line); }
.toolbar .note { margin: 0; }
.exports { display: flex; flex-wrap: wrap; gap: 0.4rem; align-items: center; }
.exports span { color: var(--muted); margin-right: 0.25rem; }
.button, button.primary { display: inline-block; padding: 0.35rem 0.75rem; border: 1px solid var(--line); border-radius: 6px; color: var(--fg); background: var(--field); text-decoration: none; font: inherit; font-size: 0.9rem; cursor: pointer; }
.button:hover { border-color: var(--accent); }
button.primary { background: var(--accent); color: var(--accent-fg); border-color: var(--accent); font-weight: 600; }
button.primary:disabled { opacity: 0.45; cursor: default; }
:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
#status { min-height: 1.5rem; margin: 0.5rem 0; }
#status.error { color: var(--error); font-weight: 600; }
#status.ok { color: var(--ok); }
.summary { border-left: 3px solid var(--accent); padding: 0.25rem 0 0.25rem 1rem; margin: 1rem 0; }
.summary h2 { font-size: 1rem; margin: 0 0 0.25rem; }
.document { list-style: none; margin: 0; padding: 0; }
.row { display: grid; grid-template-columns: 6.5rem 1fr; gap: 0.25rem 1rem; padding: 0.6rem 0; border-bottom: 1px solid var(--line); }
.time { align-self: start; justify-self: start; border: 0; background: none; color: var(--accent); font: inherit; font-variant-numeric: tabular-nums; font-size: 0.85rem; padding: 0.1rem 0; cursor: pointer; }
.speaker { grid-column: 2; font-weight: 600; font-size: 0.9rem; }
.text { grid-column: 2; margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; }
.text[contenteditable] { border-radius: 4px; padding: 0.1rem 0.3rem; margin: -0.1rem -0.3rem; }
.text[contenteditable]:hover { background: var(--field); box-shadow: inset 0 0 0 1px var(--line); }
.text[contenteditable]:focus { background: var(--field); }
@media (max-width: 640px) { .row { grid-template-columns: 1fr; } .speaker, .text { grid-column: 1; } }
.expired { text-align: center; padding-top: 6rem; max-width: 36rem; }
.expired h1 { font-size: 1.8rem; }
`;
