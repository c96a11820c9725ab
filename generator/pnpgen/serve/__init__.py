"""``pnpgen serve``: a live preview of a game's faces, sheets and rulebook on 127.0.0.1."""
