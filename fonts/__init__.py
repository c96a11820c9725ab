"""The fonts pnpgen ships (SIL Open Font License 1.1: OFL.txt). This folder stays at the top of
the repository; pyproject.toml maps it to the package ``pnpgen.fontfiles`` so wheels and installs
carry it (pnpgen.resources finds it)."""
