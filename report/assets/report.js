(function () {
  'use strict';
  var each = function (sel, f, root) { Array.prototype.forEach.call((root || document).querySelectorAll(sel), f); };
  var checked = 0, failed = 0;
  // Sums: each chart with data-check adds up its marks' data-v into the element of that id.
  each('[data-check]', function (chart) {
    var out = document.getElementById(chart.getAttribute('data-check'));
    if (!out) return;
    var sum = 0;
    each('[data-v]', function (mark) { sum += Number(mark.getAttribute('data-v')); }, chart);
    var text = Math.abs(sum - Math.round(sum)) <= 1e-6 * Math.max(1, Math.abs(sum)) ? String(Math.round(sum)) : sum.toPrecision(12);
    out.textContent = text;
    var expect = out.getAttribute('data-expect');
    if (expect !== null) {
      var e = Number(expect), good = Math.abs(e - sum) <= 1e-6 * Math.max(1, Math.abs(e));
      out.setAttribute('data-ok', good ? '1' : '0');
      out.className = good ? 'ok' : 'bad';
      if (good) checked++; else failed++;
      // The checks are the browser test's, hidden from readers; one that fails is shown.
      if (!good && out.parentNode) out.parentNode.hidden = false;
    }
  });
  // Topology colours: average or peak utilisation; the legend counts lanes per band.
  var colour = function (mode) {
    var counts = { idle: 0, low: 0, medium: 0, high: 0, critical: 0 };
    each('#topology-svg .lane', function (lane) {
      lane.setAttribute('stroke', lane.getAttribute('data-c-' + mode));
      counts[lane.getAttribute('data-band-' + mode)]++;
    });
    Object.keys(counts).forEach(function (k) {
      var el = document.getElementById('band-count-' + k);
      if (el) el.textContent = String(counts[k]);
    });
    each('[data-colour-mode]', function (b) { b.classList.toggle('on', b.getAttribute('data-colour-mode') === mode); });
    document.documentElement.setAttribute('data-colour-mode', mode);
  };
  each('[data-colour-mode]', function (b) { b.addEventListener('click', function () { colour(b.getAttribute('data-colour-mode')); }); });
  colour('avg');
  // Tabs: one panel at a time.
  var tabs = 0;
  each('.tabs', function (bar) {
    var buttons = bar.querySelectorAll('button[data-tab]');
    var show = function (id) {
      Array.prototype.forEach.call(buttons, function (b) {
        var on = b.getAttribute('data-tab') === id, panel = document.getElementById(b.getAttribute('data-tab'));
        b.classList.toggle('on', on);
        if (panel) panel.hidden = !on;
      });
    };
    Array.prototype.forEach.call(buttons, function (b) { b.addEventListener('click', function () { show(b.getAttribute('data-tab')); }); });
    if (buttons.length) show(buttons[0].getAttribute('data-tab'));
    tabs++;
  });
  // Sortable tables: click a header; numbers sort by their exact value.
  each('table.sortable thead th', function (th) {
    th.addEventListener('click', function () {
      var table = th.closest('table'), body = table.tBodies[0];
      var col = Array.prototype.indexOf.call(th.parentNode.children, th);
      var asc = th.getAttribute('data-dir') !== 'asc';
      each('th', function (h) { h.removeAttribute('data-dir'); }, th.parentNode);
      th.setAttribute('data-dir', asc ? 'asc' : 'desc');
      var key = function (row) {
        var cell = row.cells[col];
        if (!cell) return '';
        var s = cell.getAttribute('data-sort');
        return s !== null ? Number(s) : cell.textContent;
      };
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var x = key(a), y = key(b);
        var r = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
        return asc ? r : -r;
      });
      rows.forEach(function (r) { body.appendChild(r); });
    });
  });
  // #only-<view> shows that view alone (for links and screenshots).
  var only = /^#only-([a-z,]+)$/.exec(location.hash);
  if (only) {
    var keep = only[1].split(',');
    each('main > section', function (s) { s.hidden = keep.indexOf(s.getAttribute('data-view')) < 0; });
  }
  // Render time: force style and layout, then read the clock (ms since navigation start).
  void document.body.offsetHeight;
  var ms = performance.now();
  var set = function (id, text) { var el = document.getElementById(id); if (el) el.textContent = text; };
  set('render-ms', ms.toFixed(0));
  set('dom-nodes', String(document.getElementsByTagName('*').length));
  set('script-status', 'Interactive: ' + checked + ' chart sums checked against the tables' +
      (failed ? ', ' + failed + ' MISMATCHED' : '') + '; ' + tabs + ' tab bar' + (tabs === 1 ? '' : 's') + '; laid out ' + ms.toFixed(0) + ' ms after the page was requested.');
  var status = document.getElementById('script-status');
  if (status && failed) status.hidden = false;
  document.documentElement.setAttribute('data-rendered', failed ? 'mismatch' : 'ok');
})();
