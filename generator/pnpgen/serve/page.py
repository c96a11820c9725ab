"""The preview page as HTML: everything from the data escaped (it is text, never markup); the
script redraws the same structure from /state.json with textContent on every pushed event."""

from __future__ import annotations

import json
from html import escape
from typing import Any

from pnpgen.serve.preview import State

# How many faces (or sheets and rulebook pages) a pane shows at a time, the rest a page away
# (``?per_page=`` in the address for another number, 1 to MAX_PER_PAGE): 10,000 faces at once were
# 12,000 figures to lay out, drawn again from /state.json, and some 200 pictures asked for near the view.
PER_PAGE = 120
MAX_PER_PAGE = 2000


def per_page(asked: str | None) -> int:
    """The faces a pane shows at a time, from the address's ``per_page`` (PER_PAGE when not a
    whole number from 1 to MAX_PER_PAGE)."""
    digits = asked.lstrip("0") if asked is not None and asked.isascii() and asked.isdigit() else ""
    # (5,000 digits: int() refuses them, a traceback and a 500 for the page)
    return int(digits) if 1 <= len(digits) <= len(str(MAX_PER_PAGE)) and int(digits) <= MAX_PER_PAGE else PER_PAGE


def _face(deck: int, n: int, face: dict[str, Any]) -> str:
    """A face's figure; its pictures load when their pane is shown and they near the view
    (``loading="lazy"``): 5,000 cards are 11,000 pictures, all asked for at once without it."""
    back = f'<img class="back" alt="back" src="{escape(face["back"])}" loading="lazy">' if face["back"] else ""
    return (f'<figure class="face" data-deck="{deck}" data-face="{n}"><img class="front" alt="front" '
            f'src="{escape(face["front"])}" loading="lazy">{back}<figcaption>{escape(face["name"])} × {face["count"]}</figcaption></figure>')


def _sheet(sheet: dict[str, Any]) -> str:
    return f'<figure class="sheet"><img alt="" src="{escape(sheet["src"])}" loading="lazy"><figcaption>{escape(sheet["title"])}</figcaption></figure>'


