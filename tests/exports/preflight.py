"""A PDF/X-1a:2003 preflight of our own (veraPDF is not installable here), over pikepdf: every
rule pnpgen claims for its PDF/X-1a files (ISO 15930-4 as Acrobat's and PitStop's preflights
describe it; docs/exports.md). ``problems(pdf)`` lists each broken rule; an empty list passes."""

from __future__ import annotations

import io
import re

import pikepdf
from pikepdf import Name

# Characterization data in the ICC registry (color.org): a PDF/X-1a output intent naming one of
# these may leave out DestOutputProfile.
REGISTERED = {"CGATS TR 001", "CGATS TR 003", "CGATS TR 005", "CGATS TR 006", "FOGRA27", "FOGRA39", "FOGRA51",
              "FOGRA52", "JC200103", "JCW2003", "JCN2002", "JC2011", "IFRA26", "IFRA30"}
COLOUR_SPACES = {"/DeviceCMYK", "/DeviceGray", "/Pattern"}
_RGB_OPS = {"rg", "RG"}
# Inline images name their colour space in short (PDF 1.4 Table 4.43) or by a resource.
_INLINE_SPACES = {"/G": "/DeviceGray", "/CMYK": "/DeviceCMYK", "/RGB": "/DeviceRGB", "/I": "/Indexed"}
_PDF_DATE = re.compile(r"D:\d{14}(Z(00'00'?)?|[+-]\d\d'\d\d'?)")


def problems(pdf: bytes, edition: str = "2003") -> list[str]:
    """``edition`` 2001: PDF/X-1a:2001 (ISO 15930-1), PDF 1.3 at most, its version and conformance keys."""
    out: list[str] = []
    head = pdf[:16]
    version = re.match(rb"%PDF-(\d\.\d)", head)
    highest = 1.3 if edition == "2001" else 1.4
    if version is None or float(version.group(1)) > highest:
        out.append(f"header {head[:8]!r}: PDF/X-1a:{edition} is PDF {highest} at most")
    if b"/ObjStm" in pdf or re.search(rb"/Type\s*/XRef", pdf):
        out.append("object or cross-reference streams (PDF 1.5)")
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        if doc.is_encrypted:
            out.append("encrypted")
        if "/ID" not in doc.trailer or len(doc.trailer.ID) != 2:
            out.append("no trailer ID")
        out += _info(doc, edition)
        out += _intent(doc)
        for n, page in enumerate(doc.pages, 1):
            out += [f"page {n}: {p}" for p in _boxes(page)]
            if "/Annots" in page.obj:
                out.append(f"page {n}: annotations")
            if "/Group" in page.obj and page.obj.Group.get("/S") == Name.Transparency:
                out.append(f"page {n}: a transparency group")
            seen: set = set()
            out += [f"page {n}: {p}" for p in _content(page.obj, seen)]
        out += _subset_names(doc)
        if "/Names" in doc.Root and "/JavaScript" in doc.Root.Names:
            out.append("JavaScript")
        if "/Names" in doc.Root and "/EmbeddedFiles" in doc.Root.Names:
            out.append("embedded files")
        for key in ("/OpenAction", "/AA", "/AcroForm"):
            if key in doc.Root:
                out.append(f"catalog {key}: actions and forms are not print data")
    return sorted(set(out))


