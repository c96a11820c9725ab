"""What the hypothesis fuzz tests share: every place in a YAML document a mutation can touch,
and one mutation of it (a value replaced, deleted or added)."""

from __future__ import annotations

from collections.abc import Iterator

from hypothesis import strategies as st


def paths(data, prefix: tuple = ()) -> Iterator[tuple]:
    """Every place in the document a mutation can touch."""
    yield prefix
    if isinstance(data, dict):
        for k, val in data.items():
            yield from paths(val, prefix + (k,))
    elif isinstance(data, list):
        for i, val in enumerate(data):
            yield from paths(val, prefix + (i,))


def mutate(draw, data, keys: list[str], values) -> bool:
    """Replace, delete or add one value of ``data`` (new keys from ``keys``, values drawn from
    the strategy ``values``); False when the document has no place to touch."""
    places = [p for p in paths(data) if p]
    if not places:
        return False
    path = draw(st.sampled_from(places))
    parent = data
    for k in path[:-1]:
        parent = parent[k]
    op = draw(st.sampled_from(["replace", "replace", "delete", "add"]))
    if op == "delete":
        del parent[path[-1]]
    elif op == "add" and isinstance(parent, dict):
        parent[draw(st.sampled_from(keys))] = draw(values)
    else:
        parent[path[-1]] = draw(values)
    return True
