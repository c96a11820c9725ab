"""A lint setting that is not a number is told as the designer wrote it in YAML (``true``,
``{a: 1}``), not as Python prints it (``True``, ``{'a': 1}``) — hostile46."""

import pytest

from pnpgen.data import lint
from pnpgen.data import validate as v


@pytest.mark.parametrize(("value", "said"), [(True, "true"), ({"a": 1}, "{a: 1}"), ([16], "[16]"), ("x", "'x'")])
def test_a_colour_distance_not_a_number_is_told_in_yamls_words(value, said):
    with pytest.raises(v.Invalid) as e:
        lint.setting(value, "colour_blind")
    assert f"lint colour_blind {said} is not a colour distance" in e.value.message
    assert "True" not in e.value.message and "{'a'" not in e.value.message


def test_a_colour_distance_in_range_is_read():
    assert lint.setting(16, "colour_blind") == 16 and lint.setting("off", "colour_blind") is None
