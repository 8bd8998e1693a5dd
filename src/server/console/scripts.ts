/**
 * The console's script files, served at /console/assets/<name>: plain ES2017 that every browser
 * runs as it is (no build step, no framework). Only pages that declare one load it, under a policy
 * that allows same-origin script files and nothing inline; each page works without its script.
 */

/**
 * The Requests page's live tail: an EventSource on the tail the page names in data-tail (the
 * session cookie goes with it, as it is same-origin), each new line put at the top of the table.
 * Text only: every value goes in with textContent, never as markup.
 */
const REQUESTS_JS = `'use strict';
(function () {
  var live = document.getElementById('live');
  var rows = document.getElementById('live-rows');
  var note = document.getElementById('live-note');
  if (!live || !rows || !note || typeof window.EventSource !== 'function') return;
  /** The table keeps this many rows; older ones drop off the bottom. */
  var MAX_ROWS = 500;
  var source = new EventSource(live.getAttribute('data-tail'));

  function cell(tr, text, className) {
    var td = document.createElement('td');
    if (className) td.className = className;
    td.textContent = text;
    tr.appendChild(td);
    return td;
  }
  function wrapped(tr, tag, text, className, cellClass) {
    var el = document.createElement(tag);
    if (className) el.className = className;
    el.textContent = text;
    cell(tr, '', cellClass).appendChild(el);
    return el;
  }

  source.addEventListener('ready', function () {
    live.setAttribute('data-state', 'live');
    note.textContent = 'Live: new requests appear at the top as they are answered.';
  });
  source.addEventListener('request', function (event) {
    var line;
    try {
      line = JSON.parse(event.data);
    } catch (err) {
      return;
    }
    var tr = document.createElement('tr');
    wrapped(tr, 'time', String(line.time).slice(11, 19)).setAttribute('datetime', String(line.time));
    wrapped(tr, 'span', String(line.status), 'http http-' + String(line.status).charAt(0) + 'xx');
    cell(tr, String(line.method));
    wrapped(tr, 'code', String(line.path), '', 'wrap');
    wrapped(tr, 'span', String(line.duration_ms) + ' ms', 'num');
    if (line.key_id) wrapped(tr, 'code', String(line.key_id));
    else cell(tr, '—');
    wrapped(tr, 'code', String(line.request_id));
    rows.insertBefore(tr, rows.firstChild);
    while (rows.children.length > MAX_ROWS) rows.removeChild(rows.lastChild);
    var empty = document.getElementById('live-empty');
    if (empty) empty.parentNode.removeChild(empty);
  });
  source.addEventListener('error', function () {
    live.setAttribute('data-state', source.readyState === EventSource.CLOSED ? 'closed' : 'reconnecting');
    note.textContent = source.readyState === EventSource.CLOSED
      ? 'The live log has stopped: refresh the page to see newer requests.'
      : 'The live log was interrupted; reconnecting…';
  });
})();
`;

export const CONSOLE_SCRIPTS: Readonly<Record<string, string>> = { 'requests.js': REQUESTS_JS };
