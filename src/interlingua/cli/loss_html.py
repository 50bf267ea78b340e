"""The loss report as one static, self-contained HTML page: no server, no network, no files beside it.

Everything is rendered here, so the page reads without JavaScript; a few lines of script only
filter what is shown, by warning kind and target (also from the address: ``#kind=lossy_encode``
or ``#target=acme-chat``). Every value from the data (paths, messages, errors: a caller's model
name may be among them) is escaped. The report's JSON rides along in a ``<script
type="application/json" id="loss-report">`` element, for tools.
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from datetime import UTC, datetime

from .. import __version__
from .loss import LossReport

TOP_PATHS = 200


def is_html(name: str | None) -> bool:
    """Whether a report file name asks for the page rather than JSONL."""
    return name is not None and name.lower().endswith((".html", ".htm"))


def render_html(reports: Sequence[LossReport], *, title: str = "") -> str:
    """The page for one or more runs (one per target: the heat map's columns)."""
    targets = [report.target for report in reports]
    kinds = sorted({kind for report in reports for kind, _ in report.paths})
    parts = [
        _HEAD.format(title=_e(f"interlingua loss report{': ' + title if title else ''}"), style=_STYLE),
        f"<h1>Loss report{_e(': ' + title) if title else ''}</h1>",
        f'<p class="meta">interlingua {_e(__version__)}, written {datetime.now(UTC):%Y-%m-%d %H:%M} UTC</p>',
        _filters(kinds, targets),
        _totals(reports),
        _heat_map(reports, kinds),
        _top_paths(reports),
        _failures(reports),
        _data(reports),
        f"<script>{_SCRIPT}</script></body></html>\n",
    ]
    return "\n".join(parts)


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def _filters(kinds: list[str], targets: list[str]) -> str:
    def select(name: str, options: list[str]) -> str:
        shown = "".join(f'<option value="{_e(o)}">{_e(o)}</option>' for o in options)
        return f'<label>{name} <select id="filter-{name}"><option value="">all</option>{shown}</select></label>'

    return f'<div class="filters">{select("kind", kinds)} {select("target", targets)}</div>'


def _totals(reports: Sequence[LossReport]) -> str:
    head = "<tr><th>target</th><th>lines</th><th>converted</th><th>with warnings</th><th>failed</th>"
    head += "<th>lossy under --strict</th><th>blank</th></tr>"
    rows = []
    for r in reports:
        cells = {
            "total": r.total,
            "converted": r.converted,
            "lossy": r.with_warnings,
            "failed": r.failed,
            "rejected": r.lossy_rejected,
            "blank": r.blank,
        }
        tds = "".join(f'<td class="n" data-count="{name}">{value:,}</td>' for name, value in cells.items())
        rows.append(f'<tr data-target="{_e(r.target)}"><th>{_e(r.target)}</th>{tds}</tr>')
    return f'<h2>Lines</h2><table id="totals">{head}{"".join(rows)}</table>'


def _heat_map(reports: Sequence[LossReport], kinds: list[str]) -> str:
    fields = sorted({where for report in reports for _, where in report.paths})
    if not fields:
        return '<h2>Warnings by field and target</h2><p id="heat-map" class="none">No warnings.</p>'
    top = max((s.count for report in reports for s in report.paths.values()), default=1)
    head = "<tr><th>field</th>" + "".join(f'<th data-target="{_e(r.target)}">{_e(r.target)}</th>' for r in reports)
    rows = []
    for where in fields:
        cells = []
        for report in reports:
            by_kind = {kind: s.count for (kind, at), s in report.paths.items() if at == where}
            count = sum(by_kind.values())
            style = f' style="background:{_shade(count, top)}"' if count else ""
            cells.append(
                f'<td class="n" data-target="{_e(report.target)}" data-kinds="{_e(json.dumps(by_kind))}"'
                f"{style}>{count or ''}</td>"
            )
        rows.append(f"<tr><th><code>{_e(where)}</code></th>{''.join(cells)}</tr>")
    note = f'<p class="meta">Warnings per field (indices folded), all {len(kinds)} kinds unless filtered.</p>'
    return f'<h2>Warnings by field and target</h2>{note}<table id="heat-map">{head}</tr>{"".join(rows)}</table>'


def _shade(count: int, top: int) -> str:
    """A warm colour whose depth grows with the count (log-like, so a rare field still shows)."""
    depth = 0.15 + 0.85 * (count / top) ** 0.5
    return f"rgba(214, 69, 65, {depth:.2f})"


def _top_paths(reports: Sequence[LossReport]) -> str:
    rows = sorted(
        ((report.target, kind, where, stat) for report in reports for (kind, where), stat in report.paths.items()),
        key=lambda row: (-row[3].count, row[0], row[1], row[2]),
    )[:TOP_PATHS]
    if not rows:
        return '<h2>Top warned fields</h2><p class="none">No warnings.</p>'
    head = "<tr><th>count</th><th>kind</th><th>field</th><th>target</th><th>example lines</th><th>message</th></tr>"
    body = "".join(
        f'<tr data-kind="{_e(kind)}" data-target="{_e(target)}"><td class="n">{stat.count:,}</td>'
        f"<td>{_e(kind)}</td><td><code>{_e(where)}</code></td><td>{_e(target)}</td>"
        f"<td>{', '.join(str(n) for n in stat.lines)}</td><td>{_e(stat.message)}</td></tr>"
        for target, kind, where, stat in rows
    )
    return f'<h2>Top warned fields</h2><table id="paths">{head}{body}</table>'


def _failures(reports: Sequence[LossReport]) -> str:
    rows = [(report.target, line, error) for report in reports for line, error in report.failures]
    if not rows:
        return '<h2>Failed lines</h2><p class="none">No line failed.</p>'
    head = "<tr><th>line</th><th>target</th><th>error</th></tr>"
    body = "".join(
        f'<tr data-target="{_e(target)}"><td class="n">{line}</td><td>{_e(target)}</td><td>{_e(error)}</td></tr>'
        for target, line, error in rows
    )
    more = sum(report.failed - len(report.failures) for report in reports)
    note = f'<p class="meta">and {more:,} more (the first {len(rows)} are listed).</p>' if more > 0 else ""
    return f'<h2>Failed lines</h2><table id="failures">{head}{body}</table>{note}'


def _data(reports: Sequence[LossReport]) -> str:
    data = json.dumps([report.to_json_dict() for report in reports], ensure_ascii=False)
    safe = data.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return f'<script type="application/json" id="loss-report">{safe}</script>'


_HEAD = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title><style>{style}</style></head><body>"""

_STYLE = """
body { font: 14px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 72em; color: #222; padding: 0 1em; }
h1 { font-size: 1.5em; } h2 { font-size: 1.15em; margin-top: 1.8em; }
table { border-collapse: collapse; margin: .5em 0; } th, td { border: 1px solid #ddd; padding: .25em .6em; }
th { background: #f4f4f4; text-align: left; } td.n { text-align: right; font-variant-numeric: tabular-nums; }
code { font-size: .95em; } .meta, .none { color: #666; } .filters { margin: 1em 0; }
.filters label { margin-right: 1.5em; } tr.hidden, td.hidden, th.hidden { display: none; }
"""

_SCRIPT = """
(function () {
  var kind = document.getElementById('filter-kind'), target = document.getElementById('filter-target');
  function wanted(el) {
    var t = el.getAttribute('data-target');
    return !target.value || t === null || t === target.value;
  }
  function apply() {
    document.querySelectorAll('[data-target]').forEach(function (el) {
      el.classList.toggle('hidden', !wanted(el));
    });
    document.querySelectorAll('#paths tr[data-kind]').forEach(function (row) {
      if (kind.value && row.getAttribute('data-kind') !== kind.value) row.classList.add('hidden');
    });
    document.querySelectorAll('#heat-map tr').forEach(function (row) {
      var any = false;
      row.querySelectorAll('td[data-kinds]').forEach(function (cell) {
        var counts = JSON.parse(cell.getAttribute('data-kinds')), n = 0;
        for (var k in counts) { if (!kind.value || k === kind.value) n += counts[k]; }
        cell.textContent = n ? String(n) : '';
        if (n && wanted(cell)) any = true;
      });
      if (row.querySelector('td[data-kinds]')) row.classList.toggle('hidden', !any);
    });
    var hash = [];
    if (kind.value) hash.push('kind=' + encodeURIComponent(kind.value));
    if (target.value) hash.push('target=' + encodeURIComponent(target.value));
    var address = hash.length ? '#' + hash.join('&') : location.pathname + location.search;
    try { history.replaceState(null, '', address); } catch (e) {}  // a file: page may refuse
  }
  location.hash.replace(/^#/, '').split('&').forEach(function (pair) {
    var kv = pair.split('='), value = decodeURIComponent(kv[1] || '');
    if (kv[0] === 'kind') kind.value = value;
    if (kv[0] === 'target') target.value = value;
  });
  kind.addEventListener('change', apply); target.addEventListener('change', apply);
  apply();
})();
"""
