"""Optional content (layers, PDF 1.5 §8.11 of ISO 32000-1): the die line of a shop file as a layer
``CutContour`` that viewers show and printing leaves out, through pikepdf's public API.

The writer marks what belongs to a layer with ``/OC /<name> BDC … EMC`` (``marked_content``);
``add_layers`` then makes one optional content group per name and names it in each page's
``/Properties``, and lists the groups in the catalogue's ``/OCProperties``: on in the default
configuration, with a usage of view ON and print OFF, and an auto-state for the print event so a
viewer's printing turns the layer off (a cutter's RIP reads the spot colour ``CutContour``).
"""

from __future__ import annotations

import io


def marked_content(name: str) -> str:
    """The content operator that opens ``name``'s layer (close it with ``EMC``)."""
    return f"/OC /{name} BDC"


def add_layers(pdf: bytes, names: list[str]) -> bytes:
    import pikepdf
    from pikepdf import Array, Dictionary, Name, String

    with pikepdf.open(io.BytesIO(pdf)) as doc:
        groups = {name: doc.make_indirect(Dictionary(
            Type=Name.OCG, Name=String(name),
            Usage=Dictionary(Print=Dictionary(PrintState=Name.OFF), View=Dictionary(ViewState=Name.ON)),
        )) for name in names}
        every = Array(list(groups.values()))
        doc.Root.OCProperties = Dictionary(OCGs=every, D=Dictionary(
            Name=String("pnpgen"), Order=every, ON=every, OFF=Array([]),
            AS=Array([Dictionary(Event=Name.Print, OCGs=every, Category=Array([Name.Print])),
                      Dictionary(Event=Name.View, OCGs=every, Category=Array([Name.View]))]),
        ))
        for page in doc.pages:
            contents = page.obj.Contents
            streams = [contents] if isinstance(contents, pikepdf.Stream) else list(contents)
            data = b"".join(s.read_bytes() for s in streams)
            used = [name for name in names if marked_content(name).encode() in data]
            if not used:
                continue
            if "/Properties" not in page.Resources:
                page.Resources.Properties = Dictionary()
            for name in used:
                page.Resources.Properties[Name("/" + name)] = groups[name]
        out = io.BytesIO()
        doc.save(out, deterministic_id=True, compress_streams=True, min_version="1.5",
                 object_stream_mode=pikepdf.ObjectStreamMode.disable)
        return out.getvalue()
