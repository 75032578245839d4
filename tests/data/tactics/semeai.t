# Short capture races (semeai), built by hand and checked against GNU Go 3.8
# (same results and first moves). Format: README.md.

% race, three liberties each with one shared: the inner liberties cannot be filled
# White D3 (A3-D3, D2, D1) has E1, E2 and the shared C1; black A2-C2 has A1, B1
# and C1. Black first fills E2 and E1 and wins. White first loses too: W B1
# then W A1 puts its own two stones in atari (B C1 captures them), and W C1
# leaves the white string itself short of liberties.
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
X X X X X . . . .
O O O O X X . . .
X X X O . X . . .
. . . O . X . . .
attack D3 captured E1|E2
defend D3 captured

% race, two liberties against three: the longer side wins moving second
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
X X X X X . . . .
O O O O X X . . .
X X X O X X . . .
. . . O . X . . .
attack D3 captured E1
defend D3 captured
