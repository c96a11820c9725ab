"""A template's budget (faces/budget.py) covers every way it makes a text or a list, not only
``*`` and a few text methods: each of these one-liners once took a gigabyte (or, in a loop of
40 turns, all the machine's memory) or minutes, before the face's SVG was measured. Each is now
one line naming the template's line, the deck and the piece, at once, and nothing is written.
And ``random`` is not there: it made every build different."""

from __future__ import annotations

import re

import pytest

from conftest import FRONT, REPO, make_workspace, run
from pnpgen.faces import budget

ART = "{% block art %}"
BIG = 10**9

GROWTH = {
    # name: (markup at line 3 of the template, what the message says)
    "center filter": (f"{{{{ 'a'|center({BIG}) }}}}", "the filter center"),
    "indent filter": (f"{{{{ ('a\\n' * 3)|indent({BIG}) }}}}", "the filter indent"),
    "wordwrap of a long word": ("{{ ('a' * 999999)|wordwrap(1) }}", "the filter wordwrap is given a text"),
    "replace filter": ("{{ ('x' * 999999)|replace('x', 'y' * 999) }}", "the filter replace"),
    "format filter with a width": ("{{ '%*d'|format(999999999, 1) }}", "a % format"),
    "percent with a width": ("{{ '%0999999999d' % 1 }}", "a % format"),
    "percent with many long values": ("{{ ('%s' * 1000) % (('x' * 9999999,) * 1000) }}", "a % format"),
    "str.format with a width": ("{{ '{:>999999999}'.format(1) }}", "a format field"),
    "str.format with a nested width": ("{{ '{0:{1}}'.format(1, 999999999) }}", "a format field"),
    "join filter": ("{{ range(100000)|join('x' * 9999) }}", "the filter join"),
    "str.join": ("{{ ('x' * 9999).join(range(100000)|map('string')) }}", "join()"),
    "str.translate": ("{{ ('a' * 9999999).translate({97: 'x' * 999}) }}", "translate()"),
    "batch filter": (f"{{{{ [1]|batch({BIG}, 0)|list }}}}", "the filter batch"),
    "slice filter": ("{{ [1]|slice(10**8)|list }}", "the filter slice makes more than 1,000,000 slices"),
    "sum of lists": ("{{ ([[0] * 1000] * 20000)|sum(start=[]) }}", "the filter sum"),
    "text doubled with ~": ("{% set ns = namespace(s='x') %}{% for i in range(40) %}{% set ns.s = ns.s ~ ns.s %}"
                            "{% endfor %}", "joining texts with ~"),
    "text doubled with +": ("{% set ns = namespace(s='x') %}{% for i in range(40) %}{% set ns.s = ns.s + ns.s %}"
                            "{% endfor %}", "adding texts or lists with +"),
    "list doubled with extend": ("{% set xs = [1] %}{% for i in range(40) %}{% set _ = xs.extend(xs) %}{% endfor %}",
                                 "extend()"),
    "escape filter again and again": ("{{ ('&' * 9000000)|forceescape|forceescape }}", "the filter forceescape"),
    # bytes, which no bound measured: (1).to_bytes(10**9, 'big') and 'x'.encode() * 10**9 took a gigabyte each
    "bytes from a number": ("{{ (1).to_bytes(10**8, 'big')|length }}", "a number's 'to_bytes' is closed to templates: it makes bytes"),
    "bytes from a text": ("{{ ('x'.encode() * 10**8)|length }}", "a text's 'encode' is closed to templates: it makes bytes"),
}
# A loop within its budget whose every turn works through a long text (each within MAX_FACE_CHARS)
# ran for hours; these few thousand turns took seconds, and built. Each is stopped within a few turns.
LONG = "{% set s = 'x' * 9999999 %}{% for i in range(3000) %}"
HANDLED = "worked through more than 100,000,000 characters or items"
GROWTH.update({
    "a long text searched again and again": (LONG + "{% if 'y' in s %}{% endif %}{% endfor %}", HANDLED),
    "a long text searched by a test again and again": (LONG + "{% if 'y' is in s %}{% endif %}{% endfor %}", HANDLED),
    "a long text's method again and again": (LONG + "{% set n = s.count('y') %}{% endfor %}", HANDLED),
    "a long text through a filter again and again": (LONG + "{% set n = s|replace('y', 'z') %}{% endfor %}", HANDLED),
    "a long text sliced again and again": (LONG + "{% set n = s[1:] %}{% endfor %}", HANDLED),
    "text boxes set again and again": ("{% for i in range(101) %}{% set t = textbox('あ' * 2000, 6, 52, w - 12, 28) %}"
                                       "{% endfor %}", "the face's text boxes are given more than 200,000 characters"),
})