def _pager(names: list[str], per: int) -> str:
    """A pane's first page's pager (the script draws the others' as it turns them), or nothing
    when all of it shows at once; each page offered by its numbers and the first and last thing
    on it (``121–156 (cards.pdf p. 121 – rule-sheet.pdf side 2)``), so a big game's rule sheet or
    last deck is found by name, not by guessing its page."""
    total = len(names)
    if total <= per:
        return ""
    options = "".join(f'<option value="{k}">{escape(_page_label(names, k, per))}</option>'
                      for k in range(-(-total // per)))
    return (f'<nav class="pager"><button class="prev" disabled>‹ previous</button> <select>{options}</select> '
            f'of {total:,} <button class="next">next ›</button></nav>')


def _page_label(names: list[str], k: int, per: int) -> str:
    """Page ``k``'s option in a pager: its numbers and the first and last thing it shows (as the
    script's ``label``)."""
    first, last = k * per, min(len(names), (k + 1) * per) - 1
    return f"{first + 1}–{last + 1} ({names[first]} – {names[last]})" if last > first else f"{first + 1} ({names[first]})"


def html(state: State, title: str, lang: str = "ja", per: int = PER_PAGE) -> str:
    """The page; ``lang``: the game's language, the page's (a browser picks its fonts and
    hyphenation by it: Latin names set in a Japanese face under ``lang="ja"``); ``per``: the
    faces a pane shows at a time (``PER_PAGE``)."""
    tabs, panes = [], []
    for i, deck in enumerate(state.decks):
        tabs.append(f'<button class="tab" data-pane="deck-{i}">{escape(deck["name"])} ({escape(deck["id"])}) ×{deck["count"]}</button>')
        faces = "".join(_face(i, n, f) for n, f in enumerate(deck["faces"][:per]))
        pager = _pager([f["name"] for f in deck["faces"]], per)  # above the faces and under them
        panes.append(f'<section class="pane deck" id="deck-{i}" data-id="{escape(deck["id"])}">'
                     f'{pager}{faces}{pager}</section>')
    tabs.append('<button class="tab" data-pane="sheets">Sheets &amp; rulebook</button>')
    sheets = "".join(_sheet(s) for s in state.sheets[:per])
    pager = _pager([s["title"] for s in state.sheets], per)
    panes.append(f'<section class="pane" id="sheets">{pager}{sheets}{pager}</section>')
    changes = "".join(f"<li>{escape(c)}</li>" for c in state.changes)
    warnings = "".join(f"<li>{escape(w)}</li>" for w in state.warnings)
    error = escape(state.error)
    note = escape(banner_note(state.error, bool(state.decks or state.sheets), state.ended))
    return f"""<!doctype html>
<html lang="{escape(lang)}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>{escape(title)} — pnpgen preview</title>
<style>{CSS}</style></head>
<body data-generation="{state.generation}">
<div id="banner" class="{'shown' if error else ''}"><div id="error" class="{'shown' if error else ''}">{error}</div>
<div id="note">{note}</div></div>
<header><h1>{escape(title)}</h1><nav id="tabs">{''.join(tabs)}</nav></header>
<main id="panes">{''.join(panes)}</main>
<aside><h2>Selected face</h2><div id="details">{escape(PICK)}</div>
<h2 id="warned" class="{'shown' if warnings else ''}">Warnings</h2><ul id="warnings">{warnings}</ul>
<h2>Last change</h2><ul id="changes">{changes}</ul><pre id="reprint">{escape(state.reprint)}</pre>
<h2>Since the tagged version</h2><pre id="since">{escape(state.since)}</pre></aside>
<script>const STALE = {json.dumps(STALE)}, NOTHING = {json.dumps(NOTHING)}, ENDED = {json.dumps(ENDED)},
PICK = {json.dumps(PICK)}, PER = {per};{SCRIPT}</script>
</body></html>
"""


def banner_note(error: str, shown: bool, ended: bool = False) -> str:
    """What the page shows under a build's error: the last good build's faces, or nothing yet; or
    that the preview has ended (the workspace gone)."""
    if not error:
        return ""
    if ended:
        return ENDED
    if shown:
        return STALE
    return NOTHING


STALE = "Below: the last good build. Fix the line above and save: the page updates."
ENDED = "This preview has ended: start pnpgen serve again in the workspace where it is now."
PICK = "Click a face to see its fields, its YAML line and its SVG."
NOTHING = "No good build of this game to show yet. Fix the line above and save: the page fills in."

CSS = """
body { font-family: sans-serif; margin: 0; display: grid; grid-template-columns: 1fr 22em; }
header { grid-column: 1 / 3; padding: .5em 1em; background: #223; color: #fff; }
header h1 { font-size: 1.1em; margin: 0 0 .4em; }
.tab { margin-right: .3em; } .tab.on { font-weight: bold; }
main { padding: 1em; } .pane { display: none; flex-wrap: wrap; gap: 1em; } .pane.on { display: flex; }
.face { margin: 0; cursor: pointer; text-align: center; } .face img { width: 130px; margin: 2px; border: 1px solid #ccc; }
.face.picked { outline: 3px solid #36c; }
.sheet { margin: 0; } .sheet img { width: 210px; border: 1px solid #ccc; }
.pager { flex-basis: 100%; }
aside { padding: 1em; border-left: 1px solid #ccc; font-size: .9em; } pre { white-space: pre-wrap; }
#banner { display: none; grid-column: 1 / 3; position: sticky; top: 0; z-index: 10; padding: .8em 1em;
  background: #b00; color: #fff; } #banner.shown { display: block; }
#warned { display: none; } #warned.shown { display: block; } #warnings { color: #8a5a00; font-size: .85em; }
#error { font-family: monospace; font-size: 1.05em; white-space: pre-wrap; } #note { margin-top: .4em; font-size: .9em; }
#error, aside { overflow-wrap: anywhere; }
@media (max-width: 700px) {  /* a phone: one column, the panel under the faces, nothing wider than the screen */
  body { grid-template-columns: 100%; } header, #banner { grid-column: 1; }
  aside { border-left: none; border-top: 1px solid #ccc; } main { padding: .5em; }
  .face img { width: calc(50vw - 1.5em); } .sheet img { width: calc(100vw - 2em); }
}
"""

SCRIPT = """
let state = null, picked = null;  // the face clicked: [deck, face] in state.decks
const at = {};  // a pane's id → the page of it shown
function el(tag, cls, text) { const e = document.createElement(tag); if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text; return e; }
function show(pane) { document.querySelectorAll('.pane').forEach(p => p.classList.toggle('on', p.id === pane));
  document.querySelectorAll('.tab').forEach(t => t.classList.toggle('on', t.dataset.pane === pane)); }
function details(d, n) { const f = state.decks[d].faces[n]; const box = document.getElementById('details');
  box.replaceChildren(el('b', '', f.name + ' × ' + f.count), el('div', 'where', f.where));
  if (f.svg) { const links = el('div', 'svg', 'SVG: ');  // the template's SVG of each side, as check --svg writes it
    for (const side of ['front', 'back']) if (f.svg[side]) { const a = el('a', '', side); a.href = f.svg[side];
      a.target = '_blank'; a.rel = 'noopener'; links.append(a, ' '); }
    box.append(links); }
  const dl = el('dl'); for (const [k, v] of Object.entries(f.fields)) { dl.append(el('dt', '', k), el('dd', '', typeof v === 'string' ? v : v === null ? '(not set)' : JSON.stringify(v))); }
  box.append(dl); picked = [d, n]; mark(); }
function mark() { document.querySelectorAll('.face').forEach(x => x.classList.toggle('picked',
  !!picked && +x.dataset.deck === picked[0] && +x.dataset.face === picked[1])); }
function face(i, n, f) { const fig = el('figure', 'face'); fig.dataset.deck = i; fig.dataset.face = n;
  const front = el('img', 'front'); front.loading = 'lazy'; front.src = f.front; front.alt = 'front'; fig.append(front);
  if (f.back) { const back = el('img', 'back'); back.loading = 'lazy'; back.src = f.back; back.alt = 'back'; fig.append(back); }
  fig.append(el('figcaption', '', f.name + ' × ' + f.count)); return fig; }
function sheet(p) { const fig = el('figure', 'sheet'); const img = el('img'); img.loading = 'lazy'; img.src = p.src; img.alt = '';
  fig.append(img, el('figcaption', '', p.title)); return fig; }
// A pane's page of faces (or sheets), PER at a time, with a pager to the others when there are more
function fill(id) {
  const pane = document.getElementById(id); if (!pane || !state) return;
  const deck = id === 'sheets' ? -1 : +id.slice(5), items = deck < 0 ? state.sheets : state.decks[deck].faces;
  const pages = Math.max(1, Math.ceil(items.length / PER)); at[id] = Math.min(at[id] || 0, pages - 1);
  const from = at[id] * PER, figs = items.slice(from, from + PER).map((x, k) => deck < 0 ? sheet(x) : face(deck, from + k, x));
  const pager = () => { const nav = el('nav', 'pager'), prev = el('button', 'prev', '‹ previous'), next = el('button', 'next', 'next ›');
    const pick = el('select'); for (let k = 0; k < pages; k++) { const o = el('option', '', label(items, k, deck < 0));
      o.value = k; pick.append(o); }
    pick.value = at[id]; prev.disabled = at[id] === 0; next.disabled = at[id] === pages - 1;
    nav.append(prev, ' ', pick, ' of ' + items.length.toLocaleString('en') + ' ', next); return nav; };
  // the pager above the page and under it: the next page a click away at the end of the last one's
  if (pages > 1) pane.replaceChildren(pager(), ...figs, pager()); else pane.replaceChildren(...figs);
  mark(); }
// a pager's option: its numbers and the first and last face or sheet it shows (as page.py's _page_label)
function label(items, k, sheets) { const first = k * PER, last = Math.min(items.length, (k + 1) * PER) - 1;
  const name = x => sheets ? x.title : x.name;
  return last > first ? (first + 1) + '–' + (last + 1) + ' (' + name(items[first]) + ' – ' + name(items[last]) + ')'
    : (first + 1) + ' (' + name(items[first]) + ')'; }
function turn(id, page) { at[id] = page; fill(id); document.getElementById(id).scrollIntoView(); }
function draw(s) {
  const err = document.getElementById('error'); err.textContent = s.error; err.classList.toggle('shown', !!s.error);
  document.getElementById('banner').classList.toggle('shown', !!s.error);
  const good = state || s; document.getElementById('note').textContent =
    !s.error ? '' : s.ended ? ENDED : (good.decks.length || good.sheets.length) ? STALE : NOTHING;
  if (state && s.error) return;  // a broken save: the last good faces stay
  const open = (document.querySelector('.tab.on') || {dataset: {}}).dataset.pane;
  const was = picked && state ? state.decks[picked[0]] : null, n = picked ? picked[1] : 0;
  const pick = was && was.faces[n] ? {deck: was.id, name: was.faces[n].name, at: n, faces: was.faces.length,
    nth: was.faces.slice(0, n).filter(f => f.name === was.faces[n].name).length} : null;
  state = s; picked = null; document.body.dataset.generation = s.generation;
  if (s.title) { document.querySelector('header h1').textContent = s.title; document.title = s.title + ' — pnpgen preview'; }
  if (s.lang) document.documentElement.lang = s.lang;
  const tabs = document.getElementById('tabs'), panes = document.getElementById('panes');
  tabs.replaceChildren(); panes.replaceChildren();
  s.decks.forEach((deck, i) => {
    const t = el('button', 'tab', deck.name + ' (' + deck.id + ') ×' + deck.count); t.dataset.pane = 'deck-' + i; tabs.append(t);
    const pane = el('section', 'pane deck'); pane.id = 'deck-' + i; pane.dataset.id = deck.id; panes.append(pane); });
  const t = el('button', 'tab', 'Sheets & rulebook'); t.dataset.pane = 'sheets'; tabs.append(t);
  const sheets = el('section', 'pane'); sheets.id = 'sheets'; panes.append(sheets);
  panes.querySelectorAll('.pane').forEach(p => fill(p.id));
  document.getElementById('changes').replaceChildren(...s.changes.map(c => el('li', '', c)));
  document.getElementById('warnings').replaceChildren(...s.warnings.map(w => el('li', '', w)));
  document.getElementById('warned').className = s.warnings.length ? 'shown' : '';
  document.getElementById('reprint').textContent = s.reprint;
  document.getElementById('since').textContent = s.since;
  show(document.getElementById(open) ? open : (s.decks.length ? 'deck-0' : 'sheets'));
  repick(pick);
}
// The face picked before a rebuild, picked again with the fields this build has (its deck by id,
// the face by name and which of that name, or in its place when only its name changed); gone, the
// panel says to pick one: it showed the fields of the build before as if they were current.
function repick(pick) {
  if (!pick) return;
  const d = state.decks.findIndex(deck => deck.id === pick.deck), faces = d < 0 ? [] : state.decks[d].faces;
  const same = faces.map((f, n) => [f, n]).filter(([f]) => f.name === pick.name);
  if (same.length) details(d, same[Math.min(pick.nth, same.length - 1)][1]);
  else if (faces.length === pick.faces) details(d, pick.at);
  else document.getElementById('details').textContent = PICK;
}
document.addEventListener('click', e => { const t = e.target.closest('.tab'); if (t) show(t.dataset.pane);
  const b = e.target.closest('.pager button'), pane = b && b.closest('.pane');
  if (pane) turn(pane.id, at[pane.id] + (b.classList.contains('next') ? 1 : -1));
  const f = e.target.closest('.face'); if (f && state) details(+f.dataset.deck, +f.dataset.face); });
document.addEventListener('change', e => { const pane = e.target.closest('.pager select') && e.target.closest('.pane');
  if (pane) turn(pane.id, +e.target.value); });
fetch('/state.json').then(r => r.json()).then(s => { draw(s);
  const events = new EventSource('/events?after=' + s.generation);
  // (the server gone as it pushed its last error, the workspace gone: the error the event said)
  events.addEventListener('state', e => fetch('/state.json').then(r => r.json()).then(draw)
    .catch(() => { const said = JSON.parse(e.data); if (said.error) draw(Object.assign({}, state, said)); })); });
show(document.querySelector('.pane.deck') ? 'deck-0' : 'sheets');
"""
