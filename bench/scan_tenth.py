"""A tenth, held-out photo generator for `sheetgen scan` (bench/gen_tenth.py): sheets marked the way a game leaves them.

gen_tenth is written from the feature's specification, the games' rules (the French rule sheets) and
how people play and photograph, without looking at the reader or the other generators' marking. Its
emphasis is the marking: not a uniform random share of boxes but the state a real game leaves.
Each photo is one moment of a game: early (20%: 1-10 marks, 1-3 in 40% of them), mid game (30%:
30-65% of the way to the end), end of game (30%: where the rules stop it) or everything done (20%:
85-100% of the sheet's boxes, half of those 95-100%; or one or two sections done to the end while
the others stay as the game left them, one maybe empty). The order follows the rules: Harvest Dice
round by round (one to three dice a player, each planted in the garden - the first of a kind
anywhere in the die's column, the next beside one of their kind - or fed to the pig as many boxes
as the die shows, in order; the shared die checks the next box of a market; the game ends when the
garden, the pig or a market is full, the round finished; the pig's bonus circles checked once their
row is full); Imperial Settlers' empire tracks checked from the left, the fields of a bridge only
once its section is built; the village's buildings box by box in any order, the advanced colony
ladder's values circled in order; Glassworks boards copied player by player (or all along), each
colour's column filled from the bottom, the game ending when someone has 17 pieces, the winner's
box checked. So marks form runs, sections differ in density, an empty section sits by a full one.
Each player has a habit kept over their sheet, with natural variation: crosses (some big, running
up to 2 mm over the border, never into a neighbouring box's inner part), solid fills, ticks (drawn
fast, tailing off thin), small dots, short slashes, small ticks in one corner; some circle the round
boxes; marks off-centre the way that hand places them. One pen a player: HB, 2B or mechanical pencil
(graphite on the paper's tooth, pressure), blue or black ballpoint (with skips), gel, felt tip;
some sheets started in pencil and finished in pen (+mixed). Glassworks boards: each player's own
habit, or one scorer's. Garden cells: hatched or scribbled in orange, green or red colour pencil or
felt pen, a grey pencil letter C/S/T, or a drawn carrot (with green leaves), tomato (green stalk)
or frilly salad. Write boxes get a name, the rounds played and, at the end, the scores (Hershey
handwriting in the player's pen). Truth is what a careful reader says: no erased, hidden or
half-made marks. Printing and photo stay ordinary: A4 (or Letter, 25%) as rendered, white or
slightly off-white paper, on a wood, light or dark table with the paper's soft shadow; a phone
above it: tilt up to 15 degrees, any roll, 120-300 dpi on the sheet, under 12 MP, a gentle light
slope and spot, vignetting, white balance, mild blur and noise, JPEG 70-92.
Kinds: "pen/style +moment" (+early, +mid, +end, +full) with +overshoot, +tail, +corner, +mixed.

Run: python bench/scan_tenth.py --photos 14 --seed 1 --verbose
     (--only N [N...] redoes single photos, --save DIR keeps the wrong/refused ones)
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from scan_probe import by_mark  # noqa: E402


def main() -> None:
    import gen_tenth

    by_mark(__doc__, gen_tenth.photo)


if __name__ == "__main__":
    main()