def _subset_names(doc) -> list[str]:
    """Different subsets of a file have different tags (ISO 32000-1 §9.6.4): a RIP that keeps
    fonts by name would print one subset's text with another's glyphs; and no tag names two
    subsets, of one font or of two (preflight7: a rulebook's four fonts were all AAAAAA+)."""
    import hashlib

    programs: dict[str, set[str]] = {}
    for obj in doc.objects:
        if not isinstance(obj, pikepdf.Dictionary) or obj.get("/Type") != Name.FontDescriptor:
            continue
        program = next((obj[k] for k in ("/FontFile", "/FontFile2", "/FontFile3") if k in obj), None)
        if program is not None:
            programs.setdefault(str(obj.get("/FontName")), set()).add(hashlib.sha256(program.read_bytes()).hexdigest())
    out = [f"{len(found)} different font programs are named {name}" for name, found in programs.items() if len(found) > 1]
    tags: dict[str, set[str]] = {}  # a tag names one subset, whatever the font (ReportLab: AAAAAA+ for every font's first)
    for name, found in programs.items():
        if re.fullmatch(r"/[A-Z]{6}\+.+", name):
            tags.setdefault(name[1:7], set()).update(found)
    return out + [f"the subset tag {tag} names {len(found)} different subsets" for tag, found in tags.items()
                  if len(found) > 1]


def _info(doc, edition: str = "2003") -> list[str]:
    info = doc.trailer.get("/Info")
    if info is None:
        return ["no document information dictionary"]
    out = []
    for key in ("/Title", "/CreationDate", "/ModDate"):
        if not str(info.get(key, "")):
            out.append(f"Info {key} missing")
    for key in ("/CreationDate", "/ModDate"):
        if str(info.get(key, "")) and not _PDF_DATE.fullmatch(str(info[key])):
            out.append(f"Info {key} {str(info[key])!r} is not a PDF date (D:YYYYMMDDHHmmSS and a time zone)")
    version, conformance = ("PDF/X-1:2001", "PDF/X-1a:2001") if edition == "2001" else ("PDF/X-1a:2003", None)
    if str(info.get("/GTS_PDFXVersion", "")) != version:
        out.append(f"Info /GTS_PDFXVersion is {info.get('/GTS_PDFXVersion')!r}, not {version}")
    if conformance is not None and str(info.get("/GTS_PDFXConformance", "")) != conformance:
        out.append(f"Info /GTS_PDFXConformance is {info.get('/GTS_PDFXConformance')!r}, not {conformance}")
    if info.get("/Trapped") not in (Name("/True"), Name("/False")):
        out.append(f"Info /Trapped is {info.get('/Trapped')!r}, not /True or /False")
    return out


def _intent(doc) -> list[str]:
    intents = [i for i in doc.Root.get("/OutputIntents", []) if i.get("/S") == Name.GTS_PDFX]
    if len(intents) != 1:
        return [f"{len(intents)} GTS_PDFX output intents, not one"]
    intent = intents[0]
    ident = str(intent.get("/OutputConditionIdentifier", ""))
    if not ident:
        return ["output intent without OutputConditionIdentifier"]
    if "/DestOutputProfile" in intent:
        profile = intent.DestOutputProfile
        return [] if int(profile.get("/N", 0)) == 4 else ["DestOutputProfile is not a CMYK profile"]
    if ident not in REGISTERED or not str(intent.get("/RegistryName", "")):
        return [f"output intent {ident!r} names no registered condition and embeds no profile"]
    return []


def _box(page, key):
    return [float(v) for v in page.obj[key]] if key in page.obj else None


def _boxes(page) -> list[str]:
    media = _box(page, "/MediaBox")
    trim, bleed, art = _box(page, "/TrimBox"), _box(page, "/BleedBox"), _box(page, "/ArtBox")
    if trim is None:
        return ["no TrimBox"]
    out = [] if bleed is not None else ["no BleedBox (pnpgen claims one on every page)"]
    if art is not None:
        out.append("both TrimBox and ArtBox")
    outer = bleed if bleed is not None else media
    if not _inside(trim, outer):
        out.append("TrimBox outside the BleedBox")
    if bleed is not None and not _inside(bleed, media):
        out.append("BleedBox outside the MediaBox")
    return out


def _inside(a, b, eps=1e-3) -> bool:
    return a[0] >= b[0] - eps and a[1] >= b[1] - eps and a[2] <= b[2] + eps and a[3] <= b[3] + eps