def _fails(tmp_path, capsys, markup: str) -> str:
    ws = make_workspace(tmp_path / "ws", pieces=["祝福"], front=FRONT.replace(ART, ART + "\n" + markup))
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "--out", str(tmp_path / "out")) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert not (tmp_path / "out" / "test").exists()
    return err


@pytest.mark.parametrize("case", sorted(GROWTH))
def test_a_template_that_makes_a_huge_text_or_list_is_stopped_at_its_line(tmp_path, capsys, case):
    markup, what = GROWTH[case]
    err = _fails(tmp_path, capsys, markup)
    assert err.startswith("pnpgen: error: templates/test/card-front.svg.j2:3: "), err
    assert what in err and "deck 'cards' piece 1 (祝福" in err, err


def test_a_macro_that_calls_itself_twice_is_stopped_by_the_faces_calls(tmp_path, capsys, monkeypatch):
    """A macro calling itself twice, 25 deep, made 33 million calls (a quarter of an hour) within
    every other bound. The face's calls are counted (a smaller budget here: 8,191 calls)."""
    monkeypatch.setattr(budget, "MAX_FACE_CALLS", 1000)
    err = _fails(tmp_path, capsys, "{% macro f(n) %}{% if n > 0 %}{{ f(n - 1) }}{{ f(n - 1) }}{% endif %}{% endmacro %}"
                                   "{{ f(12) }}")
    assert err.startswith("pnpgen: error: templates/test/card-front.svg.j2:3: the face's template made more than "
                          "1,000 calls"), err


def test_a_loop_of_helper_calls_over_the_faces_calls_says_how_to_stay_under_them(tmp_path, capsys, monkeypatch):
    """A board's 100×100 cells calling colour() twenty times each is a design, not a recursion:
    the message says the budget and to work a value out once before the loop."""
    monkeypatch.setattr(budget, "MAX_FACE_CALLS", 1000)
    err = _fails(tmp_path, capsys, "{% for i in range(600) %}{% set a = colour('#000') %}{% set b = colour('#000') %}"
                                   "{% endfor %}")
    assert "made more than 1,000 calls" in err and "(expected at most 1,000 calls on one face: a value worked out once " \
        "before a loop ({% set ink = colour('ink') %}), not in every turn, and a macro that calls itself at most once)" in err, err


def test_random_is_not_there_as_a_build_is_the_same_every_time(tmp_path, capsys):
    err = _fails(tmp_path, capsys, "{{ range(1000)|list|random }}")
    assert "random" in err and "card-front.svg.j2" in err, err


def test_what_templates_write_with_these_still_builds(tmp_path):
    """The same filters and operators at a card's sizes: all as Jinja makes them."""
    markup = ("<text font-family='BIZUDPGothic-Regular' font-size='3' x='5' y='60'>"
              "{{ 'ab'|center(6) }}|{{ 'a\\nb'|indent(2)|replace('\\n', '/') }}|{{ 'aa bb cc'|wordwrap(5, wrapstring='/') }}"
              "|{{ '%03d'|format(7) }}|{{ '%s-%s' % ('x', 'y') }}|{{ '{:>4}'.format(5) }}|{{ [1, 2]|join(',') }}"
              "|{{ ','.join(['p', 'q']) }}|{{ [1, 2, 3]|batch(2, 0)|list|length }}|{{ [1, 2, 3]|slice(2)|list|length }}"
              "|{{ [[1], [2]]|sum(start=[]) }}|{{ [1, 2]|sum }}|{{ 'a' ~ 1 ~ 'b' }}|{{ 'c' + 'd' }}"
              "{% set xs = [1] %}{% set _ = xs.extend([2]) %}|{{ xs|length }}</text>")
    ws = make_workspace(tmp_path / "ws", pieces=["祝福"], front=FRONT.replace(ART, ART + "\n" + markup))
    out = tmp_path / "out"
    assert run(ws, "build", "--game", "test", "--no-rulebook", "--jobs", "1", "--out", str(out)) == 0
    from pypdf import PdfReader

    text = PdfReader(out / "test" / "shop" / "cards.pdf").pages[0].extract_text().replace(" ", "")
    assert "ab|a/b|aabb/cc|007|x-y|5|1,2|p,q|2|2|[1,2]|3|a1b|cd|2" in text, text


