# Loose ladders (yurumi shicho; format: README.md). The attacker cannot give
# atari at every move; the target reaches 4 liberties on the way and still
# dies, so these need the reader's loose-ladder pass (docs/TACTICS.md).
# Checked against GNU Go 3.8 (attack: 1 B1 in both cases) and read by hand.

% loose ladder along the edge: B1, then blocks that leave 3 liberties
# White A2 has liberties A1, A3; B1 is not an atari. W A3 joins A4: A2-A4
# has 4 liberties (A1 B3 B4 A5). B B4 (3 left); W A5 (4: A1 B3 B5 A6);
# B B5 (3); W A6 (3: A1 B3 B6, A7 is black); B B6 (2); W B3 leaves only A1
# and Black captures at A1 (A1 also captures, so it is legal).
. . . . . . . . .
. . . . . . . . .
X . X . . . . . .
. . . . . . . . .
. . X . . . . . .
O . . . . . . . .
. . X . . . . . .
O X . . . . . . .
. . O O . . . . .
attack A2 captured B1
defend A2 saved

% loose ladder in a busy position (random local position labelled by GNU Go)
# The same chase up the A file: B1, W A3 (4 liberties), B B4, W A5, B B5, ...
. . . X . . . . .
O . . . . O . . .
X . X . X . . X .
. . . . . . . O O
. . X O . . O X .
O . . . . . . . O
. . X . . . . . .
O X . . . . . O .
. . O O . . . . .
attack A2 captured B1
defend A2 saved
