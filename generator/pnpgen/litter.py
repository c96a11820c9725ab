"""The files editors and the operating system make beside a designer's files while they are open
or being saved — swap files, lock files, autosaves, backups, the temporary file of an atomic save,
macOS's ``._`` and ``.DS_Store``. The one list of their names: ``watch`` and ``serve`` do not
rebuild for them, and no build reads them (as a deck, a picture or a font) nor counts them among
its inputs; nothing is said about them. docs/rebuilding.md ("watch") lists them for the designer."""

from __future__ import annotations

import re

# One pattern per editor or system, matched against a file's whole name (not its folder).
PATTERNS = (
    r"\..*\.sw[a-px]",          # Vim's swap files (.deck.yaml.swp, .swo, … .swa) and its .swx probe
    r"[0-9]+",                  # Vim's probe of a folder before it writes there (4913, 5036, …)
    r".*~",                     # Vim's and Emacs's backups (deck.yaml~)
    r"\.#.*",                   # Emacs's lock links (.#deck.yaml)
    r"#.*#",                    # Emacs's autosaves (#deck.yaml#)
    r"\.~lock\..*#",            # LibreOffice's lock files (.~lock.deck.ods#)
    r"~\$.*",                   # Excel's and Word's lock files (~$deck.xlsx)
    r"\._.*",                   # macOS's AppleDouble files (._deck.yaml: on a USB stick, a share, from a zip)
    r"\.DS_Store",              # macOS's Finder
    r".*\.tmp(\.[0-9]+)?",        # atomic saves' temporary files (deck.yaml.tmp, deck.yaml.tmp.1234)
    r".*___jb_(tmp|old|bak)___",  # JetBrains IDEs' safe write (deck.yaml___jb_tmp___)
    r".*\.kate-swp",            # Kate's swap files
    r"\.goutputstream-.*",      # gedit's (GIO's) atomic saves
    r".*\.crswap",              # a browser's File System Access saves
)
LITTER = re.compile("|".join(f"(?:{p})" for p in PATTERNS), re.IGNORECASE)


def is_litter(name: str) -> bool:
    """Whether a file of this name (no folder) is an editor's or the system's, never the designer's."""
    return LITTER.fullmatch(name) is not None
