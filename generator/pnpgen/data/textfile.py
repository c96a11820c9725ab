"""Text files the designer writes (drafts, CSV sheets) → text: UTF-8 with or without a BOM,
UTF-16 with a BOM, or CP932 (Shift_JIS), as Japanese Windows and Excel save them. Western
Windows' Windows-1252 (Excel's "CSV (Comma delimited)", Notepad's "ANSI") is told to be saved
as UTF-8: read as CP932, "It’s" would print "It 痴"."""

from __future__ import annotations

import re
from pathlib import Path

from pnpgen.errors import InputError
from pnpgen.patterns import later

MAX_DRAFT_BYTES = 300_000  # a draft: some 100,000 characters of Japanese, a book of 150 A5 pages (rulebook/reader.py)


def decode(data: bytes, path: Path | str | None = None) -> tuple[str, str]:
    """Bytes → (text, encoding name). Raises InputError when no supported encoding fits."""
    if data.startswith(b"\xef\xbb\xbf"):
        try:
            return data[3:].decode("utf-8"), "UTF-8 (BOM)"
        except UnicodeDecodeError as e:
            raise _undecodable(path, "UTF-8 with a BOM", data, e) from None
    for bom, codec, name in ((b"\xff\xfe", "utf-16-le", "UTF-16LE (BOM)"), (b"\xfe\xff", "utf-16-be", "UTF-16BE (BOM)")):
        if data.startswith(bom):
            try:
                return data[2:].decode(codec), name
            except UnicodeDecodeError as e:
                raise _undecodable(path, name, data, e) from None
    utf16 = _utf16_without_bom(data)
    if utf16 is not None:  # (without its mark it was read as NUL characters before)
        codec, name = utf16
        try:
            return data.decode(codec), name
        except UnicodeDecodeError as e:
            raise _undecodable(path, name, data, e) from None
    try:
        return data.decode("utf-8"), "UTF-8"
    except UnicodeDecodeError as utf8_error:
        halves = _encoded_surrogate(data, utf8_error)
        if halves is not None:
            raise _surrogate(path, data, utf8_error.start, halves) from None
        try:
            text = data.decode("cp932")
        except UnicodeDecodeError:
            if _western(data, None):
                raise _windows_1252(path, data) from None
            raise _undecodable(path, "UTF-8 or CP932 (Shift_JIS)", data, utf8_error) from None
        if _western(data, text):
            raise _windows_1252(path, data) from None
        if _euc_jp(data):  # (read as CP932 it printed half-width kana: ､｢､ｫ for あか)
            raise _undecodable(path, "UTF-8 or CP932 (Shift_JIS)", data, utf8_error) from None
        return text, "CP932 (Shift_JIS)"


# Japanese text holds kana or its punctuation (half-width kana in runs: ｶｰﾄﾞ); Western text read
# as CP932 holds none, and its "kanji" stand right after a Latin letter (It’s → It痴), where the
# high byte followed it. Its capitals À–ß are CP932's half-width kana, one by one beside a letter
# (Über → ﾜber, Straße → Straﾟe): not Japanese.
_JAPANESE = later(r"[\u3000-\u30ff]|[\uff61-\uff9f]{2}")
_LETTER_THEN_CJK = later(r"[A-Za-z][\u4e00-\u9fff\uff00-\uffef]|[\uff61-\uff9f][A-Za-z]")
# Windows-1252's letters and typography beside a Latin letter: It’s, café, naïve, “Go”
_LETTER_BESIDE_HIGH = later(r"[A-Za-z][\u00c0-\u00ff\u2018-\u201e\u2013\u2014\u2026]|"
                                 r"[\u00c0-\u00ff\u2018-\u201e][A-Za-z]")


def reads_as_windows_1252(data: bytes) -> bool:
    """Is this text, not UTF-8, Windows-1252 rather than CP932 (for a YAML file's message)?"""
    try:
        cp932: str | None = data.decode("cp932")
    except UnicodeDecodeError:
        cp932 = None
    return _western(data, cp932)