def _content(obj, seen: set, resources=None) -> list[str]:
    """RGB operators, colour spaces other than CMYK, grey and CMYK spot colours (or named and not
    defined), transparency, images that are not CMYK or grey, fonts not embedded: in a page or
    form and every form it draws."""
    out: list[str] = []
    try:
        ops = pikepdf.parse_content_stream(obj)
    except pikepdf.PdfError as e:
        return [f"content not readable: {e}"]
    res = obj.get("/Resources", resources)
    for operands, op in ops:
        if str(op) in _RGB_OPS:
            out.append(f"RGB colour operator {op}")
        elif str(op) in ("cs", "CS") and operands and str(operands[0]).startswith("/Device") \
                and str(operands[0]) not in COLOUR_SPACES:
            out.append(f"colour operator {op} sets {operands[0]}")
        elif str(op) in ("cs", "CS") and operands and str(operands[0]) not in COLOUR_SPACES \
                and str(operands[0]) not in ((res.get("/ColorSpace") or {}) if res is not None else {}):
            out.append(f"colour operator {op} sets {operands[0]}, which the resources do not define")
        elif str(op) == "PS":
            out.append("PostScript operator PS")
        elif str(op) == "INLINE IMAGE":
            out += [f"inline image: {p}" for p in _inline_image(operands[0], res)]
    if res is None:
        return out
    for name, cs in (res.get("/ColorSpace") or {}).items():
        out += [f"colour space {name}: {p}" for p in _colour_space(cs)]
    for name, gs in (res.get("/ExtGState") or {}).items():
        if gs.get("/SMask", Name("/None")) != Name("/None"):
            out.append(f"ExtGState {name}: soft mask")
        for key in ("/CA", "/ca"):
            if key in gs and float(gs[key]) != 1.0:
                out.append(f"ExtGState {name}: {key} {float(gs[key])}")
        if gs.get("/BM", Name.Normal) not in (Name.Normal, Name.Compatible):
            out.append(f"ExtGState {name}: blend mode {gs.BM}")
        for key in ("/TR", "/TR2"):
            if key in gs and gs[key] not in (Name.Identity, Name.Default):
                out.append(f"ExtGState {name}: transfer function {key}")
        if "/HTP" in gs:
            out.append(f"ExtGState {name}: halftone phase HTP")
        if "/HT" in gs and gs.HT != Name.Default:
            if int(gs.HT.get("/HalftoneType", 0)) not in (1, 5):
                out.append(f"ExtGState {name}: halftone type {gs.HT.get('/HalftoneType')}")
            if "/HalftoneName" in gs.HT:
                out.append(f"ExtGState {name}: a named halftone")
    for name, pattern in (res.get("/Pattern") or {}).items():
        shading = pattern.get("/Shading")
        if shading is not None and str(shading.get("/ColorSpace")) not in ("/DeviceCMYK", "/DeviceGray"):
            out.append(f"pattern {name}: shading in {shading.get('/ColorSpace')}")
        if "/ExtGState" in pattern:
            out += [f"pattern {name}: {p}" for p in _content_of_gs(pattern.ExtGState)]
        if int(pattern.get("/PatternType", 0)) == 1 and pattern.objgen not in seen:  # tiling: a content stream
            seen.add(pattern.objgen)
            out += [f"pattern {name}: {p}" for p in _content(pattern, seen)]
    for name, shading in (res.get("/Shading") or {}).items():
        if str(shading.get("/ColorSpace")) not in ("/DeviceCMYK", "/DeviceGray"):
            out.append(f"shading {name} in {shading.get('/ColorSpace')}")
    for name, font in (res.get("/Font") or {}).items():
        if not _embedded(font):
            out.append(f"font {name} ({font.get('/BaseFont')}) not embedded")
        if font.get("/Subtype") == Name.Type3 and font.objgen not in seen:  # glyphs are content streams
            seen.add(font.objgen)
            for glyph in font.CharProcs.values():
                out += [f"Type3 font {name}: {p}" for p in _content(glyph, seen, font.get("/Resources"))]
    for name, xobj in (res.get("/XObject") or {}).items():
        if xobj.objgen in seen:
            continue
        seen.add(xobj.objgen)
        if xobj.get("/Subtype") == Name.Image:
            if xobj.get("/ImageMask"):
                continue
            if "/SMask" in xobj or "/SMaskInData" in xobj:
                out.append(f"image {name}: soft mask")
            if "/OPI" in xobj:
                out.append(f"image {name}: OPI (the picture is elsewhere)")
            if any(alt.get("/DefaultForPrinting") is True for alt in xobj.get("/Alternates", ())):
                out.append(f"image {name}: an alternate image is the one printed")
            out += [f"image {name}: {p}" for p in _filters(xobj)]
            out += [f"image {name}: {p}" for p in _colour_space(xobj.get("/ColorSpace"))]
        elif xobj.get("/Subtype") == Name.Form:
            out += [f"form {name}: {p}" for p in _filters(xobj)]
            if "/Group" in xobj and xobj.Group.get("/S") == Name.Transparency:
                out.append(f"form {name}: a transparency group")
            out += _content(xobj, seen)
        else:
            out.append(f"XObject {name}: {xobj.get('/Subtype')}")
    return out


