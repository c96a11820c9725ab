"""Text files the designer writes (drafts, CSV sheets) → text: UTF-8 with or without a BOM,
UTF-16 with a BOM, or CP932 (Shift_JIS), as Japanese Windows and Excel save them."""

from __future__ import annotations

from pathlib import Path

from pnpgen.errors import InputError


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
        try:
            return data.decode("cp932"), "CP932 (Shift_JIS)"
        except UnicodeDecodeError:
            raise _undecodable(path, "UTF-8 or CP932 (Shift_JIS)", data, utf8_error) from None


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
    return InputError(
        f"not readable text: byte 0x{data[e.start]:02x} at offset {e.start} is invalid as {tried}",
        path=path,
        line=line,
        expected="a text file in UTF-8 (with or without BOM) or CP932/Shift_JIS",
    )
