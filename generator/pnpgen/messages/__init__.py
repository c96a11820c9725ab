"""Labels pnpgen itself prints (sheet headers, bill of materials, tile notes, rulebook cover and
headings), in each language it ships: ``msg(key, lang, **args)``.

The catalogues are ``<lang>.yaml`` beside this file, one flat ``key: text`` mapping each, with
``{name}`` slots filled from ``args``. A language pnpgen has no catalogue for gets English (the
game's own text is still in its language); a regional tag falls back to its language
(``en-GB`` → ``en``). The Japanese labels keep the English gloss the sheets always had.
"""

from __future__ import annotations

from functools import cache

from pnpgen import usercache
from pnpgen.resources import folder

HERE = folder("pnpgen.messages")
FALLBACK = "en"
KIND = "messages"  # a catalogue as read, kept by its text in the machine's cache (usercache.py)
# (PyYAML told by its installed copy, not imported: a start whose catalogue is kept never parses one)
_READER = b"pnpgen-messages 2 " + usercache.installed("yaml")


@cache
def catalogue(lang: str) -> dict[str, str]:
    """The messages of one shipped language (empty for one pnpgen does not ship: a name no
    catalogue has, such as a forged history entry's ``../../x``, is never made a path and read)."""
    if lang not in languages():
        return {}
    text = (HERE / f"{lang}.yaml").read_bytes()
    entry = usercache.key(_READER, text)  # read back (0.2 ms), not parsed (2 ms), at every start
    kept = usercache.get(KIND, entry)
    if isinstance(kept, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in kept.items()):
        return kept
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml: 2 ms, not 13
    read = {str(k): str(v) for k, v in yaml.load(text.decode("utf-8"), Loader=loader).items()}
    usercache.put(KIND, entry, read)
    return read


@cache
def languages() -> tuple[str, ...]:
    """The languages pnpgen's own labels come in."""
    return tuple(sorted(p.stem for p in HERE.glob("*.yaml")))


def resolve(lang: str) -> str:
    """The shipped catalogue that serves ``lang``."""
    for cand in (lang, lang.replace("_", "-").split("-")[0].lower()):
        if catalogue(cand):
            return cand
    return FALLBACK


def labels_language(lang: str) -> str:
    """The language pnpgen's labels for an edition in ``lang`` are written in, to set them by (its
    hyphenation): ``lang`` where a catalogue of it serves it (``en-GB`` by ``en``'s), else English,
    whose labels an edition pnpgen has none for gets (``de``: its "Contents" are not German words)."""
    served = resolve(lang)
    return lang if served == lang.replace("_", "-").split("-")[0].lower() else served


def msg(key: str, lang: str = "ja", **args: object) -> str:
    """The label ``key`` in ``lang`` with its ``{slots}`` filled (a KeyError names a missing key)."""
    text = catalogue(resolve(lang))[key]
    return text.format(**args) if args else text


def counted(n: int, word: str, plural: str | None = None) -> str:
    """``1 sheet``, ``3 sheets``: a count said in English with its word in the right number
    (``plural`` where adding an s is wrong: ``copy``, ``copies``)."""
    return f"{n} {word if n == 1 else plural or word + 's'}"

