#!/usr/bin/env python3
"""A print shop's preflight of export folders: the command ``pnpgen preflight``, which the
installed package ships (pnpgen/preflight/; docs/exports.md, "A print shop's preflight of the
files"). Kept for the checkouts and scripts that run it by this name:

    python scripts/preflight.py build/<game>/<preset> [more folders] [--json report.json] …
"""

from __future__ import annotations

import sys

from pnpgen.cli import main

if __name__ == "__main__":
    sys.exit(main(["preflight", *sys.argv[1:]]))
