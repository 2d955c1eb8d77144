"""Print-and-play decks: the cards drawn as SVG from the deck's own data, laid out on sheets.

- `source`: the one place the decks read the rules (the cards, the hand ranking, the turn
  actions, the shift words);
- `art`: each card's face and the deck's back as SVG (the printed sheets and the phones' card
  pickers draw the same faces);
- `sheets`: poker-size cards nine to a sheet on A4 or US Letter, cut marks, mirrored backs;
- `reference`: the one-page rules summary per game and the players' reference card per preset.

The pages are served by `companion.server.decks_pages` under `/decks`.
"""
