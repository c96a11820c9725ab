"""Exports for print shops and virtual tables: per-face PNGs and PDFs in a shop's sizes (presets),
an order list, Tabletop Simulator decks, a contact sheet and proof overlays."""
