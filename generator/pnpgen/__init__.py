"""pnpgen: print-and-play components and rulebooks from YAML, Jinja/SVG templates and draft texts."""

__version__ = "0.1.0"
