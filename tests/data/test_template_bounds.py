"""Issue 12: a template cannot hang the build or reach Python's internals. Templates render in
Jinja's sandbox with a per-face budget (faces/budget.py: MAX_LOOP_ITEMS, MAX_FACE_CHARS,
MAX_POWER_BITS); going over is one line naming the template file and line, deck and piece."""

from __future__ import annotations

import pytest

from conftest import FRONT, make_workspace, run
from pnpgen.faces import budget

ART = "{% block art %}"

CASES = {
    # name: (markup at line 3 of the template, line reported or None, what the message says)
    "range of a billion": ("{% for i in range(10**9) %}{% endfor %}", 3, "range() of more than 100,000 numbers"),
    "nested loops": ("{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}", 3,
                     "the face's loops ran more than 1,000,000 times"),
    "loops over repeated text": ("{% for a in 'x' * 100000 %}{% for b in 'y' * 100000 %}{% endfor %}{% endfor %}", 3,
                                 "the face's loops ran more than 1,000,000 times"),
    "loop in a macro": ("{% macro m() %}{% for i in range(1000) %}{% endfor %}{% endmacro %}"
                        "{% for i in range(2000) %}{{ m() }}{% endfor %}", 3, "the face's loops ran more than"),
    "text repeated": ("{{ 'x' * 10**10 }}", 3, "repeating str that many times makes more than 10,000,000 items"),
    "list repeated": ("{{ ([1] * 10**9)|length }}", 3, "repeating list that many times"),
    "huge power": ("{{ 10 ** 100000 }}", 3, "10 ** 100000 is too large a number"),
    "huge output": ("{% for i in range(20000) %}{{ 'x' * 1000 }}{% endfor %}", None,
                    "the face's SVG is longer than 10,000,000 characters"),
    "huge output from a filter": ("{{ 'x'|center(10**8) }}", 3, "the filter center would make more than 10,000,000"),
    "lipsum": ("{{ lipsum(10**9) }}", 3, "'lipsum' is undefined"),
    "python internals": ("{{ ''.__class__.__mro__[1].__subclasses__() }}", 3,
                         "a text's '__class__' is closed to templates: Python's insides"),
    "endless recursion": ("{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}", 3, "the template calls itself without end"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_template_over_budget(tmp_path, capsys, case):
    markup, line, what = CASES[case]
    ws = make_workspace(tmp_path / "ws", pieces=["祝福"], front=FRONT.replace(ART, ART + "\n" + markup))
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--out", str(tmp_path / "out")) == 2
    err = capsys.readouterr().err
    assert err.startswith("pnpgen: error: ") and err.count("\n") == 1 and "Traceback" not in err, err
    template = "templates/test/card-front.svg.j2"  # relative to the workspace
    assert err.startswith(f"pnpgen: error: {template}{f':{line}' if line else ''}: "), err
    assert what in err and "deck 'cards' piece 1 (祝福" in err and "cards.yaml:9:5" in err, err
    assert not (tmp_path / "out" / "test").exists()


def test_budget_is_per_face(tmp_path):
    """Each face has the whole budget: 2 pieces whose loops together run 2 × 600,000 times build."""
    loops = "{% for i in range(600) %}{% for j in range(1000) %}{% endfor %}{% endfor %}"
    ws = make_workspace(tmp_path / "ws", pieces=[f"札{i}" for i in range(2)],
                        front=FRONT.replace(ART, ART + "\n" + loops))
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--out", str(tmp_path / "out")) == 0
    assert 2 * 600_000 > budget.MAX_LOOP_ITEMS >= 600_000


def test_templates_still_do_what_designers_write(tmp_path):
    """The sandbox keeps what templates use: list.append, namespace(), loop.index, macros."""
    markup = ("{% set xs = [] %}{% for i in range(3) %}{% set _ = xs.append(i * 2) %}{% endfor %}"
              "{% set ns = namespace(n=0) %}{% for x in xs %}{% set ns.n = ns.n + x %}{% endfor %}"
              "<text font-family='BIZUDPGothic-Regular' font-size='4' x='5' y='60'>{{ ns.n }}-{{ xs|join(',') }}"
              "{% for x in xs %}{{ loop.index }}{% endfor %}</text>")
    ws = make_workspace(tmp_path / "ws", pieces=["祝福"], front=FRONT.replace(ART, ART + "\n" + markup))
    out = tmp_path / "out"
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--out", str(out)) == 0
    from pypdf import PdfReader

    text = PdfReader(out / "test" / "shop" / "cards.pdf").pages[0].extract_text()
    assert "6-0,2,4123" in text.replace(" ", ""), text