def _filters(stream) -> list[str]:
    """LZW and JBIG2 compression are not PDF/X-1a."""
    filters = stream.get("/Filter")
    names = [filters] if isinstance(filters, Name) else list(filters or ())
    return [f"{f} compression" for f in names if f in (Name.LZWDecode, Name.JBIG2Decode)]


def _content_of_gs(gs) -> list[str]:
    """A pattern's own graphics state: transparency in it is transparency."""
    out = []
    if gs.get("/SMask", Name("/None")) != Name("/None"):
        out.append("soft mask")
    for key in ("/CA", "/ca"):
        if key in gs and float(gs[key]) != 1.0:
            out.append(f"{key} {float(gs[key])}")
    if gs.get("/BM", Name.Normal) not in (Name.Normal, Name.Compatible):
        out.append(f"blend mode {gs.BM}")
    return out


def _inline_image(image, res) -> list[str]:
    """An inline image's colour space (abbreviated, or a resource's name)."""
    head = image.obj
    cs = head.get("/CS", head.get("/ColorSpace"))
    if head.get("/IM", head.get("/ImageMask")) is True:
        cs = Name.DeviceGray
    out = []
    if isinstance(cs, Name) and str(cs) in _INLINE_SPACES:
        cs = Name(_INLINE_SPACES[str(cs)])
    elif isinstance(cs, Name) and str(cs) not in COLOUR_SPACES and str(cs) != "/DeviceRGB":
        named = (res.get("/ColorSpace") or {}) if res is not None else {}
        cs = named.get(str(cs), cs)
    return out + _colour_space(cs)


def _colour_space(cs) -> list[str]:
    if cs is None:
        return ["no colour space"]
    if isinstance(cs, Name):
        return [] if str(cs) in COLOUR_SPACES else [f"{cs}"]
    family = str(cs[0])
    if family in ("/Separation", "/DeviceN"):
        return [] if str(cs[2]) in ("/DeviceCMYK", "/DeviceGray") else [f"{family} with alternate {cs[2]}"]
    if family == "/Indexed":
        return _colour_space(cs[1])
    if family == "/Pattern":
        return [] if len(cs) == 1 else _colour_space(cs[1])
    return [family]


def _embedded(font) -> bool:
    if font.get("/Subtype") == Name.Type3:
        return True
    if font.get("/Subtype") == Name.Type0:
        return all(_embedded(d) for d in font.DescendantFonts)
    desc = font.get("/FontDescriptor")
    return desc is not None and any(k in desc for k in ("/FontFile", "/FontFile2", "/FontFile3"))