def test_a_template_of_too_many_tokens_is_refused_before_jinja_compiles_it(tmp_path, capsys):
    """Under the size cap (16 MB), 2,000,000 ``{{ x }}`` (14 MB, never even printed) ran past two
    minutes and many gigabytes: Jinja lexes, parses and compiles every token before the first face.
    A template is measured in tokens as it is read, and refused at the line where it passes them."""
    tokens = budget.MAX_TEMPLATE_TOKENS
    lines = "\n".join("{{x}}" * 100 for _ in range(tokens // 300 + 10))  # 301 tokens a line (its line break one)
    err = _fails(tmp_path, capsys, "{% if false %}\n" + lines + "\n{% endif %}")
    said = re.match(r"pnpgen: error: templates/test/card-front\.svg\.j2:(\d+): template 'test/card-front\.svg\.j2' "
                    f"holds more than {tokens:,} Jinja tokens", err)
    assert said and abs(int(said.group(1)) - (4 + tokens // 301)) <= 1, err  # the markup's lines from line 4


@pytest.mark.parametrize("markup", ["{{ " + "(" * 300 + "1" + ")" * 300 + " }}",
                                    "{% if x %}" * 1000 + "{% endif %}" * 1000,
                                    "{{ 1" + " + 1" * 5000 + " }}",
                                    # hostile40: Python's own limits on the code Jinja writes (SyntaxError: 'too many
                                    # levels of indentation', 'too many statically nested blocks') said at the deck's
                                    # front: line, with the line of the compiled code
                                    "{% if true %}" * 100 + "x" + "{% endif %}" * 100,
                                    "{% for a in range(2) %}" * 40 + "x" + "{% endfor %}" * 40])
def test_a_template_nested_too_deep_for_jinja_is_told_so_not_that_it_calls_itself(tmp_path, capsys, markup):
    """Jinja's parser and compiler recurse for each level of brackets, blocks or a chain of + ;
    past Python's limit that was said as "the template calls itself without end", at the deck."""
    err = _fails(tmp_path, capsys, markup)
    assert err.startswith("pnpgen: error: templates/test/card-front.svg.j2: template 'test/card-front.svg.j2' nests "), err
    assert "calls itself" not in err, err


def test_the_largest_shipped_template_is_far_within_the_tokens():
    """The bound leaves room: the shipped games' templates hold a twentieth of it at most."""
    from pnpgen.faces.budget import FaceEnvironment

    env = FaceEnvironment()
    largest = max(sum(1 for _ in env.lexer.tokeniter(p.read_text(encoding="utf-8"), p.name))
                  for p in (REPO / "templates").rglob("*.j2"))
    assert largest * 10 < budget.MAX_TEMPLATE_TOKENS, largest


def test_a_range_past_the_sandboxs_bound_is_told_in_the_designers_words(tmp_path, capsys):
    """hostile40: ``range(10**9)`` stopped with Jinja's 'Range too big. The sandbox blocks ranges larger
    than MAX_RANGE (100000).', a Python name and nothing to write instead."""
    err = _fails(tmp_path, capsys, "{% for i in range(10**9) %}{% endfor %}")
    assert "card-front.svg.j2:" in err and "range() of more than 100,000 numbers (rendering deck 'cards' piece 1" in err, err
    assert err.endswith("(expected a range of at most 100,000 (a track's spaces or a grid's cells are a few hundred at "
                        "most))\n") and "MAX_RANGE" not in err, err