def _western(data: bytes, cp932: str | None) -> bool:
    """Is this Windows-1252 text (CP932 reading ``cp932``, None when it has none)?"""
    try:
        western = data.decode("cp1252")
    except UnicodeDecodeError:
        return False
    if cp932 is not None and (_JAPANESE.search(cp932) or not _LETTER_THEN_CJK.search(cp932)):
        return False
    return bool(_LETTER_BESIDE_HIGH.search(western))


def _windows_1252(path, data: bytes) -> InputError:
    at = next(i for i, b in enumerate(data) if b >= 0x80)
    line_start = data.rfind(b"\n", 0, at) + 1
    words = re.split(r"[\s,;]+", data[line_start:at + 12].decode("cp1252", "replace"))
    word = next((w for w in words if any(ord(c) >= 0x80 for c in w)), "")
    return InputError(
        f"not UTF-8 text: it reads as Windows-1252 (Western European: {word!r}), as Excel's \"CSV (Comma "
        "delimited)\" and Notepad's \"ANSI\" save it; read as the Japanese CP932 pnpgen also takes, its quotes "
        "and accents would print as kanji", path=path, line=data.count(b"\n", 0, at) + 1,
        expected="the file saved as UTF-8: Excel: Save As, CSV UTF-8 (Comma delimited); Notepad: Save As, "
        "Encoding UTF-8; LibreOffice: Character set Unicode (UTF-8)")


def _encoded_surrogate(data: bytes, e: UnicodeDecodeError) -> str | None:
    """UTF-8 text but for a character written as its two UTF-16 halves (ED A0 80…, CESU-8, as Java
    and some exporters write an emoji): the character as they spell it (one half alone: itself),
    or None when the first bad byte is no such half. Read as CP932 its Japanese printed as kanji
    salad, with no word of why."""
    if data[e.start:e.start + 1] != b"\xed" or not b"\xa0" <= data[e.start + 1:e.start + 2] <= b"\xbf":
        return None
    try:
        text = data.decode("utf-8", "surrogatepass")
    except UnicodeDecodeError:
        return None
    at = len(data[:e.start].decode("utf-8"))
    pair = text[at:at + 2]
    if len(pair) == 2 and "\ud800" <= pair[0] <= "\udbff" and "\udc00" <= pair[1] <= "\udfff":
        return pair.encode("utf-16-le", "surrogatepass").decode("utf-16-le")
    return text[at]


def _surrogate(path, data: bytes, at: int, char: str) -> InputError:
    if "\ud800" <= char <= "\udfff":
        shown = f"half of a character alone (U+{ord(char):04X}, a UTF-16 surrogate)"
    else:
        shown = f"the character {char + ' ' if char.isprintable() else ''}(U+{ord(char):04X}) written as its two UTF-16 halves"
    return InputError(
        f"not UTF-8 text: byte {at + 1} starts {shown} in UTF-8's bytes "
        f"({data[at:at + 3].hex(' ').upper()}…, CESU-8), which UTF-8 does not allow; read as the CP932 pnpgen "
        "also takes, its Japanese would print as other kanji", path=path, line=data.count(b"\n", 0, at) + 1,
        expected="the file saved again as UTF-8 from the spreadsheet program or editor (Excel: Save As, CSV UTF-8 "
        "(Comma delimited); LibreOffice: Character set Unicode (UTF-8); メモ帳: 文字コード UTF-8)")


