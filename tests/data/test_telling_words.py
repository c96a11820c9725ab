"""A tag's value that is a mapping or true/false is told in YAML's flow words (``A［{a: 1}］``), as
the lint's messages write it, never as Python prints it (``A［{'a': 1}］``) — polish47a."""

from pnpgen.data.telling import as_text, told_by_values


def test_a_mapping_in_a_tag_is_told_in_yamls_words():
    assert told_by_values("A", {"t": {"a": 1}}, ["t"], "ja") == "A［{a: 1}］"
    assert told_by_values("A", {"t": [{"b": "x y"}, True]}, ["t"], "en") == "A [{b: x y} / true]"


def test_text_and_numbers_stay_as_written():
    assert as_text("{騎士}", "ja") == "{騎士}" and as_text(3, "en") == "3" and as_text(["a", 2], "en") == "a / 2"
