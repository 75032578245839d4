# Loose ladders (yurumi shicho; format: README.md). The attacker cannot give
# atari at every move; the target reaches 4 liberties on the way and still
# dies, so these need the reader's loose-ladder pass (docs/TACTICS.md). The
# last two cases are the same chases failing: a defender's stone on the path
# (A7) lets the target out, written "attack A2 saved" like the broken ladders
# of ladders.t (the attacker moves first and does not capture).
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

% loose ladder that fails: a white stone at A7 on the path (defender's stone)
# The first diagram with A7 white instead of black. B1 is again not an
# atari; W A3 (A2-A4: A1 B3 B4 A5). B B4 (3); W A5 (4: A1 B3 B5 A6); B B5;
# W A6 now joins A7: A1 B3 B6 B7 A8, 5 liberties and open space above, so
# the chase is over. Black's other third moves fail too (GNU Go 3.8, defend
# A2 after B1 A3 and each of them: B4 -> A5, A5 -> B5, B3 -> A5, A1 -> A5):
# e.g. B A5, W B5 (liberties B4 B6); W B4 next joins A2-A4 and B5 with
# A1 B3 C4 B6, and B6 leads to A6/A7. GNU Go: attack A2 -> 0, defend A2 -> 1 B3.
. . . . . . . . .
. . . . . . . . .
O . X . . . . . .
. . . . . . . . .
. . X . . . . . .
O . . . . . . . .
. . X . . . . . .
O X . . . . . . .
. . O O . . . . .
attack A2 saved
defend A2 saved

% loose ladder that fails in the busy position: A7 white (joined to A8)
# The second diagram with A7 white instead of black: the chase B1, W A3,
# B B4, W A5, B B5, W A6 ends with A2-A8 connected (A1 B3 B6 B7 B8 A9, six
# liberties). GNU Go 3.8: attack A2 -> 0, defend A2 -> 1 B3.
. . . X . . . . .
O . . . . O . . .
O . X . X . . X .
. . . . . . . O O
. . X O . . O X .
O . . . . . . . O
. . X . . . . . .
O X . . . . . O .
. . O O . . . . .
attack A2 saved
defend A2 saved