def _utf16_without_bom(data: bytes) -> tuple[str, str] | None:
    """UTF-16 saved without its byte-order mark: the NUL halves of its ASCII characters (a header
    row, digits, commas) all at odd offsets (little-endian) or all at even ones (big-endian)."""
    sample = data[:4096]
    if b"\x00" not in sample or len(sample) < 16 or len(sample) % 2:
        return None
    odd, even = sample[1::2].count(0), sample[0::2].count(0)
    if odd >= max(4, len(sample) // 8) and even == 0:
        return "utf-16-le", "UTF-16LE (no BOM)"
    if even >= max(4, len(sample) // 8) and odd == 0:
        return "utf-16-be", "UTF-16BE (no BOM)"
    return None


def _undecodable(path, tried: str, data: bytes, e: UnicodeDecodeError) -> InputError:
    line = data.count(b"\n", 0, e.start) + 1
    if _euc_jp(data):
        return InputError("not readable text: it reads as EUC-JP, as older Unix editors save, which pnpgen does "
                          "not read (read as the CP932 it also takes, its Japanese would print as half-width kana)",
                          path=path, line=line, expected=SAVE_AS_UTF8)
    return InputError(
        f"not readable text: byte 0x{data[e.start]:02x} at offset {e.start} is invalid as {tried}{saved_as(data)}",
        path=path,
        line=line,
        expected="a text file in UTF-8 (with or without BOM) or CP932/Shift_JIS",
    )


SAVE_AS_UTF8 = ("the file saved as UTF-8 (メモ帳: 名前を付けて保存 → 文字コード UTF-8; "
                "VS Code: エンコード付きで保存 → UTF-8)")


def saved_as(data: bytes) -> str:
    """The encoding a file that does not read as it should looks saved in, said for its message
    (``: it is UTF-16``, ``: it reads as Shift_JIS (CP932), …``, EUC-JP), or "" when none fits:
    one guess for every file a designer writes, a YAML file, a template, a draft, a sheet."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")) or _utf16_without_bom(data) is not None:
        return ": it is UTF-16"
    if _euc_jp(data):
        return ": it reads as EUC-JP, as older Unix editors save"
    try:
        data.decode("cp932")
    except UnicodeDecodeError:
        return ""
    return ": it reads as Shift_JIS (CP932), as older Japanese editors and Excel save"


_KANA = later(r"[\u3041-\u30fe]")  # (full-width: EUC-JP's bytes read as CP932 are half-width kana and odd kanji)


def _euc_jp(data: bytes) -> bool:
    """Is this EUC-JP text: it reads so, with more kana than read as CP932 (which reads most of
    EUC-JP's bytes, as half-width kana and odd kanji; CP932's own kana are no EUC-JP, and its
    half-width kana read as EUC-JP are kanji)."""
    try:
        euc = data.decode("euc_jp")
    except UnicodeDecodeError:
        return False
    try:
        cp932 = len(_KANA.findall(data.decode("cp932")))
    except UnicodeDecodeError:
        cp932 = 0
    return len(_KANA.findall(euc)) > cp932


def not_utf8(path: Path | str, data: bytes, e: UnicodeDecodeError, what: str = "", key: str | None = None) -> InputError:
    """A file that must be UTF-8 (a YAML file, a template: ``what`` names it) and is not: the
    line of its first stray byte, the encoding it looks saved in, how to save it as UTF-8."""
    line = data.count(b"\n", 0, e.start) + 1
    said = f"{what} is not UTF-8 text" if what else "not UTF-8 text"
    if reads_as_windows_1252(data) and not saved_as(data).endswith("UTF-16"):
        return InputError(f"{said} (byte {e.start + 1} is 0x{data[e.start]:02x}): it reads as Windows-1252 (Western "
                          "European), as Notepad's \"ANSI\" and other Western Windows editors save", path=path, line=line, key=key,
                          expected="the file saved as UTF-8 (Notepad: Save As, Encoding UTF-8; VS Code: Save with "
                          "Encoding, UTF-8)")
    return InputError(f"{said} (byte {e.start + 1} is 0x{data[e.start]:02x}){saved_as(data)}", path=path, line=line,
                      key=key, expected=SAVE_AS_UTF8)
